"""The stream codec contract every format package implements in its ``stream.py``.

A *wire event* is one event of a format's stream as decoded JSON: the ``data`` of one SSE
event parsed into a dict (Chat chunks, Responses events, Anthropic events, Gemini
``GenerateContentResponse`` chunks), or the string ``"[DONE]"`` (Chat's terminator). SSE
event names are not part of a wire event: Responses and Anthropic name each event by its
``type``, Chat and Gemini send unnamed events; :data:`NAMED_EVENTS` says which.

Each ``toolwire.formats.<format>.stream`` module provides:

- ``StreamDecoder(notes: Notes | None = None)``: ``feed(wire_event) -> list[StreamEvent]`` and
  ``close() -> list[StreamEvent]``. ``close`` after a stream without its terminal event returns a
  :class:`~toolwire.ir.StreamErrorEvent` (code ``incomplete_stream``); a malformed event gives a
  ``StreamErrorEvent`` too (code ``malformed_event``), never a silent skip.
- ``StreamEncoder(notes: Notes | None = None)``: ``feed(StreamEvent) -> list[wire_event]`` and
  ``close() -> list[wire_event]``, producing exactly the format's event grammar.
- ``check_stream(events: Iterable[wire_event]) -> list[Problem]``: the event-order validator,
  written as a transition table.

Hot paths (optional, used by :class:`~toolwire.streaming.StreamTranslator`): a decoder's
``hot(wire_event)`` (:class:`HotFrames`) recognizes a well-formed text or argument delta and
gives it as ``(IR delta type, IR index, text)``; an encoder's ``frame_delta(type, index, text)``
(:class:`FramingEncoder`, :class:`DeltaFraming`) writes that delta's SSE bytes by filling a
cached :func:`frame_template`. Both keep exactly the state and output of the general path;
``tests/streaming/test_hot_paths.py`` holds them to it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final, Protocol

from toolwire._args_check import TRIM
from toolwire._json import dumps, dumps_leaf
from toolwire.framing import encode_sse
from toolwire.ir.base import Format
from toolwire.ir.stream import StreamEvent, TextDelta, ToolCallDelta

__all__ = [
    "ParsedEvent",
    "BINARY_FORMATS",
    "DONE",
    "DeltaFraming",
    "DeltaSink",
    "Lend",
    "Lent",
    "HotLane",
    "FramingEncoder",
    "HOLE",
    "HELD_PIECES",
    "HotFrames",
    "INT_HOLE",
    "NAMED_EVENTS",
    "StreamDecoderLike",
    "StreamEncoderLike",
    "WireEvent",
    "delta_text",
    "encode_wire_event",
    "frame_halves",
    "frame_template",
    "NO_HALVES",
    "NO_LEND",
    "borrow",
    "value_halves",
    "hot_events",
    "make_delta",
    "iter_events",
    "join_wire_events",
    "sse_event_name",
]

WireEvent = dict[str, Any] | str
"""One stream event as decoded JSON, or ``"[DONE]"``."""

ParsedEvent = Any
"""A stream event as it arrived (any decoded JSON value): what decoders and checkers take. One that
is not a :data:`WireEvent` is refused with its path or takes the general path, never a
``TypeError`` (a compiled build checks a ``WireEvent`` annotation when it is called)."""

DONE = "[DONE]"
"""Chat Completions' terminal SSE data."""

NAMED_EVENTS: dict[Format, bool] = {
    "openai-chat": False,
    "openai-responses": True,
    "anthropic": True,
    "gemini": False,
    "bedrock-converse": False,
}
"""Whether a format's SSE events carry an ``event:`` line (equal to the data's ``type``)."""

BINARY_FORMATS = frozenset({"bedrock-converse"})
"""Formats whose streams are AWS event-stream binary, not SSE (:func:`encode_wire_event`)."""


def delta_text(event: TextDelta | ToolCallDelta) -> str:
    """The text an encoder's hot path sends for a delta: its text or argument text.

    ``""`` for a :class:`~toolwire.ir.TextDelta` that brings a signature: only the general
    paths handle one (they send it or note its drop).
    """
    if type(event) is TextDelta:
        return event.text if event.signature is None else ""
    return event.arguments  # type: ignore[union-attr]


def make_delta(kind: type, index: int, text: str) -> StreamEvent:
    """The IR delta of type ``kind`` (TextDelta, ReasoningDelta or ToolCallDelta) with ``text``."""
    if kind is ToolCallDelta:
        return ToolCallDelta(index=index, arguments=text)
    event: StreamEvent = kind(index=index, text=text)
    return event


