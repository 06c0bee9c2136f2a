"""Chat Completions tool definitions, tool choice and the parallel switch (incl. legacy functions).

Wire shapes: ``tools`` entries ``{"type": "function", "function": {...}}`` and
``{"type": "custom", "custom": {...}}``; ``tool_choice`` as ``none``/``auto``/``required``,
a named function or custom tool, or ``allowed_tools``; legacy ``functions`` /
``function_call`` (remembered with the ``~legacy`` hint and re-emitted as legacy).

A :class:`~toolwire.ir.Tool` keeps the unknown fields of the inner ``function`` object
as ``extra``; those of the wrapper are lifted into it too (the ``~outer`` hint names them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolwire.formats import ToolConfig
from toolwire.formats._wire import as_dict, as_list, child, opt_bool
from toolwire.formats.openai_chat._decode_fast import fast_tool
from toolwire.formats.openai_chat._extra import NOTYPE, emit_fields, emit_wrapped, lift_outer, split_fields
from toolwire.formats.openai_chat._tool_choice import (
    decode_function_call,
    decode_tool_choice,
    encode_tool_choice,
)
from toolwire.formats.openai_chat.dialects import Dialect
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
    "split_tool_config",
]

TOOL_FIELDS = frozenset({"tools", "tool_choice", "parallel_tool_calls", "functions", "function_call"})
"""Top-level request fields read by :func:`decode_tool_config`."""

_FUNCTION_KNOWN = frozenset({"name", "description", "parameters", "strict"})
_LEGACY_KNOWN = frozenset({"name", "description", "parameters"})
_CUSTOM_KNOWN = frozenset({"name", "description", "format"})
_FUNCTION_OUTER = frozenset({"type", "function"})
_CUSTOM_OUTER = frozenset({"type", "custom"})
_GRAMMAR = frozenset({"definition", "syntax"})


# ---------------------------------------------------------------- tool definitions: decode


def _skip(notes: Notes, path: str, message: str) -> None:
    notes.add(path, "skipped", f"invalid tool definition skipped: {message}")


def _fields(inner: dict[str, Any], kind: str) -> tuple[str, str | None] | str:
    """``(name, description)`` of a tool's inner object, or an error message."""
    name = inner.get("name")
    if type(name) is not str:
        return f"'{kind}.name' must be a string"
    description = inner.get("description")
    if description is not None and type(description) is not str:
        return f"'{kind}.description' must be a string"
    return name, description


def _decode_function(item: dict[str, Any], notes: Notes, path: str) -> Tool | None:
    inner = item.get("function")
    if type(inner) is not dict:
        _skip(notes, child(path, "function"), "'function' must be an object")
        return None
    got = _fields(inner, "function")
    parameters = inner.get("parameters")
    strict = inner.get("strict")
    if isinstance(got, str) or (parameters is not None and type(parameters) is not dict):
        _skip(
            notes, child(path, "function"), got if isinstance(got, str) else "'parameters' must be an object"
        )
        return None
    if strict is not None and type(strict) is not bool:
        _skip(notes, child(path, "function"), "'strict' must be a boolean")
        return None
    extra = split_fields(inner, _FUNCTION_KNOWN)
    if item.keys() != _FUNCTION_OUTER:
        lift_outer(extra, split_fields(item, _FUNCTION_OUTER))
    return Tool(name=got[0], description=got[1], parameters=parameters, strict=strict, extra=extra)


def _decode_custom_format(fmt: Any) -> dict[str, Any] | None:
    """Chat's nested grammar format as the IR's flat one (``{"type", "syntax", "definition"}``)."""
    if type(fmt) is not dict:
        return None
    grammar = fmt.get("grammar")
    if (
        fmt.get("type") == "grammar"
        and type(grammar) is dict
        and len(fmt) == 2
        and grammar.keys() <= _GRAMMAR
    ):
        return {"type": "grammar", **grammar}
    return fmt


def _decode_custom(item: dict[str, Any], notes: Notes, path: str) -> CustomTool | None:
    inner = item.get("custom")
    if type(inner) is not dict:
        _skip(notes, child(path, "custom"), "'custom' must be an object")
        return None
    got = _fields(inner, "custom")
    fmt = inner.get("format")
    if isinstance(got, str) or (fmt is not None and type(fmt) is not dict):
        _skip(notes, child(path, "custom"), got if isinstance(got, str) else "'format' must be an object")
        return None
    extra = split_fields(inner, _CUSTOM_KNOWN)
    if item.keys() != _CUSTOM_OUTER:
        lift_outer(extra, split_fields(item, _CUSTOM_OUTER))
    return CustomTool(name=got[0], description=got[1], format=_decode_custom_format(fmt), extra=extra)


