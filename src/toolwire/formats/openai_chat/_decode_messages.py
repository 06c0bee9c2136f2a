"""Chat Completions ``messages`` -> IR messages (wire -> IR).

Roles: ``system``, ``developer``, ``user``, ``assistant``, ``tool`` and the legacy
``function``. Each wire ``tool``/``function`` message becomes one IR ``tool`` message
with one :class:`~toolwire.ir.ToolResult` (named after the call it answers, when known).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, cast

import msgspec

from toolwire.formats._wire import (
    as_dict,
    as_list,
    child,
    describe,
    fail,
    opt_str,
    req_dict,
    req_name,
    req_str,
)
from toolwire.formats.openai_chat._content import decode_content
from toolwire.formats.openai_chat._decode_fast import Calls, fast_message, plain_call
from toolwire.formats.openai_chat._extra import DIALECT, NOTYPE, lift_outer, split_fields
from toolwire.ir.content import (
    ContentPart,
    Message,
    Part,
    ReasoningPart,
    RefusalPart,
    ToolCall,
    ToolResult,
)
from toolwire.ir.notes import Notes

__all__ = [
    "DETAILS",
    "REASONING_FIELDS",
    "decode_assistant",
    "decode_message_tool_calls",
    "decode_messages",
    "tag_reasoning",
]

REASONING_FIELDS = ("reasoning_content", "reasoning")
"""Reasoning text fields of Chat-compatible providers (DeepSeek, OpenRouter, vLLM...)."""

DETAILS = "reasoning_details"
"""OpenRouter's array of typed reasoning entries (some encrypted or signed), kept byte-exact on
the message's first reasoning part."""

_Calls = Calls

_PLAIN_KNOWN = frozenset({"role", "content", "name"})
_ASSISTANT_KNOWN = frozenset({"role", "content", "name", "refusal", "tool_calls", "function_call"})
_TOOL_KNOWN = frozenset({"role", "content", "tool_call_id"})
_CALL_OUTER = frozenset({"id", "type", "function", "custom"})
_FUNCTION_KNOWN = frozenset({"name", "arguments"})
_CUSTOM_KNOWN = frozenset({"name", "input"})


def _with_content_hint(extra: dict[str, Any], hint: str | None) -> dict[str, Any]:
    if hint is not None:
        extra["~content"] = hint
    return extra


def _plain(m: dict[str, Any], notes: Notes, path: str, calls: _Calls) -> Message:
    parts, hint = decode_content(m, notes, path)
    extra = _with_content_hint(split_fields(m, _PLAIN_KNOWN), hint)
    return Message(role=m["role"], parts=parts, name=opt_str(m, "name", path), extra=extra)


def _call_fields(
    call: dict[str, Any], path: str, known: frozenset[str], key: str
) -> tuple[str, str, dict[str, Any]]:
    return req_name(call, "name", path), req_str(call, key, path), split_fields(call, known)


def _tool_call(item: Any, path: str, calls: _Calls) -> ToolCall:
    plain = plain_call(item)  # the common shape first (see ._decode_fast)
    if plain is not None:
        calls[plain.id] = (plain.name, "function")  # type: ignore[index]
        return plain
    item = as_dict(item, path)
    call_id = opt_str(item, "id", path)
    kind = item.get("type")
    untyped = kind is None and "type" not in item and "function" in item  # Mistral: type optional
    if untyped:
        kind = "function"
        item = {"type": "function", **item}
    if kind == "function":
        inner = req_dict(item, "function", path)
        name, arguments, extra = _call_fields(inner, child(path, "function"), _FUNCTION_KNOWN, "arguments")
    elif kind == "custom":
        inner = req_dict(item, "custom", path)
        name, arguments, extra = _call_fields(inner, child(path, "custom"), _CUSTOM_KNOWN, "input")
    else:
        fail(child(path, "type"), f"unknown tool call type {describe(kind)}; expected 'function' or 'custom'")
    if len(item) != 3:
        lift_outer(extra, split_fields(item, _CALL_OUTER))
    if call_id is not None:
        calls[call_id] = (name, kind)
    if untyped:
        extra[NOTYPE] = True
    return ToolCall(name=name, arguments=arguments, id=call_id, kind=kind, extra=extra)


def decode_message_tool_calls(value: Any, path: str, calls: _Calls) -> list[ToolCall]:
    """Decode an assistant ``tool_calls`` array (``null`` gives no calls)."""
    if value is None:
        return []
    return [_tool_call(item, f"{path}[{i}]", calls) for i, item in enumerate(as_list(value, path))]


