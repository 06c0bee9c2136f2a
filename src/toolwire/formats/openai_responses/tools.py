"""Responses tool definitions, tool choice and the parallel switch.

Wire shapes: flat ``{"type": "function", "name", "description", "parameters", "strict"}``,
``{"type": "custom", "name", "description", "format"}``, ``{"type": "namespace", "name",
"description", "tools": [function | custom]}`` (flattened on decode: each inner tool gets
``namespace``; the wrapper is remembered on the first inner tool so that consecutive tools of
one namespace regroup exactly), and built-in tools (``web_search``, ``file_search``, ``mcp``,
``shell``...) kept opaquely as :class:`~toolwire.ir.BuiltinTool`.

Function tools require ``strict`` and ``parameters``. When the IR lacks them (a Chat tool
omitting ``strict`` means non-strict, Responses' default is strict) the encoder writes
``"strict": false`` and an empty object schema, unless the tool was decoded from a Responses
payload that omitted them (``~responses_absent``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolwire.formats import ToolConfig
from toolwire.formats._wire import as_dict, as_list, child, opt_bool
from toolwire.formats.openai_responses._extra import QUIET, emit_fields, split_fields
from toolwire.formats.openai_responses._tool_choice import decode_tool_choice, encode_tool_choice
from toolwire.ir.notes import Notes
from toolwire.ir.tools import AnyTool, BuiltinTool, CustomTool, Tool

__all__ = [
    "TOOL_FIELDS",
    "decode_tool_choice",
    "decode_tool_config",
    "decode_tools",
    "encode_config",
    "encode_tool_choice",
    "encode_tool_config",
    "encode_tools",
]

TOOL_FIELDS = frozenset({"tools", "tool_choice", "parallel_tool_calls"})
"""Top-level request fields read by :func:`decode_tool_config`."""

ABSENT = "~responses_absent"
NAMESPACE = "~responses_ns"
_FUNCTION_KNOWN = frozenset({"type", "name", "description", "parameters", "strict"})
_CUSTOM_KNOWN = frozenset({"type", "name", "description", "format"})
_REQUIRED = ("parameters", "strict")
_PASS_THROUGH = ("openai-responses", "openai-chat")


# ---------------------------------------------------------------- decode


def _skip(notes: Notes, path: str, message: str) -> None:
    notes.add(path, "skipped", f"invalid tool definition skipped: {message}")


def _problem(item: dict[str, Any], object_keys: tuple[str, ...]) -> str | None:
    """Why a function/custom tool is invalid, or ``None``."""
    if type(item.get("name")) is not str:
        return "'name' must be a string"
    description = item.get("description")
    if description is not None and type(description) is not str:
        return "'description' must be a string"
    for key in object_keys:
        value = item.get(key)
        if value is not None and type(value) is not dict:
            return f"'{key}' must be an object"
    strict = item.get("strict")
    if strict is not None and type(strict) is not bool:
        return "'strict' must be a boolean"
    return None


def _decode_function(item: dict[str, Any], notes: Notes, path: str, ns: str | None) -> Tool | None:
    problem = _problem(item, ("parameters",))
    if problem is not None:
        _skip(notes, path, problem)
        return None
    extra = split_fields(item, _FUNCTION_KNOWN)
    if "parameters" not in item or "strict" not in item:
        extra[ABSENT] = [key for key in _REQUIRED if key not in item]
    return Tool(
        name=item["name"],
        description=item.get("description"),
        parameters=item.get("parameters"),
        strict=item.get("strict"),
        namespace=ns,
        extra=extra,
    )


def _decode_custom(item: dict[str, Any], notes: Notes, path: str, ns: str | None) -> CustomTool | None:
    problem = _problem(item, ("format",))
    if problem is not None:
        _skip(notes, path, problem)
        return None
    return CustomTool(
        name=item["name"],
        description=item.get("description"),
        format=item.get("format"),
        namespace=ns,
        extra=split_fields(item, _CUSTOM_KNOWN),
    )


def _decode_namespace(item: dict[str, Any], notes: Notes, path: str) -> list[AnyTool]:
    name = item.get("name")
    inner = item.get("tools")
    if type(name) is not str or type(inner) is not list or not inner:
        _skip(notes, path, "a namespace needs a string 'name' and a non-empty 'tools' array")
        return []
    out: list[AnyTool] = []
    for index, entry in enumerate(inner):
        entry_path = f"{path}.tools[{index}]"
        kind = entry.get("type") if type(entry) is dict else None
        if kind == "function":
            tool: AnyTool | None = _decode_function(entry, notes, entry_path, name)
        elif kind == "custom":
            tool = _decode_custom(entry, notes, entry_path, name)
        else:
            _skip(notes, entry_path, "a namespace holds function and custom tools only")
            tool = None
        if tool is not None:
            out.append(tool)
    first = out[0] if out else None
    if isinstance(first, (Tool, CustomTool)):
        first.extra[NAMESPACE] = {key: value for key, value in item.items() if key != "tools"}
    return out


def decode_tools(wire_tools: Any, notes: Notes, path: str = "$.tools") -> tuple[AnyTool, ...]:
    """Decode a Responses ``tools`` array (namespaces flattened, built-ins kept opaquely)."""
    out: list[AnyTool] = []
    for index, item in enumerate(as_list(wire_tools, path)):
        item_path = f"{path}[{index}]"
        kind = item.get("type") if type(item) is dict else None
        if kind == "function":
            tool: AnyTool | None = _decode_function(item, notes, item_path, None)
        elif kind == "custom":
            tool = _decode_custom(item, notes, item_path, None)
        elif kind == "namespace":
            out.extend(_decode_namespace(item, notes, item_path))
            continue
        elif type(kind) is str:
            name = item.get("name")
            tool = BuiltinTool(
                origin="openai-responses",
                wire_type=kind,
                payload=item,
                name=name if type(name) is str else None,
            )
        else:
            _skip(notes, item_path, "expected an object with a string 'type'")
            tool = None
        if tool is not None:
            out.append(tool)
    return tuple(out)


# ---------------------------------------------------------------- encode


def _kept(tool: Tool, key: str, same: bool) -> bool:
    """Whether a Responses source omitted ``key`` or sent it as ``null`` (then nothing is synthesized)."""
    if not same:
        return False
    return key in (tool.extra.get(ABSENT) or ()) or key in (tool.extra.get(QUIET) or {})


def _encode_function(tool: Tool, same: bool, notes: Notes, path: str) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "function", "name": tool.name}
    if tool.description is not None:
        out["description"] = tool.description
    if tool.parameters is not None:
        out["parameters"] = tool.parameters
    elif not _kept(tool, "parameters", same):
        out["parameters"] = {"type": "object", "properties": {}}
        notes.info(child(path, "parameters"), "synthesized", "no parameters schema: an empty object schema")
    if tool.strict is not None:
        out["strict"] = tool.strict
    elif not _kept(tool, "strict", same):
        out["strict"] = False
        notes.info(
            child(path, "strict"), "synthesized", "strict unset: 'false' (Responses defaults to strict)"
        )
    if tool.extra:
        emit_fields(out, tool.extra, same, notes, path)
    return out


def _encode_custom(tool: CustomTool, same: bool, notes: Notes, path: str) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "custom", "name": tool.name}
    if tool.description is not None:
        out["description"] = tool.description
    if tool.format is not None:
        out["format"] = tool.format
    if tool.extra:
        emit_fields(out, tool.extra, same, notes, path)
    return out


def _encode_one(tool: AnyTool, same: bool, notes: Notes, path: str) -> dict[str, Any] | None:
    if isinstance(tool, Tool):
        return _encode_function(tool, same, notes, path)
    if isinstance(tool, CustomTool):
        return _encode_custom(tool, same, notes, path)
    if tool.origin in _PASS_THROUGH:
        return tool.payload
    notes.add(
        path, "dropped", f"built-in tool {tool.wire_type!r} of {tool.origin} has no Responses equivalent"
    )
    return None


def _open_namespace(tool: Tool | CustomTool, same: bool, notes: Notes, path: str) -> dict[str, Any]:
    hint = tool.extra.get(NAMESPACE) if same else None
    if hint is not None:
        return {**hint, "tools": []}
    notes.info(path, "synthesized", f"namespace {tool.namespace!r} has no description: ''")
    return {"type": "namespace", "name": tool.namespace, "description": "", "tools": []}


def _encode_tools(tools: Sequence[AnyTool], notes: Notes, path: str, same: bool) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    group: dict[str, Any] | None = None
    for index, tool in enumerate(tools):
        tool_path = f"{path}[{index}]"
        if not isinstance(tool, (Tool, CustomTool)) or tool.namespace is None:
            group = None
        elif group is None or group["name"] != tool.namespace or (same and NAMESPACE in tool.extra):
            group = _open_namespace(tool, same, notes, tool_path)
            out.append(group)
        wire = _encode_one(tool, same, notes, tool_path)
        if wire is None:
            continue
        if group is not None:
            group["tools"].append(wire)
        else:
            out.append(wire)
    return out


def encode_tools(tools: Sequence[AnyTool], notes: Notes, path: str = "$.tools") -> list[dict[str, Any]]:
    """Encode tools as a Responses ``tools`` array (flat function tools, namespaces regrouped)."""
    return _encode_tools(tools, notes, path, True)


# ---------------------------------------------------------------- tool config


def decode_tool_config(payload: dict[str, Any], notes: Notes) -> ToolConfig:
    """Decode a request's ``tools``, ``tool_choice`` and ``parallel_tool_calls``."""
    p = as_dict(payload, "$")
    wire_tools = p.get("tools")
    tools = decode_tools(wire_tools, notes, "$.tools") if wire_tools is not None else ()
    choice = p.get("tool_choice")
    return ToolConfig(
        tools=tools,
        tool_choice=decode_tool_choice(choice, notes, "$.tool_choice") if choice is not None else None,
        parallel_tool_calls=opt_bool(p, "parallel_tool_calls", "$"),
    )


def encode_config(cfg: ToolConfig, notes: Notes, same: bool) -> dict[str, Any]:
    """Top-level tool fields of a request; hints are honoured only when ``same``."""
    out: dict[str, Any] = {}
    if cfg.tools:
        out["tools"] = _encode_tools(cfg.tools, notes, "$.tools", same)
    if cfg.tool_choice is not None:
        out["tool_choice"] = encode_tool_choice(cfg.tool_choice, cfg.tools, notes, same=same)
    if cfg.parallel_tool_calls is not None:
        out["parallel_tool_calls"] = cfg.parallel_tool_calls
    return out


def encode_tool_config(cfg: ToolConfig, notes: Notes) -> dict[str, Any]:
    """Encode a tool config as top-level Responses request fields."""
    return encode_config(cfg, notes, True)