def _decode_tool(item: Any, notes: Notes, path: str, typeless: bool = False) -> AnyTool | None:
    if type(item) is not dict:
        _skip(notes, path, "expected an object")
        return None
    kind = item.get("type")
    if kind == "function":
        return _decode_function(item, notes, path)
    if typeless and "type" not in item and type(item.get("function")) is dict:
        function = _decode_function({"type": "function", **item}, notes, path)  # Mistral: type optional
        return None if function is None else _untyped(function)
    if kind == "custom":
        return _decode_custom(item, notes, path)
    if type(kind) is str:
        return BuiltinTool(origin="openai-chat", wire_type=kind, payload=item)
    _skip(notes, child(path, "type"), "'type' must be a string")
    return None


def _untyped(tool: Tool) -> Tool:
    """``tool`` remembering that its wire form had no ``type`` (the ``~notype`` hint)."""
    return Tool(
        name=tool.name,
        description=tool.description,
        parameters=tool.parameters,
        strict=tool.strict,
        extra={**tool.extra, NOTYPE: True},
    )


def decode_tools(
    wire_tools: Any, notes: Notes, path: str = "$.tools", *, typeless: bool = False
) -> tuple[AnyTool, ...]:
    """Decode a Chat ``tools`` array (function, custom, and unknown types kept as built-ins);
    ``typeless``: an entry without ``type`` is a function (Mistral)."""
    out: list[AnyTool] = []
    for index, item in enumerate(as_list(wire_tools, path)):
        tool: AnyTool | None = fast_tool(item)  # the common shape first (see ._decode_fast), else the general
        if tool is None:
            tool = _decode_tool(item, notes, f"{path}[{index}]", typeless)
        if tool is not None:
            out.append(tool)
    return tuple(out)


def _decode_functions(wire: Any, notes: Notes, path: str) -> tuple[AnyTool, ...]:
    """Decode the legacy ``functions`` array into tools marked ``~legacy``."""
    out: list[AnyTool] = []
    for index, item in enumerate(as_list(wire, path)):
        if type(item) is not dict:
            _skip(notes, f"{path}[{index}]", "expected an object")
            continue
        got = _fields(item, "function")
        parameters = item.get("parameters")
        if isinstance(got, str) or (parameters is not None and type(parameters) is not dict):
            _skip(
                notes, f"{path}[{index}]", got if isinstance(got, str) else "'parameters' must be an object"
            )
            continue
        extra = split_fields(item, _LEGACY_KNOWN)
        extra["~legacy"] = True
        out.append(Tool(name=got[0], description=got[1], parameters=parameters, extra=extra))
    return tuple(out)


# ---------------------------------------------------------------- tool definitions: encode


def _encode_custom_format(fmt: dict[str, Any]) -> dict[str, Any]:
    if fmt.get("type") == "grammar" and "grammar" not in fmt:
        return {"type": "grammar", "grammar": {k: v for k, v in fmt.items() if k != "type"}}
    return fmt


def _encode_named(tool: Tool | CustomTool, kind: str, same: bool, notes: Notes, path: str) -> dict[str, Any]:
    inner: dict[str, Any] = {"name": tool.name}
    if tool.description is not None:
        inner["description"] = tool.description
    if isinstance(tool, Tool):
        if tool.parameters is not None:
            inner["parameters"] = tool.parameters
        if tool.strict is not None:
            inner["strict"] = tool.strict
    elif tool.format is not None:
        inner["format"] = _encode_custom_format(tool.format)
    if tool.namespace is not None:
        notes.add(child(path, "name"), "dropped", f"namespace {tool.namespace!r} of tool {tool.name!r}")
    out: dict[str, Any] = {"type": kind, kind: inner}
    if tool.extra:
        emit_wrapped(out, inner, tool.extra, same, notes, child(path, kind))
        if same and tool.extra.get(NOTYPE):
            del out["type"]
    return out


def _encode_tool(tool: AnyTool, same: bool, notes: Notes, path: str) -> dict[str, Any] | None:
    if isinstance(tool, Tool):
        return _encode_named(tool, "function", same, notes, path)
    if isinstance(tool, CustomTool):
        return _encode_named(tool, "custom", same, notes, path)
    if tool.origin == "openai-chat":
        return tool.payload
    notes.add(path, "dropped", f"built-in tool {tool.wire_type!r} of {tool.origin} has no Chat equivalent")
    return None


def _encode_tools(tools: Sequence[AnyTool], notes: Notes, path: str, same: bool) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for index, tool in enumerate(tools):
        wire = _encode_tool(tool, same, notes, f"{path}[{index}]")
        if wire is not None:
            out.append(wire)
    return out


def encode_tools(tools: Sequence[AnyTool], notes: Notes, path: str = "$.tools") -> list[dict[str, Any]]:
    """Encode tools as a Chat ``tools`` array (built-ins of other formats dropped with a note)."""
    return _encode_tools(tools, notes, path, True)


