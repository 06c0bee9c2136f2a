"""Server-sent events decoding, sans-IO: feed bytes in, get :class:`SSEEvent` objects out.

Implements the WHATWG HTML "event stream" interpretation: lines end in CRLF, LF or CR (a CR
at the end of one chunk and an LF at the start of the next are one line ending), a leading
UTF-8 BOM is dropped, ``data:`` lines are joined with ``"\\n"``, one space after the colon is
removed, comment lines (``:``) are ignored, ids containing NUL are ignored, ``retry:`` needs
ASCII digits, unknown fields are ignored, and an event is dispatched at a blank line when its
data buffer is not empty.

Two deliberate additions to the spec, both common in client libraries:

- :meth:`SSEDecoder.close` dispatches a final event that lacks its terminating blank line
  (the spec discards it; real recordings often end that way).
- ``dispatch_empty=True`` also dispatches blocks that set fields but carry no ``data:``
  (some servers send ``event: ping`` + blank line).

Chunks may be split at any byte, including inside a multi-byte UTF-8 character: only complete
lines are decoded. The common case (LF line endings) runs on ``bytes.find``/``str.split``.
"""

from __future__ import annotations

import msgspec

from toolwire.errors import LimitError, StreamError

__all__ = ["DEFAULT_MAX_SIZE", "SSEDecoder", "SSEEvent", "is_done"]

DEFAULT_MAX_SIZE = 16 * 1024 * 1024
"""Default limit for one line (bytes) and one event's data (characters): 16 MiB."""

_BOM = b"\xef\xbb\xbf"

_State = tuple[list[str], int, str | None, int | None, bool, str | None]


class SSEEvent(msgspec.Struct, frozen=True, gc=False):
    """One dispatched server-sent event (or, when asked for, one comment line).

    Attributes:
        event: the ``event:`` field, or ``None`` when absent or empty (the spec's type is then
            ``"message"``, see :attr:`type`).
        data: the ``data:`` lines joined with ``"\\n"``.
        id: the last event id seen on the stream so far (the spec's ``lastEventId``: it
            persists across events until another ``id:`` field changes it), or ``None``.
        retry: the ``retry:`` value (milliseconds) given in this event's block, or ``None``.
        comment: for comment lines surfaced with ``SSEDecoder(comments=True)``, the text after
            the colon (one leading space removed, as for fields); ``None`` for real events.
    """

    event: str | None = None
    data: str = ""
    id: str | None = None
    retry: int | None = None
    comment: str | None = None

    @property
    def type(self) -> str:
        """The event type as a browser would report it: :attr:`event` or ``"message"``."""
        return self.event or "message"


def is_done(event: SSEEvent) -> bool:
    """Whether ``event`` is OpenAI's ``data: [DONE]`` end-of-stream sentinel."""
    data = event.data
    return len(data) < 16 and data.strip() == "[DONE]" and event.comment is None


