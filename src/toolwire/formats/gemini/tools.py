"""Gemini tool definitions (``tools``) and tool choice (``toolConfig.functionCallingConfig``).

Tools: every entry of each ``functionDeclarations`` array becomes a :class:`~toolwire.ir.Tool`
(which field held the schema is remembered as ``~schema``; an OpenAPI-subset ``parameters`` is
converted to JSON Schema by :func:`toolwire.schema.gemini_openapi.from_gemini`, the original kept
as ``~openapi`` for a Gemini target; the tool object it came from as
``~group`` when there were several function groups). Every other key of a tool object
(``googleSearch``, ``codeExecution``, ``urlContext``, ``fileSearch``...) becomes a
:class:`~toolwire.ir.BuiltinTool` (``wire_type`` = the camelCase key, ``payload`` = the
tool object). Tools of other formats are encoded into ONE ``functionDeclarations`` object;
their JSON Schema goes to ``parametersJsonSchema`` unchanged, or, with
``schema_mode="openapi"``, to ``parameters`` converted by :func:`toolwire.schema.to_gemini`.

Tool choice: ``AUTO`` -> ``auto``, ``NONE`` -> ``none``, ``ANY`` -> ``required`` (``named``
when ``allowedFunctionNames`` has exactly one name), ``allowedFunctionNames`` -> ``allowed``;
``VALIDATED`` / ``MODE_UNSPECIFIED`` / no mode decode as ``auto`` with the raw mode kept.
Gemini honours ``allowedFunctionNames`` only with ``ANY``/``VALIDATED``, so ``auto`` with an
allowed list is sent as ``VALIDATED``. Gemini has no parallel-call switch: ``False`` is
dropped with a note.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any, Literal

from toolwire.formats import ToolConfig
from toolwire.formats._wire import as_dict, child, fail, json_type, opt_str
from toolwire.formats.gemini._keys import SNAKE, camel, emit, listish, merge, respell, split
from toolwire.ir._where import Coord
from toolwire.ir.notes import Notes
from toolwire.ir.tools import AnyTool, BuiltinTool, CustomTool, Tool, ToolChoice, ToolChoiceMode

__all__ = [
    "TOOL_FIELDS",
    "SchemaMode",
    "decode_tool_choice",
    "decode_tool_config",
    "decode_tools",
    "encode_config",
    "encode_tool_choice",
    "encode_tool_config",
    "encode_tools",
]

SchemaMode = Literal["json", "openapi"]
"""How tools of other formats carry their schema: ``parametersJsonSchema`` or OpenAPI ``parameters``."""

TOOL_FIELDS = frozenset({"tools", "toolConfig"})
"""Top-level request fields read by :func:`decode_tool_config`."""

_FD = "functionDeclarations"
_SCHEMA_KEYS = ("parametersJsonSchema", "parameters")
_MODES: dict[Any, ToolChoiceMode] = {"AUTO": "auto", "ANY": "required", "NONE": "none"}
_WIRE_MODES = {"auto": "AUTO", "none": "NONE", "required": "ANY", "named": "ANY"}
_FCC_KNOWN = frozenset({"mode", "allowedFunctionNames"})
_CUSTOM_SCHEMA = {"type": "object", "properties": {"input": {"type": "string"}}, "required": ["input"]}


# ---------------------------------------------------------------- tool definitions: decode


def _skip(notes: Notes, path: str, message: str) -> None:
    notes.add(path, "skipped", f"invalid function declaration skipped: {message}")


def _decode_declaration(raw: Any, notes: Notes, path: str, hints: dict[str, Any]) -> Tool | None:
    if type(raw) is not dict:
        _skip(notes, path, "expected an object")
        return None
    decl, snake = camel(raw)
    name = decl.get("name")
    description = decl.get("description")
    if type(name) is not str:
        _skip(notes, child(path, "name"), "'name' must be a string")
        return None
    if description is not None and type(description) is not str:
        _skip(notes, child(path, "description"), "'description' must be a string")
        return None
    key = next((k for k in _SCHEMA_KEYS if decl.get(k) is not None), None)
    parameters = decl.get(key) if key is not None else None
    if key is not None and type(parameters) is not dict:
        _skip(notes, child(path, key), f"'{key}' must be an object")
        return None
    extra = split(decl, frozenset({"name", "description", key or "parameters"}))
    if key is not None:
        extra["~schema"] = key
    if key == "parameters" and type(parameters) is dict:
        converted = _from_gemini(parameters, child(path, key))
        if converted is not parameters:
            extra["~openapi"] = parameters
            parameters = converted
    if snake:
        extra["~snake"] = snake
    extra.update(hints)
    return Tool(name=name, description=description, parameters=parameters, extra=extra)


def decode_tools(wire_tools: Any, notes: Notes, path: str = "$.tools") -> tuple[AnyTool, ...]:
    """Decode a ``tools`` array (a single tool object is accepted too)."""
    items, single = listish(wire_tools, path)
    groups = sum(1 for t in items if type(t) is dict and (_FD in t or "function_declarations" in t))
    out: list[AnyTool] = []
    for index, item in enumerate(items):
        item_path = f"{path}[{index}]"
        if type(item) is not dict:
            notes.add(item_path, "skipped", "invalid tool skipped: expected an object")
            continue
        at: Coord = ("tools",) if single else ("tools", index)
        if not item:
            if notes.recording:
                notes.came_from(("tools", len(out)), at)
            out.append(BuiltinTool(origin="gemini", wire_type="", payload=item))
        for raw_key, value in item.items():
            key: str = SNAKE.get(raw_key) or raw_key
            if key != _FD or value == []:
                payload = item if len(item) == 1 else {raw_key: value}
                if notes.recording:
                    notes.came_from(("tools", len(out)), (*at, raw_key))
                out.append(BuiltinTool(origin="gemini", wire_type=key, payload=payload))
                continue
            hints: dict[str, Any] = {}
            if groups > 1:
                hints["~group"] = index
            if raw_key != key:
                hints["~snake.group"] = True
            if single:
                hints["~single.tools"] = True
            decls, _ = listish(value, child(item_path, raw_key))
            for position, raw in enumerate(decls):
                tool = _decode_declaration(raw, notes, f"{item_path}.{raw_key}[{position}]", hints)
                if tool is not None and notes.recording:
                    notes.came_from(
                        ("tools", len(out)),
                        (*at, raw_key) if type(value) is dict else (*at, raw_key, position),
                    )
                if tool is not None:
                    out.append(tool)
    return tuple(out)


# ---------------------------------------------------------------- tool definitions: encode


def _from_gemini(schema: dict[str, Any], path: str) -> dict[str, Any]:
    """An OpenAPI-subset schema as JSON Schema. Every rewrite is lossless and the original is kept
    for a Gemini target, so no note is recorded (a same-format round trip stays note-free)."""
    module: Any = importlib.import_module("toolwire.schema.gemini_openapi")
    converted: dict[str, Any] = module.from_gemini(schema, Notes("drop"), path)
    return converted


def _to_gemini(schema: dict[str, Any], notes: Notes, path: str) -> dict[str, Any]:
    module: Any = importlib.import_module("toolwire.schema")
    converted: dict[str, Any] = module.to_gemini(schema, notes, path)
    return converted


def _schema(tool: Tool, same: bool, mode: SchemaMode, notes: Notes, path: str) -> tuple[str, Any]:
    key = tool.extra.get("~schema") if same else None
    if key == "parameters":
        return key, tool.extra.get("~openapi", tool.parameters)
    if key is not None:
        return key, tool.parameters
    if mode == "openapi":
        return "parameters", _to_gemini(tool.parameters or {}, notes, child(path, "parameters"))
    return "parametersJsonSchema", tool.parameters


def _encode_declaration(
    tool: Tool | CustomTool, same: bool, mode: SchemaMode, notes: Notes, path: str
) -> dict[str, Any]:
    decl: dict[str, Any] = {"name": tool.name}
    if tool.description is not None:
        decl["description"] = tool.description
    if isinstance(tool, CustomTool):
        notes.add(
            path, "approximated", f"custom tool {tool.name!r} declared with one string argument 'input'"
        )
        key = "parameters" if mode == "openapi" else "parametersJsonSchema"
        decl[key] = _CUSTOM_SCHEMA
    elif tool.parameters is not None:
        key, schema = _schema(tool, same, mode, notes, path)
        decl[key] = schema
    if not same and isinstance(tool, Tool) and tool.strict:
        notes.add(child(path, "strict"), "dropped", f"strict flag of tool {tool.name!r}")
    if tool.namespace is not None:
        notes.add(child(path, "name"), "dropped", f"namespace {tool.namespace!r} of tool {tool.name!r}")
    return emit(decl, tool.extra, same, notes, path)


def encode_tools(
    tools: Sequence[AnyTool],
    notes: Notes,
    path: str = "$.tools",
    *,
    schema_mode: SchemaMode = "json",
    same: bool = True,
) -> list[dict[str, Any]]:
    """Encode tools as a ``tools`` array: built-ins of other formats dropped with a note.

    ``same`` says whether the tools came from Gemini (their extras and layout hints are
    honoured); other tools' schemas follow ``schema_mode``.
    """
    out: list[dict[str, Any]] = []
    groups: dict[Any, list[dict[str, Any]]] = {}
    for index, tool in enumerate(tools):
        tool_path = f"{path}[{index}]"
        if isinstance(tool, BuiltinTool):
            if tool.origin == "gemini":
                out.append(tool.payload)
            else:
                notes.add(tool_path, "dropped", f"built-in tool {tool.wire_type!r} of {tool.origin}")
            continue
        group = tool.extra.get("~group") if same else None
        decls = groups.get(group)
        if decls is None:
            decls = groups[group] = []
            snake = same and tool.extra.get("~snake.group")
            out.append({"function_declarations" if snake else _FD: decls})
        decls.append(_encode_declaration(tool, same, schema_mode, notes, tool_path))
    return out


# ---------------------------------------------------------------- tool choice


def _allowed(fcc: dict[str, Any], path: str) -> tuple[str, ...] | None:
    value = fcc.get("allowedFunctionNames")
    if value is None:
        return None
    names, _ = listish(value, child(path, "allowedFunctionNames"))
    for index, name in enumerate(names):
        if type(name) is not str:
            fail(f"{path}.allowedFunctionNames[{index}]", f"expected a string, got {json_type(name)}")
    return tuple(names)


def decode_tool_choice(wire: Any, path: str = "$.toolConfig") -> ToolChoice:
    """Decode a ``toolConfig`` object as a :class:`~toolwire.ir.ToolChoice`.

    ``toolConfig`` fields other than ``functionCallingConfig`` (``retrievalConfig``,
    ``includeServerSideToolInvocations``) are kept in the choice's ``extra``.
    """
    config, snake = camel(as_dict(wire, path))
    extra = split(config, frozenset({"functionCallingConfig"}))
    if snake:
        extra["~snake"] = snake
    raw = config.get("functionCallingConfig")
    if raw is None:
        extra["~nofcc"] = True
        return ToolChoice(mode="auto", extra=extra)
    fcc_path = child(path, "functionCallingConfig")
    fcc, fcc_snake = camel(as_dict(raw, fcc_path))
    rest = split(fcc, _FCC_KNOWN)
    if rest:
        extra["~fcc"] = rest
    if fcc_snake:
        extra["~snake.fcc"] = fcc_snake
    raw_mode = opt_str(fcc, "mode", fcc_path)
    allowed = _allowed(fcc, fcc_path)
    mode = _MODES.get(raw_mode)
    if mode is None:
        mode = "auto"
        extra["~mode"] = raw_mode or ""
    if mode == "required" and allowed is not None and len(allowed) == 1:
        return ToolChoice(mode="named", name=allowed[0], extra=extra)
    return ToolChoice(mode=mode, allowed=allowed, extra=extra)


def _function_calling(choice: ToolChoice, same: bool, notes: Notes) -> dict[str, Any]:
    extra = choice.extra if same else {}
    fcc: dict[str, Any] = {}
    allowed: Sequence[str] | None = [choice.name or ""] if choice.mode == "named" else choice.allowed
    if "~mode" in extra:
        if extra["~mode"]:
            fcc["mode"] = extra["~mode"]
    elif choice.mode == "auto" and allowed is not None:
        fcc["mode"] = "VALIDATED"
        notes.info(
            "$.toolConfig.functionCallingConfig.mode",
            "approximated",
            "auto with an allowed list sent as VALIDATED",
        )
    else:
        fcc["mode"] = _WIRE_MODES[choice.mode]
    if allowed is not None:
        if choice.mode == "none" and not same:
            notes.info("$.toolConfig.functionCallingConfig", "dropped", "allowed tools of tool choice 'none'")
        else:
            fcc["allowedFunctionNames"] = list(allowed)
    if extra:
        merge(fcc, extra.get("~fcc", {}))
        fcc = respell(fcc, extra.get("~snake.fcc"))
    return fcc


def encode_tool_choice(choice: ToolChoice, notes: Notes, *, same: bool = True) -> dict[str, Any]:
    """Encode a tool choice as a ``toolConfig`` object."""
    config: dict[str, Any] = {}
    if not (same and choice.extra.get("~nofcc")):
        config["functionCallingConfig"] = _function_calling(choice, same, notes)
    return emit(config, choice.extra, same, notes, "$.toolConfig")


# ---------------------------------------------------------------- tool config


def decode_tool_config(payload: dict[str, Any], notes: Notes) -> ToolConfig:
    """Decode a request's ``tools`` and ``toolConfig`` (Gemini has no parallel-call switch)."""
    request, _ = camel(as_dict(payload, "$"))
    tools = request.get("tools")
    config = request.get("toolConfig")
    return ToolConfig(
        tools=decode_tools(tools, notes, "$.tools") if tools is not None else (),
        tool_choice=decode_tool_choice(config, "$.toolConfig") if config is not None else None,
    )


def encode_config(
    cfg: ToolConfig, notes: Notes, *, same: bool, schema_mode: SchemaMode = "json"
) -> dict[str, Any]:
    """Top-level ``tools`` / ``toolConfig`` fields for a tool config."""
    out: dict[str, Any] = {}
    tools: Any = encode_tools(cfg.tools, notes, "$.tools", schema_mode=schema_mode, same=same)
    if tools:
        first = cfg.tools[0]
        if (
            same
            and len(tools) == 1
            and not isinstance(first, BuiltinTool)
            and first.extra.get("~single.tools")
        ):
            tools = tools[0]
        out["tools"] = tools
    if cfg.tool_choice is not None:
        out["toolConfig"] = encode_tool_choice(cfg.tool_choice, notes, same=same)
    if cfg.parallel_tool_calls is False:
        notes.add(
            "$.parallel_tool_calls", "dropped", "Gemini has no switch to forbid parallel function calls"
        )
    return out


def encode_tool_config(cfg: ToolConfig, notes: Notes) -> dict[str, Any]:
    """Encode a tool config as top-level Gemini request fields (Gemini layout hints honoured)."""
    return encode_config(cfg, notes, same=True)
