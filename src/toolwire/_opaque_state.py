"""Opaque reasoning state for clients without a slot, kept in a caller's mapping (the store hook).

A Chat client echoes no reasoning state, but it echoes its call ids. When the caller gives
:attr:`~toolwire.translate.Exchange.state` (a mutable mapping its store persists between turns),
the envelopes of an assistant turn (:mod:`toolwire.opaque`, text form) are kept under the id of
the turn's first call as the client saw it, and put back in front of that turn when the client
echoes it. Only turns with calls are kept: they are the ones providers check.

==================  ==========================================================================
key                 ``"tw1:"`` + the first call id of the turn, as sent to the client
value               a JSON array of envelopes (the text form, ``tw1.`` + origin code + ...)
==================  ==========================================================================

Non-streamed responses only: a stream's call ids are not collected yet. Keys are only as
unique as the call ids the client saw (ids synthesized for Gemini calls repeat across turns
until issue 12's id work lands; a later turn then overwrites an earlier one's entry).
"""

from __future__ import annotations

import json
from collections.abc import Callable, MutableMapping
from typing import Any

import msgspec

from toolwire.ir.base import Format
from toolwire.ir.content import Message, Part, ReasoningPart, ToolCall
from toolwire.ir.request import Request
from toolwire.ir.response import Response
from toolwire.opaque import has_state, ordinal_kind, seal, signed_envelope

__all__ = ["KEY_PREFIX", "keep_state", "recall_state"]

KEY_PREFIX = "tw1:"
"""Start of every key this module writes."""

_TEXT_FORM: Format = "anthropic"
"""A client format whose slot takes the text form of an envelope (the form kept)."""


def _chat_ids(out: dict[str, Any]) -> list[str]:
    choices = out.get("choices") or [{}]
    calls = (choices[0].get("message") or {}).get("tool_calls") or []
    return [str(call.get("id")) for call in calls]


_CALL_IDS: dict[Format, Callable[[dict[str, Any]], list[str]]] = {"openai-chat": _chat_ids}
"""Client format without a slot -> the call ids of its encoded response, in order."""


def keep_state(resp: Response, out: dict[str, Any], client: Format, state: MutableMapping[str, str]) -> None:
    """Record the envelopes of ``resp`` (upstream IR) under the first call id of ``out``."""
    call_ids = _CALL_IDS.get(client)
    ids = call_ids(out) if call_ids is not None else []
    if not ids or resp.origin == client:
        return
    found = _envelopes(resp.parts)
    if found:
        state[KEY_PREFIX + ids[0]] = json.dumps(found)


def _envelopes(parts: tuple[Part, ...]) -> list[str]:
    """The envelopes (text form) of every opaque state in ``parts``, whatever its origin."""
    out: list[str] = []
    ordinals = {"c": 0, "t": 0}
    for part in parts:
        kind = ordinal_kind(part)
        if isinstance(part, ReasoningPart) and part.origin is not None and has_state(part):
            out.append(seal({"p": msgspec.to_builtins(part)}, part.origin, _TEXT_FORM))
        else:
            signed = signed_envelope(part, ordinals[kind] if kind else 0, _TEXT_FORM)
            if signed is not None:
                out.append(signed[0])
        if kind is not None:
            ordinals[kind] += 1
    return out


def _recalled(message: Message, state: MutableMapping[str, str]) -> Message:
    calls = [p for p in message.parts if isinstance(p, ToolCall)]
    stored = state.get(KEY_PREFIX + str(calls[0].id)) if calls and calls[0].id is not None else None
    if stored is None:
        return message
    carriers = tuple(ReasoningPart(signature=envelope) for envelope in json.loads(stored))
    return msgspec.structs.replace(message, parts=carriers + message.parts)


def recall_state(req: Request, state: MutableMapping[str, str]) -> Request:
    """``req`` with the kept envelopes put back in front of their assistant turns (not opened yet)."""
    messages = tuple(_recalled(m, state) if m.role == "assistant" else m for m in req.messages)
    if all(a is b for a, b in zip(messages, req.messages, strict=True)):
        return req
    return msgspec.structs.replace(req, messages=messages)
