"""Stream translation, any format to any format, with constant memory per stream.

Three layers, each usable alone:

- :class:`WireReader` (in :mod:`toolwire._wire_reader`) / :func:`encode_wire_events`: bytes <->
  wire events (SSE for every format, Gemini's JSON-array streaming too), built on the sans-IO
  :mod:`toolwire.framing`.
- :func:`stream_decoder` / :func:`stream_encoder`: a format's stream codec (wire events <-> IR
  stream events, see :mod:`toolwire.formats._stream`).
- :class:`StreamTranslator`: source wire events -> target wire events through the IR, restoring
  sanitized tool names and the client's model name like :class:`~toolwire.translate.Exchange`.

:class:`ArgumentsView` follows the IR events of a stream and offers the tool arguments parsed so
far (from partial JSON) for progressive UIs.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, get_args

import msgspec

from toolwire._arguments_view import ArgumentsView
from toolwire._opaque_stream import StreamSealer, seals
from toolwire._wire_reader import KEEPALIVE, WireReader
from toolwire.errors import PayloadError
from toolwire.formats._stream import (
    DeltaSink,
    HotFrames,
    ParsedEvent,
    StreamDecoderLike,
    StreamEncoderLike,
    WireEvent,
    encode_wire_event,
    join_wire_events,
    make_delta,
)
from toolwire.ir._where import STREAM
from toolwire.ir.base import Format, FormatName
from toolwire.ir.content import ToolCall
from toolwire.ir.notes import Note, Notes, Policy
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
)

if TYPE_CHECKING:
    from toolwire._restore import Restorer, StreamRestore
    from toolwire.ir.problem import Problem

__all__ = [
    "KEEPALIVE",
    "ArgumentsView",
    "StreamTranslator",
    "WireReader",
    "check_stream",
    "encode_wire_event",
    "encode_wire_events",
    "stream_decoder",
    "stream_encoder",
    "translate_stream",
]


_STREAM_MODULES: dict[str, Any] = {}
"""Format name (or alias) -> its ``stream`` module, once imported."""


_TRANSLATE: Any = None
"""The module :mod:`toolwire.translate` (which imports this one), once loaded."""


def _load_translate() -> Any:
    global _TRANSLATE
    import toolwire.translate

    _TRANSLATE = toolwire.translate
    return _TRANSLATE


def _stream_module(fmt: str) -> Any:
    module = _STREAM_MODULES.get(fmt)
    if module is None:
        from toolwire.translate import format_module

        module = importlib.import_module(f"{format_module(fmt).__name__}.stream")
        _STREAM_MODULES[fmt] = module
    return module


def stream_decoder(
    fmt: FormatName, notes: Notes | None = None, *, dialect: str | None = None
) -> StreamDecoderLike:
    """A new stream decoder (wire events -> IR events) for format ``fmt`` (``dialect``: the
    Chat provider streaming, see :mod:`toolwire.formats.openai_chat.dialects`)."""
    extra = {"dialect": dialect} if dialect is not None else {}
    decoder: StreamDecoderLike = _stream_module(fmt).StreamDecoder(notes, **extra)
    return decoder


def check_stream(fmt: FormatName, events: Iterable[ParsedEvent]) -> list[Problem]:
    """Problems with the event order of a stream of format ``fmt`` (empty when it is legal)."""
    problems: list[Problem] = _stream_module(fmt).check_stream(events)
    return problems


def stream_encoder(fmt: FormatName, notes: Notes | None = None) -> StreamEncoderLike:
    """A new stream encoder (IR events -> wire events) for format ``fmt``."""
    encoder: StreamEncoderLike = _stream_module(fmt).StreamEncoder(notes)
    return encoder


def encode_wire_events(fmt: FormatName, events: Iterable[WireEvent]) -> bytes:
    """Frame wire events of format ``fmt`` as SSE bytes (named events where the format names them)."""
    from toolwire.translate import resolve_format

    name = resolve_format(fmt)
    return _frames(name, list(events))


def _frames(fmt: Format, events: list[WireEvent]) -> bytes:
    """Several wire events as SSE bytes (see :func:`encode_wire_event`)."""
    count = len(events)
    if count == 1:
        return encode_wire_event(fmt, events[0])
    if not count:  # e.g. a delta the encoder buffers
        return b""
    return join_wire_events(fmt, events)


def _framed(fmt: Format, events: list[Any]) -> bytes:
    """:func:`_frames` of events from an encoder that was ``framing``: some are SSE bytes already."""
    if not any(type(event) is bytes for event in events):
        return _frames(fmt, events)
    return b"".join([event if type(event) is bytes else encode_wire_event(fmt, event) for event in events])


class StreamTranslator:
    """Translate one streamed response from ``source`` wire events to ``target`` wire events.

    Memory stays constant per stream: events pass through one at a time; only a target that needs
    a complete item (e.g. Gemini's whole function-call arguments) holds that item, and a Responses
    target holds the output text, which its ``*.done`` events and ``response.completed`` repeat.
    Text and argument deltas take the codecs' hot paths (see ``tests/streaming/test_hot_paths.py``).

    Args:
        source: format of the incoming stream (the upstream).
        target: format to produce (the client's).
        policy: conversion policy for lossy steps.
        restore_name: maps an upstream tool name back to the client's name (an Exchange's name map).
        model: the model name to report to the client, when it differs from the upstream's.
        restore: an Exchange's way back for tool calls (names, kinds, namespaces, ids); argument
            deltas of calls it turns back into custom calls leave the hot paths.
        seal: seal the upstream's opaque reasoning state into the client's slot, as
            :class:`~toolwire.translate.Exchange` does (:mod:`toolwire.opaque`). Sealing comes
            first, so ``restore`` sees the client's part indices.
        clock: the time (unix seconds) for a stream start that reports none, which the
            target needs (Chat ``created``, Responses ``created_at``); ``None``: left unknown.
        observer: sees the decoded upstream events and hot-path deltas where nothing seals
            (``feed(events)``, ``lane(lane)``, each returned unchanged), e.g.
            :class:`~toolwire._opaque_state.StreamState` for a client without a slot.
        source_dialect: a Chat source's provider (see
            :mod:`toolwire.formats.openai_chat.dialects`): its reasoning is sealed for the client
            (with ``seal``) and goes back only to that provider.
    """

    def __init__(
        self,
        source: FormatName,
        target: FormatName,
        *,
        policy: Policy = "warn",
        restore_name: Callable[[str], str] | None = None,
        model: str | None = None,
        restore: Restorer | None = None,
        seal: bool = False,
        clock: Callable[[], float] | None = None,
        observer: Any = None,
        source_dialect: str | None = None,
    ) -> None:
        translate = _TRANSLATE or _load_translate()  # no import statement per stream (~4 µs)
        chat_dialect, resolve_format = translate.chat_dialect, translate.resolve_format
        self.notes = Notes(policy)
        self.notes.decoded(STREAM)  # notes about a part name the event that started it
        self._decoder = stream_decoder(source, self.notes, **chat_dialect(source, source_dialect))
        self._encoder = stream_encoder(target, self.notes)
        self._encode_one = self._encoder.feed
        self._target: Format = resolve_format(target)
        self._frame: Callable[[StreamEvent], bytes | None] | None = getattr(self._encoder, "frame", None)
        self._hot: HotFrames | None = self._decoder if isinstance(self._decoder, HotFrames) else None
        """The decoder, when it has a hot path: its ``hot_frame`` is called per event through this
        type (a direct call, compiled; a bound method in an attribute would be a generic call)."""
        # An event ``hot`` declined goes to the decoder's general path, which is what its
        # ``feed`` does after asking ``hot`` again (see ``HotFrames``).
        cold = self._hot._feed if self._hot is not None else None
        self._decode: Callable[[ParsedEvent], list[StreamEvent]] = cold or self._decoder.feed
        self._frame_delta: Callable[[type, int, str], bytes | None] = (
            getattr(self._encoder, "frame_delta", None) or _no_frame
        )
        self._restore_name = restore_name
        self._model = model
        self._clock = clock
        self._hook: StreamRestore | None = restore.stream(self.notes) if restore is not None else None
        self._custom = self._hook.custom if self._hook is not None else None  # see _diverted
        self._closed = False
        self.usage: Usage | None = None
        """The usage the source stream reported at its end (``None`` until then)."""
        upstream = resolve_format(source)
        self._sealer = (
            StreamSealer(self._target, self.notes)
            if seal and seals(upstream, self._target, source_dialect)
            else observer
        )
        self._plain = self._sealer is None and self._custom is None
        """No sealer and no restore hook: a hot-path delta goes straight to the encoder's bytes."""
        self._sink: DeltaSink | None = getattr(self._encoder, "frame_delta", None) if self._plain else None
        """What the decoder's hot path hands a delta to, in the same call (``HotFrames.hot_frame``)."""
        lend = getattr(self._encoder, "lend", None) if self._sink is not None else None
        if lend is not None and hasattr(self._decoder, "lend"):
            self._decoder.lend = lend  # the sink's own bytes, written by the decoder (see ``Lend``)
        self._framing: Any = self._encoder if hasattr(self._encoder, "framing") else None
        """An encoder that replays held deltas as SSE bytes while its ``framing`` is set."""
        custom = restore is not None and restore.shims is not None and restore.shims.restores_custom
        if self._target in _DELTA_BUILT and not custom and hasattr(self._decoder, "hold_calls"):
            self._decoder.hold_calls = False  # the target builds calls from the deltas: memory flat

    def feed(self, event: ParsedEvent) -> list[WireEvent]:
        """Translate one source wire event (zero or more target wire events)."""
        hot = self._hot
        if hot is not None:
            lane = hot.hot_frame(event, None)  # a delta, with no IR event yet
            if type(lane) is tuple:
                if self._sealer is not None:
                    lane = self._sealer.lane(lane)
                if self._custom and self._diverted(lane[0], lane[1]):
                    return self._hooked([make_delta(*lane)])
                return self._encode_one(make_delta(*lane)) if lane[2] else []
        return self._translate(self._decode_safe(event), event)

    def feed_frames(self, event: ParsedEvent) -> bytes:
        """:meth:`feed`, framed: the target's SSE bytes for one source wire event.

        Equal to ``encode_wire_events(target, feed(event))``; a delta on the encoder's byte hot
        path (``FramingEncoder.frame``) is written from cached bytes, with no wire dict, and
        from a decoder with a ``HotFrames.hot`` path, with no IR event either.
        """
        hot = self._hot
        if hot is not None:
            lane = hot.hot_frame(event, self._sink)  # a plain translator's delta: its bytes, in one call
            if type(lane) is bytes:  # the common event first (cheaper than isinstance)
                return lane
            if lane is not None:
                assert not isinstance(lane, bytes)  # for mypy: a lane from here on
                if not self._plain:
                    return self._lane_frames(lane)
                kind, index, text = lane  # the sink declined (or none, or no text)
                if not text:
                    return b""
                return _frames(self._target, self._encode_one(make_delta(kind, index, text)))
        try:  # _decode_safe, inline
            ir_events = self._decode(event)
        except PayloadError as exc:
            ir_events = [_malformed(exc)]
        else:
            if self._sealer is not None:
                ir_events = self._sealer.feed(ir_events)
        if len(ir_events) == 1 and type(ir_events[0]) in _PASSED:
            delta: Any = ir_events[0]
            if not (self._custom and self._diverted(type(delta), delta.index)):
                frame = self._frame
                data = frame(delta) if frame is not None else None
                return data if data is not None else _frames(self._target, self._encode_one(delta))
        framing = self._framing
        if framing is None:
            return _frames(self._target, self._translate_all(ir_events, event))
        framing.framing = True  # held argument deltas replayed as their bytes (see ``_framed``)
        try:
            return _framed(self._target, self._translate_all(ir_events, event))
        finally:
            framing.framing = False

    def _lane_frames(self, lane: tuple[type, int, str]) -> bytes:
        """:meth:`feed_frames` of a hot-path delta that a sealer or a restore hook may see first."""
        if self._sealer is not None:
            lane = self._sealer.lane(lane)
        if self._custom and self._diverted(lane[0], lane[1]):
            return _frames(self._target, self._hooked([make_delta(*lane)]))
        if not lane[2]:
            return b""
        data = self._frame_delta(*lane)
        if data is not None:
            return data
        return _frames(self._target, self._encode_one(make_delta(*lane)))

    def _diverted(self, kind: type, index: int) -> bool:
        """Whether a delta goes through the restore hook (argument text of a restored custom call;
        callers first check ``self._custom``, the hook's open custom calls, which is mostly empty)."""
        custom = self._custom
        return custom is not None and kind is ToolCallDelta and index in custom

    def _hooked(self, ir_events: list[StreamEvent], event: ParsedEvent = None) -> list[WireEvent]:
        """The target's events for IR events that pass through the restore hook first."""
        hook = self._hook
        assert hook is not None
        if event is not None:
            hook.first(event)
        return self._encode([restored for ir_event in ir_events for restored in hook.event(ir_event)])

    def _translate(self, ir_events: list[StreamEvent], event: ParsedEvent = None) -> list[WireEvent]:
        """The target's events for decoded IR events (a single delta goes to the encoder as is)."""
        if len(ir_events) == 1 and type(ir_events[0]) in _PASSED:
            delta: Any = ir_events[0]
            if not (self._custom and self._diverted(type(delta), delta.index)):
                return self._encode_one(delta)
        return self._translate_all(ir_events, event)

    def _translate_all(self, ir_events: list[StreamEvent], event: ParsedEvent) -> list[WireEvent]:
        """:meth:`_translate` of events that are not a single delta passed as it is."""
        self._note_usage(ir_events)
        if self._hook is not None:
            return self._hooked(ir_events, event)
        return self._encode(ir_events)

    def _note_usage(self, ir_events: list[StreamEvent]) -> None:
        for ir_event in ir_events:
            if type(ir_event) is ResponseEnd and ir_event.usage is not None:
                self.usage = ir_event.usage

    def _decode_safe(self, event: ParsedEvent) -> list[StreamEvent]:
        try:
            events = self._decode(event)
        except PayloadError as exc:
            return [_malformed(exc)]
        return events if self._sealer is None else self._sealer.feed(events)

    def close(self) -> list[WireEvent]:
        """End of the source stream: flush, or report a stream that ended early."""
        if self._closed:
            return []
        self._closed = True
        closing = self._decoder.close()
        if self._sealer is not None:
            closing = self._sealer.feed(closing)
        self._note_usage(closing)
        out = self._hooked(closing) if self._hook is not None else self._encode(closing)
        out.extend(self._encoder.close())
        return out

    def close_frames(self) -> bytes:
        """:meth:`close`, framed as the target's SSE bytes."""
        return _frames(self._target, self.close())

    def feed_ir(self, event: StreamEvent) -> list[WireEvent]:
        """Encode an IR event directly (after the same name/model restoring as :meth:`feed`)."""
        return self._encode([event])

    def _encode(self, ir_events: list[StreamEvent]) -> list[WireEvent]:
        out: list[WireEvent] = []
        encode, rename = self._encode_one, self._restore_name
        for ir_event in ir_events:
            kind = type(ir_event)  # exact types first: an isinstance costs ~900 instructions, compiled
            if kind is ResponseStart or (kind not in _IR_EVENTS and isinstance(ir_event, ResponseStart)):
                ir_event = self._start(ir_event)  # type: ignore[arg-type]
            elif rename is not None:
                ir_event = self._restore(ir_event)
            out += encode(ir_event)
        return out

    def _restore(self, event: StreamEvent) -> StreamEvent:
        if isinstance(event, ResponseStart):
            return self._start(event)
        rename = self._restore_name
        if rename is None or not isinstance(event, (PartStart, PartEnd)):
            return event
        part = event.part
        if isinstance(part, ToolCall) and part.kind != "builtin":
            original = rename(part.name)
            if original != part.name:
                return msgspec.structs.replace(event, part=msgspec.structs.replace(part, name=original))
        return event

    def _start(self, event: ResponseStart) -> ResponseStart:
        if self._model is not None:
            event = msgspec.structs.replace(event, model=self._model)
        if event.created is None and self._clock is not None:
            event = msgspec.structs.replace(event, created=int(self._clock()))
        return event

    @property
    def note_items(self) -> tuple[Note, ...]:
        """The notes of this stream so far."""
        return tuple(self.notes.items)


