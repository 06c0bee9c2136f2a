"""Wire formats. One package per format; they never import each other.

Every format package exposes the same functions (see :class:`Codec`), and
:func:`get_codec` finds a format's codec by name.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from toolwire.errors import ToolwireError
from toolwire.ir.base import FORMATS, Format
from toolwire.ir.notes import Notes
from toolwire.ir.tools import AnyTool, ToolChoice

__all__ = ["Codec", "ToolConfig", "get_codec"]

_MODULES: dict[str, str] = {
    "openai-chat": "toolwire.formats.openai_chat",
    "openai-responses": "toolwire.formats.openai_responses",
    "anthropic": "toolwire.formats.anthropic",
    "gemini": "toolwire.formats.gemini",
    "bedrock-converse": "toolwire.formats.bedrock_converse",
}


@dataclass(frozen=True, slots=True)
class ToolConfig:
    """The tool-related part of a request: tools, tool choice and the parallel-call switch."""

    tools: tuple[AnyTool, ...] = ()
    tool_choice: ToolChoice | None = None
    parallel_tool_calls: bool | None = None


@dataclass(frozen=True, slots=True)
class Codec:
    """The functions one wire format provides. ``decode_*`` is wire->IR, ``encode_*`` IR->wire.

    Attributes:
        name: the format name.
        decode_tools: ``(wire_tools, notes, path) -> tuple[AnyTool, ...]``.
        encode_tools: ``(tools, notes, path) -> list[wire_tool]``.
        decode_tool_config: ``(request_payload, notes) -> ToolConfig`` (reads the
            request's tools, tool choice and parallel switch).
        encode_tool_config: ``(config, notes) -> dict`` of top-level request fields.
        extra: further functions added by later layers (request, response, error and
            stream codecs), by name.
    """

    name: Format
    decode_tools: Callable[[Any, Notes, str], tuple[AnyTool, ...]]
    encode_tools: Callable[[Sequence[AnyTool], Notes, str], list[dict[str, Any]]]
    decode_tool_config: Callable[[dict[str, Any], Notes], ToolConfig]
    encode_tool_config: Callable[[ToolConfig, Notes], dict[str, Any]]


def get_codec(name: str) -> Codec:
    """The :class:`Codec` of a format (``openai-chat``, ``openai-responses``, ``anthropic``, ``gemini``)."""
    module = _MODULES.get(name) if type(name) is str else None  # a list: unhashable
    if module is None:
        raise ToolwireError(f"unknown format {name!r}; expected one of {', '.join(FORMATS)}")
    codec: Codec = importlib.import_module(module).CODEC
    return codec