class SSEDecoder:
    """Incremental server-sent events parser (no I/O): ``feed(bytes) -> list[SSEEvent]``.

    Args:
        comments: also return comment lines, as events whose :attr:`SSEEvent.comment` is set.
        dispatch_empty: also dispatch blocks that set ``event:``/``id:``/``retry:`` but no
            ``data:`` (the spec drops them).
        max_size: limit for one line in bytes and for one event's data in characters;
            exceeding it raises :class:`~toolwire.errors.LimitError`.

    Attributes:
        last_event_id: the stream's last event id (``None`` until an ``id:`` field is seen).
        retry: the last valid ``retry:`` value seen (reconnection time in ms), or ``None``.

    After an exception the decoder is in an undefined state and should be discarded.
    """

    def __init__(
        self, *, comments: bool = False, dispatch_empty: bool = False, max_size: int = DEFAULT_MAX_SIZE
    ) -> None:
        self.comments = comments
        self.dispatch_empty = dispatch_empty
        self.max_size = max_size
        self.retry: int | None = None
        self._tail = bytearray()  # incomplete last line (no CR in it)
        self._at_start = True  # BOM not yet checked
        self._skip_lf = False  # previous chunk ended with CR
        self._closed = False
        self._plain = False  # feed() may take its fast path: no BOM check, CR or tail pending
        self._idle = True  # between events: no data, event, retry or field line pending
        # the event being built: data lines, their total size, event, retry, whether any field
        # line was seen (for dispatch_empty); and the stream's last event id
        self._state: _State = ([], 0, None, None, False, None)

    @property
    def last_event_id(self) -> str | None:
        """The stream's last event id (``None`` until an ``id:`` field is seen)."""
        return self._state[5]

    def feed(self, data: bytes) -> list[SSEEvent]:
        """Consume a chunk of the byte stream and return the events it completed."""
        if self._plain and len(data) <= self.max_size:  # no BOM check, CR or partial line pending
            event = self._single(data)  # one whole event per chunk, as servers flush them
            if event is not None:
                return [event]
            if data.endswith(b"\r\n"):
                data = data.replace(b"\r\n", b"\n")  # whole CRLF pairs only: always safe
            if data.endswith(b"\n") and b"\r" not in data:  # the common case: whole LF lines
                lines = data.decode("utf-8", "replace").split("\n")
                lines.pop()
                return self._lines(lines)
        return self._feed(data)

    def take_data(self, data: bytes) -> bytes | None:
        """The raw ``data:`` bytes of ``data`` when it is exactly one whole event, else None.

        Servers usually flush one event per chunk (``[event: name\\n]data: payload\\n\\n``);
        for such a chunk, arriving between events, this is :meth:`feed` without building an
        :class:`SSEEvent` or decoding text (the event name is not returned). Anything else
        (partial lines, other fields, comments, CR, a pending BOM check) returns None and
        consumes nothing: feed that chunk with :meth:`feed`.
        """
        start = self._data_start(data)
        return None if start < 0 else data[start:-2]

    def _single(self, data: bytes) -> SSEEvent | None:
        """:meth:`take_data` as the :class:`SSEEvent` that :meth:`_lines` would dispatch."""
        start = self._data_start(data)
        if start < 0:
            return None
        name = None
        if data.startswith(b"event:"):
            raw = data[6 : data.find(b"\n")]
            name = (raw[1:] if raw[:1] == b" " else raw).decode("utf-8", "replace") or None
        return SSEEvent(name, data[start:-2].decode("utf-8", "replace"), self._state[5], None)

    def _data_start(self, data: bytes) -> int:
        """Where the data bytes of a one-event chunk start (-1: not such a chunk).

        The chunk is ``[event: name\\n]data: payload\\n\\n`` (the spaces optional), arriving
        between events with no CR, no BOM check and no partial line pending.
        """
        if not (
            self._plain
            and self._idle
            and len(data) <= self.max_size
            and data.endswith(b"\n\n")
            and data.find(b"\r") < 0  # (faster than ``in`` for one byte)
        ):
            return -1
        end = len(data) - 2
        first = data.find(b"\n")
        if first == end:
            first = 0
        elif data.find(b"\n", first + 1) == end and data.startswith(b"event:"):
            first += 1
        else:
            return -1
        if not data.startswith(b"data:", first):
            return -1
        return first + (6 if data[first + 5 : first + 6] == b" " else 5)

    def _feed(self, data: bytes) -> list[SSEEvent]:
        """The general case of :meth:`feed`: BOM, CR line endings, incomplete lines, limits."""
        if self._closed:
            raise StreamError("SSE decoder fed after close()")
        if self._at_start:
            data = self._strip_bom(data)
            if not data:
                return []
        if self._skip_lf and data:
            self._skip_lf = False
            if data[:1] == b"\n":
                data = data[1:]
        if b"\r" in data:
            self._skip_lf = data[-1:] == b"\r"
            data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        end = data.rfind(b"\n")
        if end < 0:
            self._tail += data
            self._check_tail()
            self._plain = False
            return []
        block = data[:end]
        if self._tail:
            block = bytes(self._tail) + block
            self._tail.clear()
        self._tail += data[end + 1 :]
        self._check_tail()
        self._plain = not self._skip_lf and not self._tail
        if len(block) > self.max_size:
            self._check_lines(block)
        return self._lines(block.decode("utf-8", "replace").split("\n"))

    def close(self) -> list[SSEEvent]:
        """End of stream: parse an unterminated last line and dispatch a pending event."""
        if self._closed:
            return []
        self._closed = True
        self._plain = False
        lines: list[str] = []
        if self._tail:
            lines.append(self._tail.decode("utf-8", "replace"))
            self._tail.clear()
        lines.append("")
        return self._lines(lines)

    def _strip_bom(self, data: bytes) -> bytes:
        """Drop a leading UTF-8 BOM, waiting for more bytes while it may still be one."""
        if self._tail:
            data = bytes(self._tail) + data
            self._tail.clear()
        if len(data) < 3 and _BOM.startswith(data):
            self._tail += data
            return b""
        self._at_start = False
        return data[3:] if data.startswith(_BOM) else data

    def _check_tail(self) -> None:
        """Raise :class:`LimitError` when the incomplete last line exceeds the limit."""
        if len(self._tail) > self.max_size:
            raise LimitError(f"SSE line longer than {self.max_size} bytes")

    def _check_lines(self, block: bytes) -> None:
        """Raise :class:`LimitError` when a line of ``block`` exceeds the limit."""
        for line in block.split(b"\n"):
            if len(line) > self.max_size:
                raise LimitError(f"SSE line longer than {self.max_size} bytes")

    def _lines(self, lines: list[str]) -> list[SSEEvent]:
        """Interpret complete lines; returns the dispatched events.

        The hot loop: per-event state lives in locals and is written back at the end.
        """
        out: list[SSEEvent] = []
        data, size, event, retry, fields, last_id = self._state
        limit = self.max_size
        for line in lines:
            if not line:  # blank line: dispatch
                if data or (fields and self.dispatch_empty):
                    joined = data[0] if len(data) == 1 else "\n".join(data)
                    out.append(SSEEvent(event, joined, last_id, retry))
                    data, size = [], 0
                event = retry = None
                fields = False
                continue
            if line.startswith("data:"):
                value = line[6:] if line.startswith(" ", 5) else line[5:]
            else:
                name, colon, value = line.partition(":")
                if colon and value.startswith(" "):
                    value = value[1:]
                if name != "data":
                    if name == "event":
                        event = value or None
                    elif name == "id":
                        if "\0" not in value:
                            last_id = value
                    elif name == "retry":
                        if value.isascii() and value.isdigit():
                            retry = self.retry = int(value)
                    elif colon and not name:  # comment line
                        if self.comments:
                            out.append(SSEEvent(None, "", last_id, None, value))
                        continue
                    else:  # unknown field: ignored
                        continue
                    fields = True
                    continue
            data.append(value)
            size += len(value)
            if size > limit:
                raise LimitError(f"SSE event data longer than {limit} characters")
            fields = True
        self._state = (data, size, event, retry, fields, last_id)
        self._idle = not data and event is None and retry is None and not fields
        return out