def sse_event_name(fmt: Format, event: WireEvent) -> str | None:
    """The SSE ``event:`` name to send ``event`` with in format ``fmt`` (``None``: no name)."""
    if NAMED_EVENTS[fmt] and isinstance(event, dict):
        name = event.get("type")
        return name if isinstance(name, str) else None
    return None


def encode_wire_event(fmt: Format, event: WireEvent) -> bytes:
    """One wire event of format ``fmt`` (a resolved format name) as SSE bytes.

    The bytes :func:`~toolwire.framing.encode_sse` writes for it (named where the format names
    its events), built from cached ``event: <name>`` prefixes: compact JSON is one line, so it
    is one ``data:`` line. A Bedrock event is one AWS event-stream message instead.
    """
    if fmt in BINARY_FORMATS:
        from toolwire.formats.bedrock_converse._stream_frames import encode_frame

        return encode_frame(event)
    if type(event) is not dict:
        return encode_sse(None, event)  # type: ignore[arg-type]
    name = event.get("type") if NAMED_EVENTS[fmt] else None  # sse_event_name, inline
    if not isinstance(name, str):
        name = None
    prefix = _PREFIXES.get(name or "")
    if prefix is None:
        prefix = encode_sse(name, "")[:-2]  # checks the name; b"event: <name>\ndata: "
        if len(_PREFIXES) < _MAX_PREFIXES:
            _PREFIXES[name or ""] = prefix
    try:  # dumps, inline (no name holds the JSON: a big event is not held a third time)
        return prefix + _encode(event) + b"\n\n"
    except (RecursionError, UnicodeEncodeError, TypeError):
        return prefix + dumps(event) + b"\n\n"  # raises toolwire's own error, as dumps does


def join_wire_events(fmt: Format, events: list[WireEvent]) -> bytes:
    """``b"".join(encode_wire_event(fmt, e) for e in events)``, with the lookups per format done
    once (a Responses or Anthropic target replays a waiting call as many events at once)."""
    if fmt in BINARY_FORMATS:
        return b"".join([encode_wire_event(fmt, event) for event in events])
    named = NAMED_EVENTS[fmt]
    out: list[bytes] = []
    for event in events:
        if type(event) is dict:
            name = event.get("type") if named else ""
            prefix = _PREFIXES.get(name) if type(name) is str else None
            if prefix is not None:
                try:
                    out.append(prefix + _encode(event) + b"\n\n")
                    continue
                except (RecursionError, UnicodeEncodeError, TypeError):
                    pass  # encode_wire_event raises toolwire's own error
        out.append(encode_wire_event(fmt, event))
    return b"".join(out)


_encode = dumps_leaf
"""The encoder :func:`~toolwire._json.dumps` calls (any value; its errors: see ``dumps``)."""
_PREFIXES: dict[str, bytes] = {"": b"data: "}
"""SSE bytes before the JSON of an event, by event name (``""``: unnamed)."""
_MAX_PREFIXES = 512
"""Names beyond this many (an upstream inventing event types) are framed without caching."""

HOLE = "\x00toolwire:hole\x00"
"""A string value :func:`frame_template` cuts out of an event."""
INT_HOLE = -7_340_031_999_999_999_917
"""An integer value :func:`frame_template` cuts out of an event (e.g. a sequence number)."""
_HOLE_JSON = dumps(HOLE)
_INT_HOLE_JSON = dumps(INT_HOLE)


def frame_template(fmt: Format, event: dict[str, Any], holes: int) -> bytes | None:
    """The SSE bytes of ``event`` as a ``%`` template: ``%b`` for each :data:`HOLE`, ``%d`` for
    each :data:`INT_HOLE` value.

    ``template % (json_of_text, number)`` (in the holes' order) gives exactly
    :func:`encode_wire_event` of the event with those values: the JSON of a value does not
    depend on where it stands. ``None`` when the event does not have exactly ``holes`` holes
    (a hole value also present elsewhere, e.g. in an upstream's id).
    """
    frame = encode_wire_event(fmt, event)
    if frame.count(_HOLE_JSON) + frame.count(_INT_HOLE_JSON) != holes:
        return None
    return frame.replace(b"%", b"%%").replace(_HOLE_JSON, b"%b").replace(_INT_HOLE_JSON, b"%d")


NO_HALVES: tuple[bytes, bytes] = (b"", b"")
"""What :func:`frame_halves` gives for an event it cannot cut (the caller's general path)."""


