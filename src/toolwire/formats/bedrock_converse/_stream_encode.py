"""Canonical stream events (from any format) -> ConverseStream events.

Each IR part becomes one content block, numbered in the order parts start (parts that
interleave, like parallel calls of other formats, interleave their blocks too: every event
names its ``contentBlockIndex``). As Bedrock does, text and reasoning blocks have no
``contentBlockStart`` (an empty one sends one empty delta so that it exists); a tool call opens
with ``contentBlockStart.start.toolUse`` (id and name) and streams its raw argument text as
``toolUse.input`` deltas (none at all: ``{}``). A custom tool's free text is sent as
``{"input": text}``. Reasoning goes out only when Bedrock made it (origin
``bedrock-converse``): text, ``signature`` and ``redactedContent`` byte-exact; other
providers' reasoning is dropped with a note, as their signatures mean nothing here. Built-in
tool calls go back only to Bedrock; other parts Bedrock cannot stream are dropped, noted.

The end is ``messageStop`` (``stopReason``) then ``metadata`` (``usage`` and ``metrics``, both
required; members kept by the decoder go back to Bedrock). A
:class:`~toolwire.ir.StreamErrorEvent` becomes the exception event its type or status names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from toolwire._args_check import TRIM, ArgumentsCheck
from toolwire._json import dumps, dumps_str
from toolwire.formats._stream import DeltaFraming, WireEvent
from toolwire.formats._wire import emit_extra
from toolwire.formats.bedrock_converse._keys import encode_stop, encode_usage
from toolwire.formats.bedrock_converse._stream_decode import END_KEYS
from toolwire.formats.bedrock_converse._stream_frames import EXCEPTION_TYPES, frame_payload
from toolwire.ir.base import Format
from toolwire.ir.content import Part, ReasoningPart, RefusalPart, TextPart, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.response import ErrorInfo, Usage
from toolwire.ir.stream import (
    PartEnd,
    PartStart,
    ReasoningDelta,
    ResponseEnd,
    ResponseStart,
    StreamErrorEvent,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    UsageUpdate,
)
from toolwire.partial_json import complete_json

__all__ = ["StreamEncoder", "exception_name"]

FORMAT: Format = "bedrock-converse"

_BY_STATUS: dict[int, str] = {
    400: "validationException",
    408: "modelStreamErrorException",
    422: "validationException",
    424: "modelStreamErrorException",
    429: "throttlingException",
    503: "serviceUnavailableException",
    529: "serviceUnavailableException",
}


def exception_name(error: ErrorInfo) -> str:
    """The ConverseStream exception member for an error: its own type when Bedrock has it, else
    by status (4xx other than throttling: ``validationException``; else ``internalServerException``)."""
    kind = error.type or ""
    name = kind[:1].lower() + kind[1:]
    if name in EXCEPTION_TYPES:
        return name
    status = error.status or 500
    found = _BY_STATUS.get(status)
    if found is not None:
        return found
    return "validationException" if 400 <= status < 500 else "internalServerException"


@dataclass(slots=True)
class _Slot:
    """One IR part being sent: its block index, what it is and what was sent."""

    wire: int
    kind: str  # text | reasoning | call | custom
    sent: bool = False
    chunks: ArgumentsCheck = field(default_factory=ArgumentsCheck)
    signature: bool = False
    redacted: bool = False


def _delta(slot: _Slot, delta: dict[str, Any]) -> WireEvent:
    slot.sent = True
    return {"contentBlockDelta": {"contentBlockIndex": slot.wire, "delta": delta}}


class StreamEncoder(DeltaFraming):
    """Feed canonical stream events; get ConverseStream events (one-key dicts).

    ``frame_delta`` (the translator's byte hot path) writes a text or argument delta of an open
    block straight to its event-stream message, with the state change of ``feed``.
    """

    def __init__(self, notes: Notes | None = None) -> None:
        self._notes = notes if notes is not None else Notes()
        self._started = False
        self._same = False
        self._done = False
        self._slots: dict[int, _Slot] = {}
        self._wire = 0
        self._usage: Usage | None = None

    def feed(self, event: StreamEvent) -> list[WireEvent]:
        """Encode one canonical event (zero or more wire events)."""
        if self._done:
            self._notes.info("$", "skipped", f"{type(event).__name__} after the end of the stream ignored")
            return []
        out: list[WireEvent] = []
        if not self._started and not isinstance(event, (ResponseStart, StreamErrorEvent)):
            self._notes.add("$", "synthesized", "stream without a start: messageStart synthesized")
            out += self._on_start(ResponseStart())
        out += _HANDLERS[type(event)](self, event)
        return out

    def frame_delta(self, kind: type, index: int, text: str) -> bytes | None:
        """:meth:`feed` of a delta given as its parts, as event-stream bytes (``None``: not here)."""
        slot = self._slots.get(index)
        if slot is None or self._done:
            return None
        if kind is TextDelta and slot.kind == "text":
            inner = b'{"text":' + dumps(text) + b"}"
        elif kind is ToolCallDelta and slot.kind == "call":
            chunks = slot.chunks
            chunks.append(text)
            if len(chunks) >= TRIM:
                chunks.trim()
            inner = b'{"toolUse":{"input":' + dumps(text) + b"}}"
        else:
            return None
        slot.sent = True
        return frame_payload("contentBlockDelta", b'{"contentBlockIndex":%d,"delta":%b}' % (slot.wire, inner))

    def close(self) -> list[WireEvent]:
        """End of input: an ``internalServerException`` when the stream had no end."""
        if self._done:
            return []
        self._notes.add("$", "synthesized", "stream ended without a terminal event: exception event sent")
        self._done = True
        return [{"internalServerException": {"message": "incomplete stream"}}]

    def _on_start(self, event: ResponseStart) -> list[WireEvent]:
        if self._started:
            self._notes.info("$", "skipped", "second response start ignored")
            return []
        self._started = True
        self._same = event.origin == FORMAT
        if event.usage is not None:
            self._usage = event.usage
        return [{"messageStart": {"role": "assistant"}}]

    # ---------------------------------------------------------------- parts

    def _on_part_start(self, event: PartStart) -> list[WireEvent]:
        path = f"$.parts[{event.index}]"
        kind = self._kind(event.part, path)
        if kind is None:
            return []
        slot = self._slots[event.index] = _Slot(self._wire, kind)
        self._wire += 1
        part = event.part
        if isinstance(part, ToolCall):
            use: dict[str, Any] = {"toolUseId": part.id or f"tooluse_{event.index}", "name": part.name}
            if not part.id:
                self._notes.info(path, "synthesized", f"call without id sent as {use['toolUseId']!r}")
            if self._same:
                use.update((k, v) for k, v in part.extra.items() if k not in use)
            else:
                emit_extra(use, part.extra, False, self._notes, path)
            slot.sent = True
            return [{"contentBlockStart": {"contentBlockIndex": slot.wire, "start": {"toolUse": use}}}]
        if isinstance(part, ReasoningPart):
            return self._reasoning_state(slot, part)
        return []

    def _kind(self, part: Part, path: str) -> str | None:
        """The block kind a part is sent as, or ``None`` (noted) when it is not sent."""
        if isinstance(part, (TextPart, RefusalPart)):
            if isinstance(part, RefusalPart):
                self._notes.add(path, "approximated", "a refusal sent as text")
            elif part.thought_signature is not None:
                self._notes.add(path, "dropped", "Gemini thought signature on a text part")
            return "text"
        if isinstance(part, ReasoningPart):
            if part.origin != FORMAT:
                self._notes.add(
                    path, "dropped", f"reasoning of {part.origin or 'unknown origin'} not sent to Bedrock"
                )
                return None
            return "reasoning"
        if isinstance(part, ToolCall):
            if part.kind == "builtin" and not self._same:
                self._notes.add(path, "dropped", f"built-in tool call {part.name!r} of another provider")
                return None
            return "custom" if part.kind == "custom" else "call"
        self._notes.add(path, "dropped", f"{type(part).__name__} cannot be part of a ConverseStream response")
        return None

    def _reasoning_state(self, slot: _Slot, part: ReasoningPart) -> list[WireEvent]:
        """Redacted content and signature a reasoning part carries whole (sent once)."""
        out: list[WireEvent] = []
        if part.redacted is not None and not slot.redacted:
            slot.redacted = True
            out.append(_delta(slot, {"reasoningContent": {"redactedContent": part.redacted}}))
        if part.signature is not None and not slot.signature:
            slot.signature = True
            out.append(_delta(slot, {"reasoningContent": {"signature": part.signature}}))
        return out

    def _on_text(self, event: TextDelta) -> list[WireEvent]:
        slot = self._slots.get(event.index)
        if slot is None:
            return []
        if event.signature is not None:
            self._notes.add(f"$.parts[{event.index}]", "dropped", "Gemini thought signature on a text part")
        return [_delta(slot, {"text": event.text})] if event.text else []

    def _on_arguments(self, event: ToolCallDelta) -> list[WireEvent]:
        slot = self._slots.get(event.index)
        if slot is None or not event.arguments:
            return []
        if slot.kind == "custom":
            slot.chunks.append(event.arguments)
            return []
        chunks = slot.chunks
        chunks.append(event.arguments)
        if len(chunks) >= TRIM:
            chunks.trim()
        return [_delta(slot, {"toolUse": {"input": event.arguments}})]

    def _on_reasoning(self, event: ReasoningDelta) -> list[WireEvent]:
        slot = self._slots.get(event.index)
        if slot is None:
            return []
        out: list[WireEvent] = []
        text = event.text if event.text is not None else event.summary
        if text:
            out.append(_delta(slot, {"reasoningContent": {"text": text}}))
        if event.signature is not None:
            slot.signature = True
            out.append(_delta(slot, {"reasoningContent": {"signature": event.signature}}))
        return out

    def _on_part_end(self, event: PartEnd) -> list[WireEvent]:
        slot = self._slots.pop(event.index, None)
        return [] if slot is None else self._finish(slot, event.part)

    def _finish(self, slot: _Slot, part: Part | None) -> list[WireEvent]:
        out: list[WireEvent] = []
        if slot.kind == "custom":
            text = (
                "".join(slot.chunks)
                if slot.chunks
                else (part.arguments if isinstance(part, ToolCall) else "")
            )
            out.append(_delta(slot, {"toolUse": {"input": dumps_str({"input": text})}}))
        elif slot.kind == "call" and not slot.chunks:
            raw = part.arguments if isinstance(part, ToolCall) and part.arguments else "{}"
            out.append(_delta(slot, {"toolUse": {"input": raw}}))
        elif slot.kind == "call":
            out += self._complete(slot)
        elif isinstance(part, ReasoningPart):
            out += self._reasoning_state(slot, part)
        if not slot.sent:
            empty = {"reasoningContent": {"text": ""}} if slot.kind == "reasoning" else {"text": ""}
            out.append(_delta(slot, empty))
        out.append({"contentBlockStop": {"contentBlockIndex": slot.wire}})
        return out

    def _complete(self, slot: _Slot) -> list[WireEvent]:
        """Closing text for streamed arguments that are no complete JSON object (a cut-off
        stream), so that the client holds a JSON document as Bedrock's ``input`` must be."""
        problem = slot.chunks.problem()
        if problem is None:
            return []
        path = f"$.blocks[{slot.wire}].toolUse.input"
        text = slot.chunks.text()
        fixed = complete_json(text) if text is not None else ""
        if text is not None and fixed.startswith(text) and fixed != text and fixed.startswith("{"):
            self._notes.add(path, "approximated", f"arguments not a complete JSON object ({problem}); closed")
            return [_delta(slot, {"toolUse": {"input": fixed[len(text) :]}})]
        self._notes.add(
            path, "approximated", f"arguments not a complete JSON object ({problem}); sent as received"
        )
        return []

    # ---------------------------------------------------------------- end

    def _on_usage(self, event: UsageUpdate) -> list[WireEvent]:
        self._usage = event.usage
        return []

    def _on_end(self, event: ResponseEnd) -> list[WireEvent]:
        out: list[WireEvent] = []
        for index in sorted(self._slots, key=lambda i: self._slots[i].wire):
            self._notes.info(f"$.parts[{index}]", "synthesized", "part closed by the end of the response")
            out += self._finish(self._slots[index], None)
        self._slots.clear()
        self._done = True
        usage = event.usage if event.usage is not None else self._usage
        if usage is None:
            self._notes.info("$", "synthesized", "response had no usage; sent zeros", target="$.usage")
        stop: dict[str, Any] = {
            "stopReason": encode_stop(event.stop_reason, event.raw_stop_reason, self._same, self._notes, "$")
        }
        metadata: dict[str, Any] = {"usage": encode_usage(usage, self._same, self._notes, "$.usage")}
        metrics = event.extra.get("~metrics")
        metadata["metrics"] = metrics if self._same and isinstance(metrics, dict) else {"latencyMs": 0}
        sections = {"messageStop": stop, "metadata": metadata}
        rest: dict[str, Any] = {}
        for key, value in event.extra.items():
            target = next((name for name, keys in END_KEYS.items() if key in keys), None)
            if target is not None and self._same:
                sections[target][key] = value
            elif key == "~metrics":
                continue
            elif key.startswith("~") and key[1:] in sections and self._same and isinstance(value, dict):
                sections[key[1:]].update(value)
            else:
                rest[key] = value
        emit_extra(metadata, rest, False, self._notes, "$")
        return [*out, {"messageStop": stop}, {"metadata": metadata}]

    def _on_error(self, event: StreamErrorEvent) -> list[WireEvent]:
        self._done = True
        self._slots.clear()
        body: dict[str, Any] = {"message": event.error.message}
        if event.error.origin == FORMAT:
            body.update((k, v) for k, v in event.error.extra.items() if k not in body)
        return [{exception_name(event.error): body}]


_HANDLERS: dict[type, Callable[[StreamEncoder, Any], list[WireEvent]]] = {
    ResponseStart: StreamEncoder._on_start,
    PartStart: StreamEncoder._on_part_start,
    TextDelta: StreamEncoder._on_text,
    ToolCallDelta: StreamEncoder._on_arguments,
    ReasoningDelta: StreamEncoder._on_reasoning,
    PartEnd: StreamEncoder._on_part_end,
    UsageUpdate: StreamEncoder._on_usage,
    ResponseEnd: StreamEncoder._on_end,
    StreamErrorEvent: StreamEncoder._on_error,
}
