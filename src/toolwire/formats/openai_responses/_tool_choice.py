"""Responses ``tool_choice`` <-> IR :class:`~toolwire.ir.ToolChoice`.

``none``/``auto``/``required``; ``{"type": "function"|"custom", "name"}`` (named);
``{"type": "allowed_tools", "mode", "tools": [{"type", "name"}]}`` (the IR keeps the names).
Choices of a built-in tool (``{"type": "web_search_preview"}``, ``{"type": "mcp",
"server_label"}``...) become mode ``auto`` for other formats and are kept verbatim in the
``~responses_choice`` hint, as are choices with fields the IR does not name.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolwire.formats._wire import as_dict, as_list, child, fail
from toolwire.ir.base import Extra
from toolwire.ir.notes import Notes
from toolwire.ir.tools import AnyTool, CustomTool, Tool, ToolChoice

__all__ = ["decode_tool_choice", "encode_tool_choice"]

RAW = "~responses_choice"
KIND = "~responses_kind"
KINDS = "~responses_kinds"
_MODES = {"auto": "auto", "none": "none", "required": "required"}
_NAMED = ("function", "custom")
_NAMED_KEYS = frozenset({"type", "name"})
_ALLOWED_KEYS = frozenset({"type", "mode", "tools"})


def _named(value: dict[str, Any], kind: str, path: str) -> ToolChoice:
    name = value.get("name")
    if type(name) is not str:
        fail(child(path, "name"), "expected a string")
    extra: Extra = {KIND: kind}
    if value.keys() != _NAMED_KEYS:
        extra[RAW] = value
    return ToolChoice(mode="named", name=name, extra=extra)


def _allowed(value: dict[str, Any], path: str) -> ToolChoice:
    mode = value.get("mode")
    if mode not in ("auto", "required"):
        fail(child(path, "mode"), "expected 'auto' or 'required'")
    entries = as_list(value.get("tools"), child(path, "tools"))
    names: list[str] = []
    kinds: list[str] = []
    plain = value.keys() == _ALLOWED_KEYS
    for index, entry in enumerate(entries):
        entry_path = f"{path}.tools[{index}]"
        entry = as_dict(entry, entry_path)
        kind = entry.get("type")
        name = entry.get("name")
        if kind in _NAMED and type(name) is str:
            names.append(name)
            kinds.append(kind)
            plain = plain and entry.keys() == _NAMED_KEYS
        elif type(kind) is str:
            plain = False  # a built-in tool: kept verbatim for this format only
        else:
            fail(child(entry_path, "type"), "expected a string")
    extra: Extra = {KINDS: kinds} if plain else {KINDS: kinds, RAW: value}
    return ToolChoice(mode=mode, allowed=tuple(names), extra=extra)


def decode_tool_choice(value: Any, notes: Notes, path: str = "$.tool_choice") -> ToolChoice:
    """Decode a Responses ``tool_choice`` (mode, named function/custom tool, allowed list, built-in)."""
    if type(value) is str:
        mode = _MODES.get(value)
        if mode is None:
            fail(path, f"unknown tool_choice {value!r}; expected none, auto or required")
        return ToolChoice(mode=mode)  # type: ignore[arg-type]
    value = as_dict(value, path)
    kind = value.get("type")
    if kind in _NAMED:
        return _named(value, kind, path)
    if kind == "allowed_tools":
        return _allowed(value, path)
    if type(kind) is not str:
        fail(child(path, "type"), "expected a string")
    notes.info(path, "approximated", f"built-in tool choice {kind!r} is 'auto' for other formats")
    return ToolChoice(mode="auto", extra={RAW: value})


def _kind_of(name: str | None, tools: Sequence[AnyTool]) -> str:
    for tool in tools:
        if isinstance(tool, (Tool, CustomTool)) and tool.name == name:
            return "custom" if isinstance(tool, CustomTool) else "function"
    return "function"


def encode_tool_choice(
    choice: ToolChoice, tools: Sequence[AnyTool], notes: Notes, *, same: bool = True
) -> Any:
    """Encode a tool choice as a Responses ``tool_choice`` value."""
    hints = choice.extra if same else {}
    raw = hints.get(RAW)
    if raw is not None:
        return raw
    if choice.mode == "named":
        if choice.name is None:
            notes.add("$.tool_choice", "approximated", "named tool choice without a name sent as 'required'")
            return "required"
        kind = hints.get(KIND) or _kind_of(choice.name, tools)
        return {"type": kind, "name": choice.name}
    if choice.allowed is None:
        return choice.mode
    if choice.mode == "none":
        notes.add("$.tool_choice", "dropped", "allowed tool list of tool_choice 'none'")
        return "none"
    kinds = hints.get(KINDS)
    if kinds is None or len(kinds) != len(choice.allowed):
        kinds = [_kind_of(name, tools) for name in choice.allowed]
    entries = [{"type": kind, "name": name} for kind, name in zip(kinds, choice.allowed, strict=True)]
    return {"type": "allowed_tools", "mode": choice.mode, "tools": entries}
