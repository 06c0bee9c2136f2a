"""Anthropic tool definitions, ``tool_choice`` and the parallel switch.

Wire shapes: client tools ``{"name", "description"?, "input_schema", "type"?: "custom",
"strict"?, "cache_control"?, ...}`` (a :class:`~toolwire.ir.Tool`; unnamed fields in
``extra``, a present ``type`` remembered by the ``~type`` hint); every other ``type``
(``web_search_20250305``, ``bash_20250124``, ``memory_20250818``...) is a server or
Anthropic-defined tool kept as a :class:`~toolwire.ir.BuiltinTool` (emitted unchanged to
Anthropic, dropped with a note elsewhere).

``tool_choice``: ``auto`` / ``any`` (IR ``required``) / ``tool`` (IR ``named``) / ``none``;
``disable_parallel_tool_use`` is the inverted IR ``parallel_tool_calls``. The IR
``allowed`` list has no Anthropic field: it is approximated (noted) as no restriction, or
as ``tool`` when exactly one tool is allowed and a call is required.

Tool names are emitted as given: names outside ``^[a-zA-Z0-9_-]{1,128}$`` are sanitized by
the translate layer and reported by the validator, not here. OpenAI custom (free-form) tools
become function tools with one string property ``input`` (noted as approximated).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolwire.formats import ToolConfig
from toolwire.formats._wire import as_dict, as_list, child, emit_extra, fail
from toolwire.formats.anthropic._util import rest_fields
from toolwire.ir.notes import Notes
from toolwire.ir.tools import AnyTool, BuiltinTool, CustomTool, Tool, ToolChoice, ToolChoiceMode

__all__ = [
    "CUSTOM_INPUT_SCHEMA",
    "TOOL_FIELDS",
    "decode_tool_choice",
    "decode_tool_config",
    "decode_tools",
    "encode_config",
    "encode_tool_choice",
    "encode_tool_config",
    "encode_tools",
    "split_tool_config",
]

TOOL_FIELDS = frozenset({"tools", "tool_choice"})
"""Top-level request fields read by :func:`decode_tool_config`."""

CUSTOM_INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"input": {"type": "string"}},
    "required": ["input"],
}
"""``input_schema`` standing in for an OpenAI custom (free-form text) tool."""

_EMPTY_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}}
_TOOL_KNOWN = frozenset({"type", "name", "description", "input_schema", "strict"})
_CHOICE_KNOWN = frozenset({"type", "name", "disable_parallel_tool_use"})
_UNNAMED_KNOWN = frozenset({"type", "disable_parallel_tool_use"})
_WIRE_MODES: dict[str, ToolChoiceMode] = {"auto": "auto", "any": "required", "tool": "named", "none": "none"}
_IR_MODES: dict[str, str] = {"auto": "auto", "required": "any", "named": "tool", "none": "none"}

# ---------------------------------------------------------------- tool definitions: decode


def _client_tool(item: dict[str, Any]) -> Tool | tuple[str, str]:
    """A client tool, or ``(offending key, message)``."""
    name = item.get("name")
    if type(name) is not str:
        return "name", "'name' must be a string"
    description = item.get("description")
    if description is not None and type(description) is not str:
        return "description", "'description' must be a string"
    schema = item.get("input_schema")
    if type(schema) is not dict:
        return "input_schema", "'input_schema' must be an object"
    strict = item.get("strict")
    if strict is not None and type(strict) is not bool:
        return "strict", "'strict' must be a boolean"
    if len(item) == 3 and description is not None:  # name, description, input_schema only
        return Tool(name=name, description=description, parameters=schema)
    extra = rest_fields(item, _TOOL_KNOWN)
    if "type" in item:
        extra["~type"] = item["type"]
    return Tool(name=name, description=description, parameters=schema, strict=strict, extra=extra)


def _decode_tool(item: Any) -> AnyTool | tuple[str | None, str]:
    """A tool, or ``(offending key or None for the entry itself, message)``."""
    if type(item) is not dict:
        return None, "expected an object"
    kind = item.get("type")
    if kind is None or kind == "custom":
        return _client_tool(item)
    if type(kind) is not str:
        return "type", "'type' must be a string"
    name = item.get("name")
    return BuiltinTool(
        origin="anthropic", wire_type=kind, payload=item, name=name if type(name) is str else None
    )


def decode_tools(wire_tools: Any, notes: Notes, path: str = "$.tools") -> tuple[AnyTool, ...]:
    """Decode an Anthropic ``tools`` array: client tools, and server tools kept as built-ins.

    Invalid entries are skipped with a ``skipped`` note (raised under the strict policy).
    """
    out: list[AnyTool] = []
    for index, item in enumerate(as_list(wire_tools, path)):
        tool = _decode_tool(item)
        if type(tool) is tuple:
            key, message = tool
            item_path = f"{path}[{index}]"
            notes.add(
                item_path if key is None else child(item_path, key),
                "skipped",
                f"invalid tool definition skipped: {message}",
            )
        else:
            out.append(tool)  # type: ignore[arg-type]
    return tuple(out)


# ---------------------------------------------------------------- tool definitions: encode


def _encode_function(tool: Tool, same: bool, notes: Notes, path: str) -> dict[str, Any]:
    out: dict[str, Any] = {"name": tool.name}
    if tool.description is not None:
        out["description"] = tool.description
    out["input_schema"] = tool.parameters if tool.parameters is not None else _EMPTY_SCHEMA
    if tool.strict is not None:
        out["strict"] = tool.strict
    extra = tool.extra
    if extra:
        if same and "~type" in extra:
            out["type"] = extra["~type"]
        emit_extra(out, extra, same, notes, path)
    if tool.namespace is not None:
        notes.add(child(path, "name"), "dropped", f"namespace {tool.namespace!r} of tool {tool.name!r}")
    return out


def _encode_custom(tool: CustomTool, same: bool, notes: Notes, path: str) -> dict[str, Any]:
    notes.add(
        path,
        "approximated",
        f"custom (free-form) tool {tool.name!r} sent as a function tool with one string property 'input'",
    )
    out: dict[str, Any] = {"name": tool.name}
    if tool.description is not None:
        out["description"] = tool.description
    out["input_schema"] = CUSTOM_INPUT_SCHEMA
    if tool.namespace is not None:
        notes.add(child(path, "name"), "dropped", f"namespace {tool.namespace!r} of tool {tool.name!r}")
    emit_extra(out, tool.extra, same, notes, path)
    return out


def _encode_tool(tool: AnyTool, same: bool, notes: Notes, path: str) -> dict[str, Any] | None:
    if isinstance(tool, Tool):
        return _encode_function(tool, same, notes, path)
    if isinstance(tool, CustomTool):
        return _encode_custom(tool, same, notes, path)
    if tool.origin == "anthropic":
        return tool.payload
    notes.add(
        path, "dropped", f"built-in tool {tool.wire_type!r} of {tool.origin} has no Anthropic equivalent"
    )
    return None


def encode_tool_list(
    tools: Sequence[AnyTool], notes: Notes, path: str = "$.tools", *, same: bool = True
) -> list[dict[str, Any]]:
    """Encode tools; ``same`` says whether their extras belong to Anthropic (re-emitted) or not."""
    out: list[dict[str, Any]] = []
    for index, tool in enumerate(tools):
        wire = _encode_tool(tool, same, notes, f"{path}[{index}]")
        if wire is not None:
            out.append(wire)
    return out


def encode_tools(tools: Sequence[AnyTool], notes: Notes, path: str = "$.tools") -> list[dict[str, Any]]:
    """Encode tools as an Anthropic ``tools`` array (built-ins of other formats dropped with a note)."""
    return encode_tool_list(tools, notes, path)


# ---------------------------------------------------------------- tool choice


def decode_tool_choice(value: Any, path: str = "$.tool_choice") -> tuple[ToolChoice, bool | None] | None:
    """``(choice, parallel_tool_calls)`` of a wire ``tool_choice``; ``None`` for an unknown type."""
    choice = as_dict(value, path)
    kind = choice.get("type")
    mode = _WIRE_MODES.get(kind) if type(kind) is str else None
    if mode is None:
        if type(kind) is not str:
            fail(child(path, "type"), "expected a string")
        return None
    name = None
    if mode == "named":
        name = choice.get("name")
        if type(name) is not str:
            fail(child(path, "name"), "expected a string")
    if len(choice) == 1:  # just "type"
        return ToolChoice(mode=mode), None
    parallel = None
    extra = rest_fields(choice, _CHOICE_KNOWN if mode == "named" else _UNNAMED_KNOWN)
    if "disable_parallel_tool_use" in choice:
        disable = choice["disable_parallel_tool_use"]
        if type(disable) is bool and mode != "none":
            parallel = not disable
        else:
            extra["disable_parallel_tool_use"] = disable
    return ToolChoice(mode=mode, name=name, extra=extra), parallel


def _approximate_allowed(choice: ToolChoice, notes: Notes, path: str) -> tuple[str, str | None]:
    """Wire ``type`` and ``name`` for a choice restricted to an ``allowed`` list."""
    allowed = choice.allowed or ()
    if choice.mode == "required" and len(allowed) == 1:
        notes.info(path, "approximated", f"required call among one allowed tool sent as tool {allowed[0]!r}")
        return "tool", allowed[0]
    if not allowed:
        notes.info(path, "approximated", "an empty allowed-tools list sent as tool_choice none")
        return "none", None
    notes.add(
        path,
        "approximated",
        f"allowed-tools restriction {list(allowed)} has no Anthropic equivalent; all tools stay callable",
    )
    return _IR_MODES[choice.mode], None


def encode_tool_choice(
    choice: ToolChoice | None, parallel: bool | None, notes: Notes, *, same: bool = True
) -> dict[str, Any] | None:
    """Encode a tool choice and the parallel switch as a wire ``tool_choice`` (or ``None``)."""
    path = "$.tool_choice"
    if choice is None:
        if parallel is False:
            notes.info(path, "synthesized", "parallel_tool_calls=false sent as tool_choice auto")
            return {"type": "auto", "disable_parallel_tool_use": True}
        return None
    kind, name = _IR_MODES[choice.mode], choice.name
    if choice.mode == "named" and name is None:
        notes.add(child(path, "name"), "approximated", "named tool choice without a name sent as 'any'")
        kind = "any"
    elif choice.allowed is not None and choice.mode in ("auto", "required"):
        kind, name = _approximate_allowed(choice, notes, path)
    out: dict[str, Any] = {"type": kind}
    if kind == "tool":
        out["name"] = name
    if parallel is not None and kind != "none":
        out["disable_parallel_tool_use"] = not parallel
    emit_extra(out, choice.extra, same, notes, path)
    return out


# ---------------------------------------------------------------- tool config


def split_tool_config(payload: dict[str, Any], notes: Notes) -> tuple[ToolConfig, dict[str, Any]]:
    """The tool config of a request and the raw tool fields it could not name (kept as extras).

    Left over: an empty or ``null`` ``tools`` array, a ``null`` or unknown-typed ``tool_choice``.
    """
    rest: dict[str, Any] = {}
    tools: tuple[AnyTool, ...] = ()
    wire_tools = payload.get("tools")
    if wire_tools:
        tools = decode_tools(wire_tools, notes, "$.tools")
    elif "tools" in payload:
        if wire_tools is not None:
            as_list(wire_tools, "$.tools")
        rest["tools"] = wire_tools
    choice = parallel = None
    wire_choice = payload.get("tool_choice")
    decoded = decode_tool_choice(wire_choice, "$.tool_choice") if wire_choice is not None else None
    if decoded is not None:
        choice, parallel = decoded
    elif "tool_choice" in payload:
        rest["tool_choice"] = wire_choice
    return ToolConfig(tools=tools, tool_choice=choice, parallel_tool_calls=parallel), rest


def decode_tool_config(payload: dict[str, Any], notes: Notes) -> ToolConfig:
    """Decode a request's ``tools`` and ``tool_choice`` (with ``disable_parallel_tool_use``)."""
    return split_tool_config(as_dict(payload, "$"), notes)[0]


def encode_config(cfg: ToolConfig, notes: Notes, same: bool) -> dict[str, Any]:
    """Top-level ``tools`` and ``tool_choice`` fields of a request."""
    out: dict[str, Any] = {}
    if cfg.tools:
        out["tools"] = encode_tool_list(cfg.tools, notes, same=same)
    choice = encode_tool_choice(cfg.tool_choice, cfg.parallel_tool_calls, notes, same=same)
    if choice is not None:
        out["tool_choice"] = choice
    return out


def encode_tool_config(cfg: ToolConfig, notes: Notes) -> dict[str, Any]:
    """Encode a tool config as top-level Anthropic request fields (``tools``, ``tool_choice``)."""
    return encode_config(cfg, notes, True)