def _encode_functions(tools: Sequence[Tool], notes: Notes) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for index, tool in enumerate(tools):
        wire: dict[str, Any] = {"name": tool.name}
        if tool.description is not None:
            wire["description"] = tool.description
        if tool.parameters is not None:
            wire["parameters"] = tool.parameters
        emit_fields(wire, tool.extra, True, notes, f"$.functions[{index}]")
        out.append(wire)
    return out


# ---------------------------------------------------------------- tool config


def split_tool_config(
    payload: dict[str, Any], notes: Notes, dialect: Dialect | None = None
) -> tuple[ToolConfig, dict[str, Any]]:
    """The tool config of a request and the tool fields it left as raw extras (``dialect``: the
    provider's own forms are accepted too, e.g. Mistral's ``any`` and tools without ``type``).

    Left over: legacy ``functions`` / ``function_call`` when ``tools`` / ``tool_choice``
    are also present. (Empty or ``null`` fields are kept by the request's ``~keep`` hint.)
    """
    rest: dict[str, Any] = {}
    tools: tuple[AnyTool, ...] = ()
    wire_tools = payload.get("tools")
    functions = payload.get("functions")
    if wire_tools is not None:
        as_list(wire_tools, "$.tools")
    if functions is not None:
        as_list(functions, "$.functions")
    if wire_tools:
        typeless = dialect is not None and dialect.optional_types
        tools = decode_tools(wire_tools, notes, "$.tools", typeless=typeless)
        if functions:
            rest["functions"] = functions
    elif functions:
        tools = _decode_functions(functions, notes, "$.functions")
    choice = None
    tool_choice = payload.get("tool_choice")
    function_call = payload.get("function_call")
    if tool_choice is not None:
        modes = dialect.tool_choice if dialect is not None else None
        choice = decode_tool_choice(tool_choice, "$.tool_choice", modes=modes)
        if function_call is not None:
            rest["function_call"] = function_call
    elif function_call is not None:
        choice = decode_function_call(function_call, "$.function_call")
    parallel = opt_bool(payload, "parallel_tool_calls", "$")
    return ToolConfig(tools=tools, tool_choice=choice, parallel_tool_calls=parallel), rest


def decode_tool_config(payload: dict[str, Any], notes: Notes) -> ToolConfig:
    """Decode a request's ``tools``/``functions``, ``tool_choice``/``function_call`` and parallel switch."""
    return split_tool_config(as_dict(payload, "$"), notes)[0]


def encode_config(cfg: ToolConfig, notes: Notes, same: bool) -> dict[str, Any]:
    """Top-level tool fields of a request; legacy hints are honoured only when ``same``."""
    out: dict[str, Any] = {}
    legacy = (
        same and bool(cfg.tools) and all(isinstance(t, Tool) and t.extra.get("~legacy") for t in cfg.tools)
    )
    if legacy:
        out["functions"] = _encode_functions(cfg.tools, notes)  # type: ignore[arg-type]
    elif cfg.tools:
        wire = _encode_tools(cfg.tools, notes, "$.tools", same)
        if wire:
            out["tools"] = wire
    if cfg.tools and not out:
        return _without_tools(cfg, notes)
    if cfg.tool_choice is not None:
        choice = cfg.tool_choice
        as_legacy = same and choice.mode != "required" and bool(choice.extra.get("~legacy"))
        key = "function_call" if as_legacy else "tool_choice"
        out[key] = encode_tool_choice(choice, cfg.tools, notes, same=same, legacy=as_legacy)
    if cfg.parallel_tool_calls is not None:
        out["parallel_tool_calls"] = cfg.parallel_tool_calls
    return out


def _without_tools(cfg: ToolConfig, notes: Notes) -> dict[str, Any]:
    """No tool survived the encoding: Chat answers 400 to ``tools: []`` and to ``tool_choice`` or
    ``parallel_tool_calls`` without tools, so both go. ``auto``/``none`` mean nothing without tools;
    a required or named choice is a loss."""
    choice = cfg.tool_choice
    if choice is not None:
        message = f"tool_choice {choice.mode!r}: no tool of the request has a Chat equivalent"
        if choice.mode in ("auto", "none"):
            notes.info("$.tool_choice", "dropped", message)
        else:
            notes.add("$.tool_choice", "dropped", message)
    if cfg.parallel_tool_calls is not None:
        notes.info("$.parallel_tool_calls", "dropped", "parallel_tool_calls: no tool has a Chat equivalent")
    return {}


def encode_tool_config(cfg: ToolConfig, notes: Notes) -> dict[str, Any]:
    """Encode a tool config as top-level Chat request fields (legacy forms kept when hinted)."""
    return encode_config(cfg, notes, True)
