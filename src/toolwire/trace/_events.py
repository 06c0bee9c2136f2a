"""A stream's captured chunks as timeline events: framing, then one mark per event (no I/O).

Each side is parsed on its own (SSE, or a JSON array for a Gemini client that asked without
``alt=sse``); an event is stamped with the time of the chunk that completed it. What an event
marks depends on the format of its side (:data:`MARKERS`); an event with no mark is ``other``:

=================  ===========================================  =============================
format             tool_call_start / tool_call_end              text / reasoning / end / error
=================  ===========================================  =============================
anthropic          ``content_block_start`` of a ``tool_use`` /  ``text_delta`` /
                   its ``content_block_stop``                   ``thinking_delta`` /
                                                                ``message_stop`` / ``error``
openai-chat        a ``delta.tool_calls`` entry with an ``id``  ``delta.content`` /
                   / ``finish_reason`` ``tool_calls``           ``delta.reasoning_content`` /
                                                                other ``finish_reason``,
                                                                ``[DONE]`` / ``error``
openai-responses   ``output_item.added`` / ``output_item.done`` ``output_text.delta`` /
                   of a ``function_call`` (or ``custom_tool_    ``reasoning*.delta`` /
                   call``)                                      ``completed``, ``incomplete``
                                                                / ``failed``, ``error``
gemini             a ``functionCall`` part (both marks: Gemini  a text part (``thought``:
                   sends a call whole)                          reasoning) / ``finishReason``
                                                                / ``error``
=================  ===========================================  =============================

An event that marks several things (a Gemini call) gives one :class:`TraceEvent` per mark,
the data on the first.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

import msgspec

from toolwire.errors import ToolwireError
from toolwire.framing import JSONArrayDecoder, SSEDecoder
from toolwire.hop._capture import HopCapture, StreamSide
from toolwire.trace.record import TraceEvent

__all__ = ["MARKERS", "SLICE", "Steps", "iter_stream_events"]

Mark = tuple[str, int | None]
_Open = set[int]
_JSON = msgspec.json.Decoder()


def _anthropic(obj: dict[str, Any], tools: _Open) -> list[Mark]:
    kind, index = obj.get("type"), obj.get("index")
    if kind == "content_block_start":
        block = obj.get("content_block") or {}
        if block.get("type") in ("tool_use", "server_tool_use") and isinstance(index, int):
            tools.add(index)
            return [("tool_call_start", index)]
        return [("reasoning" if block.get("type") == "thinking" else "text", index)]
    if kind == "content_block_delta":
        delta = (obj.get("delta") or {}).get("type")
        mark = {"text_delta": "text", "thinking_delta": "reasoning", "signature_delta": "reasoning"}
        return [(mark[delta], index)] if delta in mark else []
    if kind == "content_block_stop" and index in tools:
        return [("tool_call_end", index)]
    return (
        [({"message_stop": "end", "error": "error"}[kind], None)] if kind in ("message_stop", "error") else []
    )


def _chat(obj: dict[str, Any], tools: _Open) -> list[Mark]:
    if "error" in obj:
        return [("error", None)]
    marks: list[Mark] = []
    for choice in obj.get("choices") or ():
        delta = choice.get("delta") or {}
        for call in delta.get("tool_calls") or ():
            if call.get("id"):
                tools.add(call.get("index", 0))
                marks.append(("tool_call_start", call.get("index")))
        if delta.get("content"):
            marks.append(("text", None))
        if delta.get("reasoning_content") or delta.get("reasoning"):
            marks.append(("reasoning", None))
        if choice.get("finish_reason"):
            marks += [("tool_call_end", n) for n in sorted(tools)] if tools else [("end", None)]
            tools.clear()
    return marks


_RESPONSES = {
    "response.output_text.delta": "text",
    "response.reasoning_text.delta": "reasoning",
    "response.reasoning_summary_text.delta": "reasoning",
    "response.completed": "end",
    "response.incomplete": "end",
    "response.failed": "error",
    "error": "error",
}
_TOOL_ITEMS = frozenset({"function_call", "custom_tool_call"})


def _responses(obj: dict[str, Any], tools: _Open) -> list[Mark]:
    kind = obj.get("type")
    item = obj.get("item") or {}
    index = obj.get("output_index")
    if (
        kind in ("response.output_item.added", "response.output_item.done")
        and item.get("type") in _TOOL_ITEMS
    ):
        return [("tool_call_start" if kind.endswith("added") else "tool_call_end", index)]
    return [(_RESPONSES[kind], index)] if kind in _RESPONSES else []


def _gemini(obj: dict[str, Any], tools: _Open) -> list[Mark]:
    if "error" in obj:
        return [("error", None)]
    marks: list[Mark] = []
    for candidate in obj.get("candidates") or ():
        parts = (candidate.get("content") or {}).get("parts") or ()
        for n, part in enumerate(parts):
            if "functionCall" in part:
                marks += [("tool_call_start", n), ("tool_call_end", n)]
            elif part.get("text"):
                marks.append(("reasoning" if part.get("thought") else "text", None))
        if candidate.get("finishReason"):
            marks.append(("end", None))
    return marks


MARKERS: dict[str, Callable[[dict[str, Any], _Open], list[Mark]]] = {
    "anthropic": _anthropic,
    "openai-chat": _chat,
    "openai-responses": _responses,
    "gemini": _gemini,
}
"""A side's wire format -> what one of its events marks (see the module docstring)."""


