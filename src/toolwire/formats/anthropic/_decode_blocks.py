"""Anthropic content blocks -> IR parts (request messages, tool results and responses).

==========================================  ================================================
wire block                                  IR part
==========================================  ================================================
``text``                                    :class:`TextPart` (``citations``, ``cache_control`` in extra)
``image`` (``base64`` / ``url`` / ``file``)  :class:`ImagePart`
``document`` (``base64`` / ``text`` /       :class:`FilePart` (``title`` as ``filename``;
``url`` / ``file`` source)                  ``context``, ``citations`` in extra)
``tool_use``                                :class:`ToolCall` (``input`` as compact JSON text)
``tool_result``                             :class:`ToolResult` (string content hinted)
``thinking``                                :class:`ReasoningPart` (``text``, ``signature``)
``redacted_thinking``                       :class:`ReasoningPart` (``redacted``)
``server_tool_use``, ``mcp_tool_use``       :class:`ToolCall` ``kind="builtin"`` (block in extra)
``*_tool_result`` (server tools)            :class:`ToolResult` ``kind="builtin"`` (block in extra)
anything else                               kept opaque (``opaque_blocks``) by position
==========================================  ================================================
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolwire.formats._wire import as_dict, child, fail, opt_bool, opt_str, req_dict, req_name, req_str
from toolwire.formats.anthropic._util import OPAQUE, compact, rest_fields
from toolwire.ir.base import Extra
from toolwire.ir.content import (
    ContentPart,
    FilePart,
    ImagePart,
    Part,
    ReasoningPart,
    TextPart,
    ToolCall,
    ToolResult,
)

__all__ = ["DECODERS", "decode_block", "decode_blocks", "decode_result_content"]

_TEXT_KNOWN = frozenset({"type", "text"})
_MEDIA_KNOWN = frozenset({"type", "source"})
_TOOL_USE_KNOWN = frozenset({"type", "id", "name", "input"})
_RESULT_KNOWN = frozenset({"type", "tool_use_id", "content", "is_error"})
_THINKING_KNOWN = frozenset({"type", "thinking", "signature"})
_REDACTED_KNOWN = frozenset({"type", "data"})
_BUILTIN_CALLS = frozenset({"server_tool_use", "mcp_tool_use"})
_BASE64 = (frozenset({"type", "media_type", "data"}), ("media_type", "data"))
_SOURCES: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {
    "base64": _BASE64,
    "text": _BASE64,
    "url": (frozenset({"type", "url"}), ("url",)),
    "file": (frozenset({"type", "file_id"}), ("file_id",)),
}

_Decoder = Callable[[dict[str, Any], str], Part | None]


def _text(block: dict[str, Any], path: str) -> TextPart:
    text = req_str(block, "text", path)
    if len(block) == 2:  # just "type" and "text": nothing else to keep
        return TextPart(text=text)
    return TextPart(text=text, extra=rest_fields(block, _TEXT_KNOWN))


def _source(block: dict[str, Any], path: str) -> tuple[str, dict[str, Any]] | None:
    """``(source type, source)`` when the source has one of the plain shapes the IR names."""
    source = req_dict(block, "source", path)
    kind = source.get("type")
    shape = _SOURCES.get(kind) if type(kind) is str else None
    if shape is None or source.keys() != shape[0]:
        return None
    if all(type(source[key]) is str for key in shape[1]):
        return kind, source  # type: ignore[return-value]
    return None


def _image(block: dict[str, Any], path: str) -> ImagePart | None:
    got = _source(block, path)
    if got is None or got[0] == "text":
        return None
    kind, source = got
    extra = rest_fields(block, _MEDIA_KNOWN)
    if kind == "base64":
        return ImagePart(data=source["data"], media_type=source["media_type"], extra=extra)
    if kind == "url":
        return ImagePart(url=source["url"], extra=extra)
    return ImagePart(file_id=source["file_id"], extra=extra)


def _document(block: dict[str, Any], path: str) -> FilePart | None:
    got = _source(block, path)
    if got is None:
        return None
    kind, source = got
    title = block.get("title")
    known = _MEDIA_KNOWN | {"title"} if type(title) is str else _MEDIA_KNOWN
    extra = rest_fields(block, known)
    name = title if type(title) is str else None
    if kind == "base64":
        return FilePart(data=source["data"], media_type=source["media_type"], filename=name, extra=extra)
    if kind == "text":
        return FilePart(text=source["data"], media_type=source["media_type"], filename=name, extra=extra)
    if kind == "url":
        return FilePart(url=source["url"], filename=name, extra=extra)
    return FilePart(file_id=source["file_id"], filename=name, extra=extra)


def _tool_use(block: dict[str, Any], path: str) -> ToolCall:
    return ToolCall(
        id=req_str(block, "id", path),
        name=req_name(block, "name", path),
        arguments=compact(req_dict(block, "input", path), child(path, "input")),
        extra=rest_fields(block, _TOOL_USE_KNOWN) if len(block) != 4 else {},
    )


def _builtin_call(block: dict[str, Any], path: str) -> ToolCall:
    wire_input = block.get("input")
    return ToolCall(
        id=req_str(block, "id", path),
        name=req_name(block, "name", path),
        arguments=compact(wire_input, child(path, "input")) if type(wire_input) is dict else "",
        kind="builtin",
        extra=block,
    )


def _builtin_result(block: dict[str, Any], path: str) -> ToolResult:
    name = block["type"][: -len("_tool_result")]
    return ToolResult(call_id=req_str(block, "tool_use_id", path), name=name, kind="builtin", extra=block)


def decode_result_content(block: dict[str, Any], path: str) -> tuple[tuple[ContentPart, ...], Extra]:
    """The parts of a ``tool_result`` ``content`` and the extra keeping its spelling."""
    extra = rest_fields(block, _RESULT_KNOWN)
    content = block.get("content")
    if type(content) is str:
        extra["~content"] = "string"
        return (TextPart(text=content),), extra
    if content is None:
        if "content" in block:
            extra["content"] = None
        else:
            extra["~content"] = "absent"
        return (), extra
    if type(content) is not list:
        fail(child(path, "content"), f"expected a string or an array, got {type(content).__name__}")
    parts, opaque = decode_blocks(content, child(path, "content"), _RESULT_DECODERS)
    if opaque:
        extra[OPAQUE] = opaque
    return parts, extra  # type: ignore[return-value]


def _tool_result(block: dict[str, Any], path: str) -> ToolResult:
    content, extra = decode_result_content(block, path)
    is_error = opt_bool(block, "is_error", path)
    return ToolResult(
        call_id=req_str(block, "tool_use_id", path), content=content, is_error=is_error, extra=extra
    )


def _thinking(block: dict[str, Any], path: str) -> ReasoningPart:
    return ReasoningPart(
        text=req_str(block, "thinking", path),
        signature=opt_str(block, "signature", path),
        origin="anthropic",
        extra=rest_fields(block, _THINKING_KNOWN),
    )


def _redacted(block: dict[str, Any], path: str) -> ReasoningPart:
    return ReasoningPart(
        redacted=req_str(block, "data", path), origin="anthropic", extra=rest_fields(block, _REDACTED_KNOWN)
    )


_RESULT_DECODERS: dict[str, _Decoder] = {"text": _text, "image": _image, "document": _document}

DECODERS: dict[str, _Decoder] = {
    **_RESULT_DECODERS,
    "tool_use": _tool_use,
    "tool_result": _tool_result,
    "thinking": _thinking,
    "redacted_thinking": _redacted,
    "server_tool_use": _builtin_call,
    "mcp_tool_use": _builtin_call,
}
"""Decoders of the message-level content blocks, by ``type``."""


def _server_result(kind: str) -> bool:
    return kind.endswith("_tool_result") and kind != "tool_result"


def decode_block(block: Any, path: str, decoders: dict[str, _Decoder] = DECODERS) -> Part | None:
    """Decode one content block; ``None`` when the IR cannot hold it (kept opaque by callers)."""
    if type(block) is not dict:
        as_dict(block, path)
    kind = block.get("type")
    if type(kind) is not str:
        fail(child(path, "type"), "expected a string")
    decode = decoders.get(kind)
    if decode is not None:
        return decode(block, path)
    if decoders is DECODERS and _server_result(kind):
        return _builtin_result(block, path)
    return None


def decode_blocks(
    blocks: list[Any], path: str, decoders: dict[str, _Decoder] = DECODERS
) -> tuple[tuple[Part, ...], list[list[Any]]]:
    """Decode a content array: the parts, and the ``[index, block]`` pairs kept opaque."""
    parts: list[Part] = []
    opaque: list[list[Any]] = []
    for index, block in enumerate(blocks):
        part = decode_block(block, f"{path}[{index}]", decoders)
        if part is None:
            opaque.append([index, block])
        else:
            parts.append(part)
    return tuple(parts), opaque