def _reasoning(m: dict[str, Any], extra: dict[str, Any]) -> list[Part]:
    out: list[Part] = []
    for field in REASONING_FIELDS:
        text = m.get(field)
        if type(text) is str:
            out.append(ReasoningPart(text=text, extra={"~field": field}))
            extra.pop(field, None)
    details = extra.pop(DETAILS, None)
    if details is not None:  # OpenRouter: rides on the first reasoning part, byte-exact
        first = out[0] if out else ReasoningPart(extra={})
        first.extra[DETAILS] = details
        out[:1] = [first]
    return out


def _assistant(m: dict[str, Any], notes: Notes, path: str, calls: _Calls) -> Message:
    extra = split_fields(m, _ASSISTANT_KNOWN)
    parts: list[Part] = _reasoning(m, extra) if extra else []
    content, hint = decode_content(m, notes, path)
    parts.extend(content)
    refusal = opt_str(m, "refusal", path)
    if refusal is not None:
        parts.append(RefusalPart(text=refusal))
    tool_calls = m.get("tool_calls")
    if tool_calls is not None:
        parts.extend(decode_message_tool_calls(tool_calls, child(path, "tool_calls"), calls))
    legacy = m.get("function_call")
    if legacy is not None:
        fc_path = child(path, "function_call")
        name, arguments, call_extra = _call_fields(
            as_dict(legacy, fc_path), fc_path, _FUNCTION_KNOWN, "arguments"
        )
        call_extra["~legacy"] = True
        parts.append(ToolCall(name=name, arguments=arguments, extra=call_extra))
    extra = _with_content_hint(extra, hint)
    return Message(role="assistant", parts=tuple(parts), name=opt_str(m, "name", path), extra=extra)


def _result_content(
    m: dict[str, Any], notes: Notes, path: str, known: frozenset[str]
) -> tuple[Any, dict[str, Any]]:
    parts, hint = decode_content(m, notes, path)
    return cast(tuple[ContentPart, ...], parts), _with_content_hint(split_fields(m, known), hint)


def _tool(m: dict[str, Any], notes: Notes, path: str, calls: _Calls) -> Message:
    call_id = req_str(m, "tool_call_id", path)
    content, extra = _result_content(m, notes, path, _TOOL_KNOWN)
    name, kind = calls.get(call_id, (None, "function"))
    result = ToolResult(call_id=call_id, content=content, name=name, kind=kind, extra=extra)  # type: ignore[arg-type]
    return Message(role="tool", parts=(result,))


def _function(m: dict[str, Any], notes: Notes, path: str, calls: _Calls) -> Message:
    name = req_str(m, "name", path)
    content, extra = _result_content(m, notes, path, _PLAIN_KNOWN)
    result = ToolResult(call_id=None, content=content, name=name, extra=extra)
    return Message(role="tool", parts=(result,), extra={"~role": "function"})


_DECODERS: dict[str, Callable[[dict[str, Any], Notes, str, _Calls], Message]] = {
    "system": _plain,
    "developer": _plain,
    "user": _plain,
    "assistant": _assistant,
    "tool": _tool,
    "function": _function,
}


def decode_messages(wire: Any, notes: Notes, path: str = "$.messages") -> tuple[Message, ...]:
    """Decode a Chat ``messages`` array into IR messages (system/developer messages stay in place)."""
    calls: _Calls = {}
    out: list[Message] = []
    for index, item in enumerate(as_list(wire, path)):
        fast = fast_message(item, calls)  # the common shapes first (see ._decode_fast), else the general
        if fast is not None:
            out.append(fast)
            continue
        item_path = f"{path}[{index}]"
        message = as_dict(item, item_path)
        role = message.get("role")
        decoder = _DECODERS.get(role) if type(role) is str else None
        if decoder is None:
            req_str(message, "role", item_path)
            fail(child(item_path, "role"), f"unknown role {describe(role)}")
        out.append(decoder(message, notes, item_path, calls))
    return tuple(out)


def tag_reasoning(messages: Iterable[Message], dialect: str) -> tuple[Message, ...]:
    """``messages`` with their reasoning parts marked as written by the Chat provider ``dialect``
    (origin ``openai-chat``, ``~dialect``): state that goes back to that provider only."""
    out: list[Message] = []
    for message in messages:
        if any(type(p) is ReasoningPart for p in message.parts):
            parts = tuple(_tagged(p, dialect) if type(p) is ReasoningPart else p for p in message.parts)
            message = msgspec.structs.replace(message, parts=parts)
        out.append(message)
    return tuple(out)


def _tagged(part: ReasoningPart, dialect: str) -> ReasoningPart:
    return msgspec.structs.replace(part, origin="openai-chat", extra={**part.extra, DIALECT: dialect})


def decode_assistant(message: Any, notes: Notes, path: str) -> Message:
    """Decode one assistant message (a response ``choices[].message``)."""
    calls: _Calls = {}
    if type(message) is dict and message.get("role") == "assistant":
        fast = fast_message(message, calls)
        if fast is not None:
            return fast
    return _assistant(as_dict(message, path), notes, path, calls)
