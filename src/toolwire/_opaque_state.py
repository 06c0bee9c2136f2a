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

Streams too: :class:`StreamState` follows the upstream's IR stream events (hot-path deltas
included) and rebuilds the parts that hold state; :meth:`StreamState.keep` records them under
the first call id the client's stream showed (the shell reads it from the client's bytes,
:func:`first_stream_call_id`). A text's Gemini signature that arrives only in a delta is kept
too; Gemini validates signatures on calls only. Keys are only as unique as the call ids the
client saw (ids synthesized for Gemini calls repeat across turns until issue 12's id work
lands; a later turn then overwrites an earlier one's entry). A store shell prefixes every key
with its tenant (see :mod:`toolwire.hop._opaque`), so the mapping it hands in is one tenant's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, MutableMapping
from typing import Any

import msgspec

from toolwire.ir.base import Format
from toolwire.ir.content import Message, Part, ReasoningPart, TextPart, ToolCall
from toolwire.ir.request import Request
from toolwire.ir.response import Response
from toolwire.ir.stream import PartEnd, PartStart, ReasoningDelta, StreamEvent, TextDelta
from toolwire.opaque import has_state, ordinal_kind, seal, signed_envelope

__all__ = [
    "KEY_PREFIX",
    "StreamState",
    "first_stream_call_id",
    "keep_state",
    "keeps_state",
    "recall_state",
    "request_call_ids",
]

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


def keeps_state(client: Format, upstream: Format) -> bool:
    """Whether a ``client`` in front of ``upstream`` needs its reasoning state kept for it (a
    client format without a slot, another upstream)."""
    return client in _CALL_IDS and client != upstream


def request_call_ids(client: Format, payload: dict[str, Any]) -> list[str]:
    """The first call id of every assistant turn of a client's request (the keys it may hold)."""
    if client != "openai-chat":
        return []
    ids: list[str] = []
    for message in payload.get("messages") or ():
        if not isinstance(message, dict) or message.get("role") != "assistant":
            continue
        calls = message.get("tool_calls")
        first = calls[0] if isinstance(calls, list) and calls else None
        if isinstance(first, dict) and isinstance(first.get("id"), str):
            ids.append(KEY_PREFIX + first["id"])
    return ids


def first_stream_call_id(chunk: bytes) -> str | None:
    """The id of the first tool call a Chat client's SSE ``chunk`` starts, or ``None``."""
    if b'"tool_calls"' not in chunk:
        return None
    for line in chunk.split(b"\n"):
        if not line.startswith(b"data:") or b'"tool_calls"' not in line:
            continue
        try:
            data = json.loads(line[5:])
        except ValueError:
            continue
        for choice in data.get("choices") or () if isinstance(data, dict) else ():
            for call in (choice.get("delta") or {}).get("tool_calls") or ():
                if isinstance(call, dict) and isinstance(call.get("id"), str):
                    return str(call["id"])
    return None


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


class StreamState:
    """The opaque state of an upstream's stream, rebuilt from its IR events (see the module
    docstring); a :class:`~toolwire.streaming.StreamTranslator` observer (``feed``/``lane``
    see the events and return them unchanged)."""

    def __init__(self) -> None:
        self._parts: dict[int, Part] = {}  # upstream index -> the part so far (its end: final)
        self._text: dict[int, list[str]] = {}  # reasoning text of the reasoning parts in flight
        self._signature: dict[int, list[str]] = {}  # their signature deltas
        self._written: set[int] = set()  # text parts that got some text
        self._text_signature: dict[int, str] = {}  # a text's late Gemini signature

    def feed(self, events: list[StreamEvent]) -> list[StreamEvent]:
        """Follow decoded upstream events; returns them unchanged."""
        for event in events:
            kind = type(event)
            if kind is PartStart:
                self._start(event)  # type: ignore[arg-type]
            elif kind is ReasoningDelta:
                self._reasoning(event)  # type: ignore[arg-type]
            elif kind is TextDelta:
                self._text_delta(event)  # type: ignore[arg-type]
            elif kind is PartEnd:
                self._end(event)  # type: ignore[arg-type]
        return events

    def lane(self, lane: tuple[type, int, str]) -> tuple[type, int, str]:
        """Follow a hot-path delta ``(kind, index, text)``; returns it unchanged."""
        kind, index, text = lane
        if text and kind is ReasoningDelta and index in self._text:
            self._text[index].append(text)
        elif text and kind is TextDelta:
            self._written.add(index)
        return lane

    def _start(self, event: PartStart) -> None:
        self._parts[event.index] = event.part
        if isinstance(event.part, ReasoningPart):
            self._text[event.index], self._signature[event.index] = [], []
        elif isinstance(event.part, TextPart) and event.part.text:
            self._written.add(event.index)

    def _reasoning(self, event: ReasoningDelta) -> None:
        if event.text and event.index in self._text:
            self._text[event.index].append(event.text)
        if event.signature and event.index in self._signature:
            self._signature[event.index].append(event.signature)

    def _text_delta(self, event: TextDelta) -> None:
        if event.text:
            self._written.add(event.index)
        if event.signature is not None:
            self._text_signature[event.index] = event.signature

    def _end(self, event: PartEnd) -> None:
        start = self._parts.get(event.index)
        final = event.part if event.part is not None else start
        if isinstance(start, ReasoningPart) and not isinstance(event.part, ReasoningPart):
            text, signature = self._text.pop(event.index, []), self._signature.pop(event.index, [])
            changes: dict[str, object] = {}
            if text:
                changes["text"] = (start.text or "") + "".join(text)
            if signature:
                changes["signature"] = (start.signature or "") + "".join(signature)
            final = msgspec.structs.replace(start, **changes) if changes else start
        elif isinstance(final, TextPart):
            written = bool(final.text) or event.index in self._written
            late = final.thought_signature or self._text_signature.get(event.index)
            final = TextPart(text="x" if written else "", thought_signature=late)  # only counted
        if final is not None:
            self._parts[event.index] = final

    def keep(self, call_id: str, state: MutableMapping[str, str]) -> None:
        """Record the stream's envelopes under ``call_id`` (the first call the client saw)."""
        found = _envelopes(tuple(self._parts[index] for index in sorted(self._parts)))
        if found:
            state[KEY_PREFIX + call_id] = json.dumps(found)