def _parsed(capture: HopCapture, side: StreamSide) -> list[tuple[float, str, str]]:
    """``(time, name, data)`` of the side's events, in order; a framing error ends the list."""
    chunks = [(t, data) for t, s, data in capture.chunks if s == side]
    array = bool(chunks) and chunks[0][1].lstrip()[:1] == b"["
    sse, items = SSEDecoder(), JSONArrayDecoder()
    out: list[tuple[float, str, str]] = []
    try:
        for t, data in chunks:
            if array:
                out += [(t, "data", msgspec.json.encode(item).decode()) for item in items.feed(data)]
            else:
                out += [(t, event.event or "data", event.data) for event in sse.feed(data)]
        if not capture.truncated(side) and not array:
            out += [(chunks[-1][0], event.event or "data", event.data) for event in sse.close()]
    except ToolwireError:
        out.append((chunks[-1][0] if chunks else 0.0, "unparsed", "the rest of this side is not SSE"))
    return out


_SIDES: tuple[StreamSide, ...] = ("upstream_response", "client_response")


SLICE = 64
"""Events handled between two yields of :func:`iter_stream_events` (a writer on an event loop
lets requests run in between)."""


def _read(fmt: str | None, name: str, data: str, tools: _Open) -> tuple[str, list[Mark]]:
    """The event's name (its SSE name, else its JSON ``type``) and its marks."""
    if data[:1] != "{":
        return ("done", [("end", None)]) if data.strip() == "[DONE]" else (name, [])
    try:
        obj = _JSON.decode(data)
    except msgspec.DecodeError:
        return name, []
    if not isinstance(obj, dict):
        return name, []
    if name == "data" and isinstance(obj.get("type"), str):
        name = obj["type"]
    marker = MARKERS.get(fmt or "")
    return name, marker(obj, tools) if marker is not None else []


Steps = Generator[None, None, list[TraceEvent]]
"""A computation that yields now and then (to let an event loop run) and returns its result."""


def iter_stream_events(
    capture: HopCapture, formats: dict[StreamSide, str | None], cut: Callable[[str], str]
) -> Steps:
    """The timeline of a streamed call, both sides' events in time order, yielding every
    :data:`SLICE` events.

    Args:
        capture: the call's capture (``started`` and the chunks).
        formats: each side's wire format.
        cut: redacts and caps an event's data.
    """
    events: list[TraceEvent] = []
    started = capture.started
    for side in _SIDES:
        parsed = _parsed(capture, side)
        if not parsed:
            continue
        yield
        first = round((parsed[0][0] - started) * 1000, 3)
        events.append(TraceEvent(t_ms=first, side=side, name="first_byte", kind="first_byte"))
        tools: _Open = set()
        for count, (t, name, data) in enumerate(parsed, 1):
            t_ms = round((t - started) * 1000, 3)
            name, marks = _read(formats[side], name, data, tools)
            text = cut(data)
            if not marks:
                events.append(TraceEvent(t_ms=t_ms, side=side, name=name, data=text))
            for n, (kind, index) in enumerate(marks):
                events.append(
                    TraceEvent(
                        t_ms=t_ms, side=side, name=name, kind=kind, index=index, data="" if n else text
                    )
                )
            if count % SLICE == 0:
                yield
        if capture.truncated(side):
            note = f"later events are not kept: {capture.seen[side]} bytes, {capture.budget} kept"
            events.append(TraceEvent(t_ms=events[-1].t_ms, side=side, name="truncated", data=note))
    events.sort(key=lambda event: event.t_ms)
    return events
