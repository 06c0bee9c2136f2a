"""Tool definitions and tool choice in the canonical model."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from toolwire.ir.base import Extra, Format, IRStruct

__all__ = ["AnyTool", "BuiltinTool", "CustomTool", "Tool", "ToolChoice", "ToolChoiceMode"]


class Tool(IRStruct, frozen=True, tag="function"):
    """A function tool: a name, a description and a JSON Schema for its arguments.

    Attributes:
        name: the tool name as the source format spelled it.
        description: what the tool does, or ``None`` when the source gave none.
        parameters: JSON Schema of the arguments object, or ``None`` when the source
            omitted it (encoders for formats that require it emit an empty object schema).
        strict: OpenAI structured-outputs flag; ``None`` when the source did not say.
        namespace: the Responses ``namespace`` tool this function was flattened from.
        extra: unnamed source-format fields (e.g. Anthropic ``cache_control``).

    Build one from Python with :meth:`from_function`, :meth:`from_model` or
    :meth:`from_json_schema`.
    """

    name: str
    description: str | None = None
    parameters: dict[str, Any] | None = None
    strict: bool | None = None
    namespace: str | None = None
    extra: Extra = msgspec.field(default_factory=dict)

    @classmethod
    def from_function(cls, fn: Any, *, name: str | None = None, description: str | None = None) -> Tool:
        """Build a tool from a Python function's signature, type hints and docstring."""
        from toolwire.pytools import tool_from_function

        return tool_from_function(fn, name=name, description=description)

    @classmethod
    def from_model(cls, model: Any, *, name: str | None = None, description: str | None = None) -> Tool:
        """Build a tool whose arguments are a Pydantic model."""
        from toolwire.pytools import tool_from_model

        return tool_from_model(model, name=name, description=description)

    @classmethod
    def from_json_schema(
        cls,
        name: str,
        schema: dict[str, Any],
        *,
        description: str | None = None,
        strict: bool | None = None,
    ) -> Tool:
        """Build a tool from a name and a JSON Schema of its arguments (validated)."""
        from toolwire.pytools import tool_from_json_schema

        return tool_from_json_schema(name, schema, description=description, strict=strict)


class CustomTool(IRStruct, frozen=True, tag="custom"):
    """An OpenAI custom tool: free-form text input, optionally constrained by a grammar.

    Attributes:
        format: the wire ``format`` object (``{"type": "text"}`` or
            ``{"type": "grammar", "syntax": "lark"|"regex", "definition": ...}``), or ``None``.
    """

    name: str
    description: str | None = None
    format: dict[str, Any] | None = None
    namespace: str | None = None
    extra: Extra = msgspec.field(default_factory=dict)


class BuiltinTool(IRStruct, frozen=True, tag="builtin"):
    """A provider built-in or server tool (web search, code execution, computer use...).

    Carried opaquely: ``payload`` is the wire object exactly as the origin format had
    it. It is emitted unchanged to its origin format and dropped (with a note) elsewhere.

    Attributes:
        origin: the format the payload belongs to.
        wire_type: the wire ``type`` (or, for Gemini, the tool's key such as ``googleSearch``).
        name: the tool's name when the wire gives one.
        payload: the complete wire object.
    """

    origin: Format
    wire_type: str
    payload: dict[str, Any]
    name: str | None = None


AnyTool = Tool | CustomTool | BuiltinTool
"""Any tool definition."""

ToolChoiceMode = Literal["auto", "none", "required", "named"]


class ToolChoice(IRStruct, frozen=True):
    """Which tools the model may or must call.

    Attributes:
        mode: ``auto`` (model decides), ``none`` (no calls), ``required`` (at least one
            call; Anthropic/Gemini ``any``), ``named`` (must call the tool ``name``).
        name: the tool for ``named``.
        allowed: restrict the callable tools to these names (OpenAI ``allowed_tools``,
            Gemini ``allowedFunctionNames``); ``None`` means all tools.
        extra: unnamed source-format fields.
    """

    mode: ToolChoiceMode
    name: str | None = None
    allowed: tuple[str, ...] | None = None
    extra: Extra = msgspec.field(default_factory=dict)
