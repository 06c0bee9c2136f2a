"""Chat ``tool_choice`` and the legacy ``function_call`` option <-> IR :class:`~toolwire.ir.ToolChoice`.

``none``/``auto``/``required``, ``{"type": "function"|"custom", ...: {"name"}}`` (the kind is
taken from the tool list when encoding), and ``{"type": "allowed_tools", "allowed_tools":
{"mode", "tools"}}`` (the IR keeps the allowed names). Legacy ``function_call`` choices
carry the ``~legacy`` hint; choices with unexpected extra fields keep their raw form in
``~raw`` for the same-format encoder.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolwire.formats._wire import as_dict, as_list, child, fail
from toolwire.ir.base import Extra
from toolwire.ir.notes import Notes
from toolwire.ir.tools import AnyTool, CustomTool, Tool, ToolChoice

__all__ = ["decode_function_call", "decode_tool_choice", "encode_tool_choice"]

_MODES = {"auto": "auto", "none": "none", "required": "required", "any": "required"}
"""Wire mode -> IR mode (``any``: Mistral's spelling of ``required``, kept in ``~mode``)."""
_CHAT_MODES = frozenset({"auto", "none", "required"})
_LEGACY_MODES = {"auto": "auto", "none": "none"}


def _choice_name(value: dict[str, Any], kind: str, path: str) -> str:
    inner = as_dict(value.get(kind), child(path, kind))
    name = inner.get("name")
    if type(name) is not str:
        fail(child(child(path, kind), "name"), "expected a string")
    return name


def _allowed_entry(entry: Any, path: str) -> tuple[str, str, bool]:
    """Name and kind of an ``allowed_tools.tools`` entry, and whether it is in canonical form."""
    entry = as_dict(entry, path)
    kind = entry.get("type")
    if kind not in ("function", "custom"):
        fail(child(path, "type"), "expected 'function' or 'custom'")
    name = _choice_name(entry, kind, path)
    return name, kind, len(entry) == 2 and len(entry[kind]) == 1


def _decode_allowed(value: dict[str, Any], path: str) -> ToolChoice:
    path = child(path, "allowed_tools")
    allowed = as_dict(value.get("allowed_tools"), path)
    mode = allowed.get("mode")
    if mode not in ("auto", "required"):
        fail(child(path, "mode"), "expected 'auto' or 'required'")
    entries = as_list(allowed.get("tools"), child(path, "tools"))
    names: list[str] = []
    kinds: list[str] = []
    canonical = len(allowed) == 2 and len(value) == 2
    for index, entry in enumerate(entries):
        name, kind, plain = _allowed_entry(entry, f"{path}.tools[{index}]")
        names.append(name)
        kinds.append(kind)
        canonical = canonical and plain
    extra: Extra = {"~types": kinds} if canonical else {"~types": kinds, "~raw": value}
    return ToolChoice(mode=mode, allowed=tuple(names), extra=extra)


def decode_tool_choice(
    value: Any, path: str = "$.tool_choice", *, modes: frozenset[str] | None = None
) -> ToolChoice:
    """Decode a Chat ``tool_choice`` (mode string, named function/custom tool, ``allowed_tools``).

    ``modes``: the mode strings a dialect accepts (default Chat's ``none``, ``auto``, ``required``);
    a named choice without ``type`` is accepted when they include Mistral's ``any``.
    """
    accepted = _CHAT_MODES if modes is None else modes
    if type(value) is str:
        mode = _MODES.get(value) if value in accepted else None
        if mode is None:
            fail(path, f"unknown tool_choice {value!r}; expected none, auto or required")
        if mode != value:
            return ToolChoice(mode=mode, extra={"~mode": value})  # type: ignore[arg-type]
        return ToolChoice(mode=mode)  # type: ignore[arg-type]
    value = as_dict(value, path)
    kind = value.get("type")
    if kind == "allowed_tools":
        return _decode_allowed(value, path)
    if "any" in accepted and "type" not in value and type(value.get("function")) is dict:  # Mistral
        return ToolChoice(mode="named", name=_choice_name(value, "function", path), extra={"~raw": value})
    if kind not in ("function", "custom"):
        fail(child(path, "type"), "expected 'function', 'custom' or 'allowed_tools'")
    name = _choice_name(value, kind, path)
    canonical = len(value) == 2 and len(value[kind]) == 1
    extra: Extra = {"~type": kind} if canonical else {"~type": kind, "~raw": value}
    return ToolChoice(mode="named", name=name, extra=extra)


def decode_function_call(value: Any, path: str) -> ToolChoice:
    """Decode the legacy ``function_call`` option (``none``/``auto``/``{"name"}``)."""
    if type(value) is str:
        mode = _LEGACY_MODES.get(value)
        if mode is None:
            fail(path, f"unknown function_call {value!r}; expected none or auto")
        return ToolChoice(mode=mode, extra={"~legacy": True})  # type: ignore[arg-type]
    value = as_dict(value, path)
    name = value.get("name")
    if type(name) is not str:
        fail(child(path, "name"), "expected a string")
    extra: Extra = {"~legacy": True} if len(value) == 1 else {"~legacy": True, "~raw": value}
    return ToolChoice(mode="named", name=name, extra=extra)


def _named_kind(choice: ToolChoice, tools: Sequence[AnyTool], same: bool) -> str:
    """``function`` or ``custom``: as decoded (same format), else from the tool list."""
    hinted = choice.extra.get("~type") if same else None
    if hinted in ("function", "custom"):
        return hinted  # type: ignore[no-any-return]
    for tool in tools:
        if isinstance(tool, (Tool, CustomTool)) and tool.name == choice.name:
            return "custom" if isinstance(tool, CustomTool) else "function"
    return "function"


def encode_tool_choice(
    choice: ToolChoice, tools: Sequence[AnyTool], notes: Notes, *, same: bool = True, legacy: bool = False
) -> Any:
    """Encode a tool choice as ``tool_choice`` (or the legacy ``function_call`` when ``legacy``)."""
    raw = choice.extra.get("~raw") if same else None
    if raw is not None:
        return raw
    if legacy and choice.mode != "required":
        return {"name": choice.name} if choice.mode == "named" else choice.mode
    if choice.mode == "named":
        kind = _named_kind(choice, tools, same)
        return {"type": kind, kind: {"name": choice.name}}
    if choice.allowed is None:
        return choice.extra.get("~mode", choice.mode) if same else choice.mode
    if choice.mode == "none":
        notes.add("$.tool_choice", "dropped", "allowed tool list of tool_choice 'none'")
        return "none"
    kinds = choice.extra.get("~types") if same else None
    if kinds is None or len(kinds) != len(choice.allowed):
        kinds = [_named_kind(ToolChoice(mode="named", name=name), tools, False) for name in choice.allowed]
    entries = [{"type": kind, kind: {"name": name}} for kind, name in zip(kinds, choice.allowed, strict=True)]
    return {"type": "allowed_tools", "allowed_tools": {"mode": choice.mode, "tools": entries}}