def frame_halves(fmt: Format, event: dict[str, Any]) -> tuple[bytes, bytes]:
    """The SSE bytes of ``event`` cut at its one :data:`HOLE` value: ``head + json_of_text +
    tail`` is exactly :func:`encode_wire_event` of the event with that text (concatenation, a
    third cheaper than filling a :func:`frame_template`; compiled, also cheaper than one
    ``%`` fill of both halves joined: ~420 instead of ~700 instructions a delta, with the JSON
    of its text). :data:`NO_HALVES` when the hole value is not there exactly once."""
    frame = encode_wire_event(fmt, event)
    if frame.count(_HOLE_JSON) != 1:
        return NO_HALVES
    head, _, tail = frame.partition(_HOLE_JSON)
    return head, tail


def value_halves(value: Any) -> tuple[bytes, bytes]:
    """The compact JSON of ``value`` cut at its one :data:`HOLE` value, as :func:`frame_halves`
    cuts an event (for a part of an event whose bytes do not depend on the stream: the JSON
    of a value does not depend on where it stands). :data:`NO_HALVES` when the hole value is
    not there exactly once."""
    data = _encode(value)
    if data.count(_HOLE_JSON) != 1:
        return NO_HALVES
    head, _, tail = data.partition(_HOLE_JSON)
    return head, tail


class DeltaFraming:
    """Mixin: an encoder with ``frame_delta`` gets its ``frame`` (see :class:`FramingEncoder`)."""

    def frame_delta(self, kind: type, index: int, text: str) -> bytes | None:
        """See :meth:`FramingEncoder.frame_delta`."""
        raise NotImplementedError

    def frame(self, event: StreamEvent) -> bytes | None:
        """See :meth:`FramingEncoder.frame`."""
        kind = type(event)
        if kind is TextDelta or kind is ToolCallDelta:
            text = delta_text(event)  # type: ignore[arg-type]
            if text:
                return self.frame_delta(kind, event.index, text)  # type: ignore[union-attr]
        return None


DeltaSink = Callable[[type, int, str], bytes | None]
"""An encoder's ``frame_delta``: a delta's SSE bytes, ``None`` when it takes the general path."""


class Lent:
    """Base of an encoder's open part that it may lend to a decoder's hot path (see ``Lend``).

    A native base (compiled, the decoder reads ``head`` and ``tail`` and adds to ``sent`` in a
    few machine instructions instead of a generic attribute lookup each). A plain class, as
    its subclasses are, not a dataclass: compiled, their constructors are native (a
    dataclass's is generated Python, about 3,600 instructions per chat ``Out``).
    """

    __slots__ = ("head", "held", "sent", "tail")

    def __init__(self) -> None:
        self.sent = 0
        """The characters of the part's text the encoder sent (or a decoder wrote for it)."""
        self.head = b""
        """The part's delta SSE bytes before its text's JSON (:func:`frame_halves`) while it is
        lent, else ``b""``."""
        self.tail = b""
        """The part's delta SSE bytes after its text's JSON (set with ``head``)."""
        self.held: list[str] | None = None
        """Text the encoder checks at the part's end (a call's arguments, see ``Lend``), else
        ``None``."""

    def hold(self, text: str) -> None:
        """Keep ``text``, a delta a decoder wrote, in ``held`` (not ``None``) for the encoder's
        check, and hand the part back (``head = b""``) once that has ``HELD_PIECES`` pieces."""
        held = self.held
        assert held is not None
        held.append(text)
        if len(held) >= HELD_PIECES:
            self.head = b""


Lend = Callable[[type, int], Lent | None]
"""An encoder's ``lend(kind, index)``: the encoder's own part (a :class:`Lent`) for the open part
``index`` whose deltas of IR type ``kind`` it writes from fixed bytes (``None``: it does not), lent
to a decoder's hot path so that such a delta needs no call into the encoder. The part has ``head``
and ``tail``, the delta's SSE bytes around its text's JSON (:func:`frame_halves`), and ``sent``,
the characters the encoder sent for the part: the decoder writes ``head + dumps_leaf(text) +
tail``, then adds ``len(text)`` to ``sent``, exactly what the encoder's ``frame_delta`` does, while
``head`` is not ``b""`` (text that cannot be encoded, a lone surrogate, changes nothing and goes
the general way, whose framing raises toolwire's ``PayloadError``). The encoder empties ``head`` on
its next event of any other kind (its general path, ``close``), after which the decoder goes back
to the sink and may borrow again. A part lent for argument deltas may have ``held`` (not ``None``),
where the encoder keeps their text: the decoder appends each one there too, and hands the part back
(``head = b""``) once ``held`` has ``HELD_PIECES`` (``TRIM - 1``) pieces, so that the encoder's own
path appends the next one and trims (``ArgumentsCheck``) exactly when it would have; the encoder
lends such a part only while it holds fewer."""