_DELTA_BUILT = frozenset({"openai-chat", "anthropic", "gemini"})
"""Targets whose encoders build a tool call from its argument deltas, not from the decoder's
final part (a Responses target repeats the whole call in ``output_item.done``)."""


def _no_frame(kind: type, index: int, text: str) -> None:
    """The ``frame_delta`` of an encoder without one."""
    return None


_PASSED = frozenset({TextDelta, ToolCallDelta, ReasoningDelta})
"""IR deltas, passed to the encoder as they are."""
_IR_EVENTS: frozenset[type] = frozenset(get_args(StreamEvent))
"""The IR stream event types (an event of another type is a subclass of one)."""


def _malformed(exc: PayloadError) -> StreamErrorEvent:
    info = ErrorInfo(message=str(exc), code="malformed_event", type="stream_error", param=exc.path)
    return StreamErrorEvent(error=info)


def translate_stream(
    chunks: Iterable[bytes], *, source: FormatName, target: FormatName, policy: Policy = "warn"
) -> Iterator[bytes]:
    """Translate a streamed response body (byte chunks) from ``source`` to ``target`` SSE bytes.

    Bytes that do not parse as an event (broken JSON, a non-object) end the translation with the
    target's own error event (code ``malformed_event``), after every event before them; the
    rest of the body is not read.

    Example:
        >>> for out in translate_stream(upstream_chunks, source="anthropic", target="openai-chat"):
        ...     send(out)  # doctest: +SKIP
    """
    reader = WireReader()
    translator = StreamTranslator(source, target, policy=policy)
    feed = translator.feed_frames
    try:
        for chunk in chunks:
            for event in reader.feed(chunk):
                yield feed(event)
        for event in reader.close():
            yield feed(event)
    except PayloadError as exc:
        yield _frames(translator._target, translator.feed_ir(_malformed(exc)))
    yield translator.close_frames()
