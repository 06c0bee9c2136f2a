"""Bedrock Converse ``toolConfig``: tool definitions and tool choice.

Wire shapes: ``toolConfig = {"tools": [...], "toolChoice"?: {...}}``. A tool is a union of
``toolSpec`` (``{"name", "description"?, "inputSchema": {"json": schema}, "strict"?}``, an IR
:class:`~toolwire.ir.Tool`), ``systemTool`` and ``cachePoint``; the last two are kept as
:class:`~toolwire.ir.BuiltinTool` of origin ``bedrock-converse`` (emitted unchanged to Bedrock,
dropped with a note elsewhere).

``toolChoice``: ``{"auto": {}}`` / ``{"any": {}}`` (IR ``required``) / ``{"tool": {"name"}}`` (IR
``named``). Bedrock has no ``none`` and no allowed-tools list and no parallel switch: the request
encoder handles ``none`` (see :mod:`.request`); an allowed list is approximated (noted) and a
parallel switch is dropped (noted). OpenAI custom (free-form) tools become function tools with
one string property ``input`` (the translate layer's shims do this before encoding; a custom tool
that reaches this encoder is approximated the same way, noted).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolwire.formats import ToolConfig
from toolwire.formats._wire import as_dict, as_list, child, emit_extra, fail, split_extra
from toolwire.formats.bedrock_converse._keys import FORMAT
from toolwire.ir.notes import Notes
from toolwire.ir.tools import AnyTool, BuiltinTool, CustomTool, Tool, ToolChoice

__all__ = [
    "CUSTOM_INPUT_SCHEMA",
    "decode_tool_choice",
    "decode_tool_config",
    "decode_tools",
    "encode_tool_choice",
    "encode_tool_config",
    "encode_tools",
]


CUSTOM_INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"input": {"type": "string"}},
    "required": ["input"],
}
"""``inputSchema.json`` standing in for an OpenAI custom (free-form text) tool."""

_EMPTY_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}}
_SPEC_KNOWN = frozenset({"name", "description", "inputSchema", "strict"})
_BUILTIN_KINDS = ("systemTool", "cachePoint")

# ---------------------------------------------------------------- tools: decode


def _tool_spec(spec: Any, path: str) -> Tool:
    spec = as_dict(spec, path)
    name = spec.get("name")
    if type(name) is not str:
        fail(child(path, "name"), "expected a string")
    description = spec.get("description")
    if description is not None and type(description) is not str:
        fail(child(path, "description"), "expected a string")
    schema_box = as_dict(spec.get("inputSchema"), child(path, "inputSchema"))
    schema = schema_box.get("json")
    if type(schema) is not dict:
        fail(child(child(path, "inputSchema"), "json"), "expected an object")
    strict = spec.get("strict")
    if strict is not None and type(strict) is not bool:
        fail(child(path, "strict"), "expected a boolean")
    extra = split_extra(spec, _SPEC_KNOWN)
    box_extra = split_extra(schema_box, frozenset({"json"}))
    if box_extra:
        extra["~schema_box"] = box_extra
    return Tool(name=name, description=description, parameters=schema, strict=strict, extra=extra)


def _decode_tool(item: Any, path: str) -> AnyTool:
    item = as_dict(item, path)
    if len(item) == 1 and "toolSpec" in item:
        return _tool_spec(item["toolSpec"], child(path, "toolSpec"))
    for kind in _BUILTIN_KINDS:
        if len(item) == 1 and kind in item:
            inner = item[kind]
            name = inner.get("name") if type(inner) is dict else None
            return BuiltinTool(
                origin=FORMAT, wire_type=kind, payload=item, name=name if type(name) is str else None
            )
    fail(path, "expected an object with exactly one of 'toolSpec', 'systemTool', 'cachePoint'")


def decode_tools(wire_tools: Any, notes: Notes, path: str = "$.toolConfig.tools") -> tuple[AnyTool, ...]:
    """Decode a ``toolConfig.tools`` array."""
    return tuple(_decode_tool(item, f"{path}[{i}]") for i, item in enumerate(as_list(wire_tools, path)))


# ---------------------------------------------------------------- tools: encode


def _spec(name: str, description: str | None, schema: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name}
    if description:  # NonEmptyString: an empty description is refused
        out["description"] = description
    out["inputSchema"] = {"json": schema}
    return out


def _encode_function(tool: Tool, same: bool, notes: Notes, path: str) -> dict[str, Any]:
    if tool.description == "" and not same:
        notes.info(child(path, "description"), "dropped", "empty description omitted (Bedrock refuses it)")
    spec = _spec(
        tool.name, tool.description, tool.parameters if tool.parameters is not None else _EMPTY_SCHEMA
    )
    if same and tool.description == "":
        spec = {"name": tool.name, "description": "", "inputSchema": spec["inputSchema"]}
    if tool.strict is not None:
        spec["strict"] = tool.strict
    if tool.extra:
        if same and "~schema_box" in tool.extra:
            spec["inputSchema"].update(tool.extra["~schema_box"])
        emit_extra(spec, tool.extra, same, notes, path)
    if tool.namespace is not None:
        notes.add(child(path, "name"), "dropped", f"namespace {tool.namespace!r} of tool {tool.name!r}")
    return {"toolSpec": spec}


def _encode_custom(tool: CustomTool, same: bool, notes: Notes, path: str) -> dict[str, Any]:
    notes.add(
        path,
        "approximated",
        f"custom (free-form) tool {tool.name!r} sent as a function tool with one string property 'input'",
    )
    spec = _spec(tool.name, tool.description, CUSTOM_INPUT_SCHEMA)
    emit_extra(spec, tool.extra, same, notes, path)
    return {"toolSpec": spec}


def encode_tools(
    tools: Sequence[AnyTool], notes: Notes, path: str = "$.tools", *, same: bool = True
) -> list[dict[str, Any]]:
    """Encode tools as a ``toolConfig.tools`` array (built-ins of other formats dropped, noted)."""
    out: list[dict[str, Any]] = []
    for index, tool in enumerate(tools):
        where = f"{path}[{index}]"
        if isinstance(tool, Tool):
            out.append(_encode_function(tool, same, notes, where))
        elif isinstance(tool, CustomTool):
            out.append(_encode_custom(tool, same, notes, where))
        elif tool.origin == FORMAT:
            out.append(tool.payload)
        else:
            notes.add(
                where,
                "dropped",
                f"built-in tool {tool.wire_type!r} of {tool.origin} has no Bedrock equivalent",
            )
    return out


# ---------------------------------------------------------------- tool choice


def decode_tool_choice(value: Any, path: str = "$.toolConfig.toolChoice") -> ToolChoice:
    """Decode a ``toolChoice`` union."""
    choice = as_dict(value, path)
    if len(choice) != 1:
        fail(path, "expected an object with exactly one of 'auto', 'any', 'tool'")
    ((kind, inner),) = choice.items()
    inner = as_dict(inner, child(path, kind))
    if kind == "tool":
        name = inner.get("name")
        if type(name) is not str:
            fail(child(child(path, "tool"), "name"), "expected a string")
        return ToolChoice(mode="named", name=name, extra=split_extra(inner, frozenset({"name"})))
    if kind not in ("auto", "any"):
        fail(path, f"unknown tool choice {kind!r}; expected 'auto', 'any' or 'tool'")
    extra = {"~inner": inner} if inner else {}
    return ToolChoice(mode="auto" if kind == "auto" else "required", extra=extra)


def encode_tool_choice(
    choice: ToolChoice, parallel: bool | None, notes: Notes, path: str = "$.tool_choice", *, same: bool = True
) -> dict[str, Any] | None:
    """Encode a tool choice (``None`` for ``none``, which the request encoder handles)."""
    if parallel is not None and not same:
        notes.add(path, "dropped", "Bedrock has no switch for parallel tool calls")
    mode, name = choice.mode, choice.name
    if choice.allowed is not None and mode in ("auto", "required"):
        allowed = choice.allowed
        if mode == "required" and len(allowed) == 1:
            notes.info(
                path, "approximated", f"required call among one allowed tool sent as tool {allowed[0]!r}"
            )
            mode, name = "named", allowed[0]
        elif not allowed:
            notes.info(path, "approximated", "an empty allowed-tools list sent as no tool choice")
            return None
        else:
            notes.add(
                path, "approximated", f"allowed-tools restriction {list(allowed)} has no Bedrock equivalent"
            )
    if mode == "none":
        return None
    if mode == "named":
        if name is None:
            notes.add(path, "approximated", "named tool choice without a name sent as 'any'")
            return {"any": {}}
        tool: dict[str, Any] = {"name": name}
        emit_extra(tool, choice.extra, same, notes, path)
        return {"tool": tool}
    inner = dict(choice.extra.get("~inner", {})) if same else {}
    if not same:
        emit_extra(inner, choice.extra, same, notes, path)
    return {"auto" if mode == "auto" else "any": inner}


# ---------------------------------------------------------------- tool config


def decode_tool_config(payload: dict[str, Any], notes: Notes) -> ToolConfig:
    """Decode a request's ``toolConfig`` (tools and tool choice; Bedrock has no parallel switch)."""
    config = as_dict(payload, "$").get("toolConfig")
    if config is None:
        return ToolConfig()
    config = as_dict(config, "$.toolConfig")
    tools = decode_tools(config.get("tools", []), notes)
    wire_choice = config.get("toolChoice")
    choice = decode_tool_choice(wire_choice) if wire_choice is not None else None
    return ToolConfig(tools=tools, tool_choice=choice)


def encode_tool_config(cfg: ToolConfig, notes: Notes) -> dict[str, Any]:
    """Encode a tool config as the top-level ``toolConfig`` field (empty when there are no tools)."""
    if not cfg.tools:
        return {}
    out: dict[str, Any] = {"tools": encode_tools(cfg.tools, notes, "$.tools")}
    if cfg.tool_choice is not None:
        choice = encode_tool_choice(cfg.tool_choice, cfg.parallel_tool_calls, notes)
        if choice is not None:
            out["toolChoice"] = choice
    return {"toolConfig": out}