HELD_PIECES: Final = 63
"""``TRIM - 1``: the pieces a lent part's ``held`` may reach before the decoder hands the part back
(see ``Lend``; a literal, so that a compiled decoder compares with a constant)."""
assert HELD_PIECES == TRIM - 1

NO_LEND = Lent()
"""A lent part that is never written to (``head`` empty): the decoder calls the sink."""


def borrow(lend: Lend | None, kind: type, index: int) -> Lent:
    """What a decoder's hot path keeps for the open part ``index`` after its sink wrote a delta of
    IR type ``kind``: the encoder's part as ``lend`` lends it (see ``Lend``), else :data:`NO_LEND`
    (asked once per part, not again)."""
    lent = lend(kind, index) if lend is not None else None
    return NO_LEND if lent is None else lent


HotLane = tuple[type, int, str] | bytes | None
"""What :meth:`HotFrames.hot_frame` gives: a delta (IR delta type, IR index, text), the bytes its
sink wrote for it, or ``None`` (not a hot event)."""


def hot_events(lane: tuple[type, int, str]) -> list[StreamEvent]:
    """The IR events of a :meth:`HotFrames.hot` lane (none for ``""``)."""
    return [make_delta(*lane)] if lane[2] else []


class HotFrames:
    """Base of the stream decoders with a hot path that needs no IR event, and its general path
    apart: ``feed(event)`` is ``_feed(event)`` when ``hot`` declines the event, so a caller that
    asked ``hot`` already calls ``_feed`` (the translator; the hot-path tests compare the two paths
    through it). The translator holds such a decoder by this type and calls its ``hot_frame`` once
    per event, which a compiled build (``make compiled``) makes a direct call (through a bound
    method kept in an attribute, or a decoder typed as a protocol, it would be a generic call: its
    own Python-level argument parsing per event)."""

    def hot(self, event: ParsedEvent) -> tuple[type, int, str] | None:
        """A well-formed delta of the open part as (IR delta type, IR index, text), state updated
        as ``feed`` would; ``None`` for any other event, with no state change. Text ``""`` stands
        for an event ``feed`` decodes to no IR event."""
        raise NotImplementedError

    def hot_frame(self, event: ParsedEvent, sink: DeltaSink | None) -> HotLane:
        """:meth:`hot`, fused with the target's byte hot path: a delta with text goes on to
        ``sink`` (the encoder's ``frame_delta``) in the same call, whose bytes it returns; the
        lane as ``hot`` gives it when there is no sink, no text or the sink declines (``None``)."""
        raise NotImplementedError

    def _feed(self, event: ParsedEvent) -> list[StreamEvent]:
        """The general path: any event, checked field by field (what ``feed`` does when ``hot``
        returns ``None``)."""
        raise NotImplementedError


class StreamDecoderLike(Protocol):
    """Wire events of one format in, canonical stream events out."""

    def feed(self, event: ParsedEvent) -> list[StreamEvent]:
        """Decode one wire event."""
        ...

    def close(self) -> list[StreamEvent]:
        """End of input: an error event when the stream ended without its terminal event."""
        ...


class StreamEncoderLike(Protocol):
    """Canonical stream events in, wire events of one format out."""

    def feed(self, event: StreamEvent) -> list[WireEvent]:
        """Encode one canonical event (zero or more wire events)."""
        ...

    def close(self) -> list[WireEvent]:
        """End of input: flush anything still open."""
        ...


class FramingEncoder(StreamEncoderLike, Protocol):
    """A stream encoder with a byte hot path (optional: the translator looks for ``frame``)."""

    def frame(self, event: StreamEvent) -> bytes | None:
        """``feed(event)`` as SSE bytes when ``event`` is a delta its hot path takes, else ``None``.

        Gives exactly ``b"".join(encode_wire_event(fmt, e) for e in feed(event))`` with the same
        state change; ``None`` changes no state (the caller then calls ``feed``).
        """
        ...

    def frame_delta(self, kind: type, index: int, text: str) -> bytes | None:
        """:meth:`frame` of ``make_delta(kind, index, text)`` (``text`` not empty), no IR event;
        ``None``, with no state change, for text it cannot encode (a lone surrogate: ``feed`` and
        the framing raise toolwire's ``PayloadError``)."""
        ...


def iter_events(decoder: StreamDecoderLike, events: Iterable[ParsedEvent]) -> list[StreamEvent]:
    """Feed every wire event to ``decoder`` and close it; all canonical events in order."""
    out: list[StreamEvent] = []
    for event in events:
        out.extend(decoder.feed(event))
    out.extend(decoder.close())
    return out
