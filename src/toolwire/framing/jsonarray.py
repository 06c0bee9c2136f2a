"""Incremental top-level JSON array framing, sans-IO (Gemini ``streamGenerateContent`` without
``alt=sse`` streams ``[{...}\\n,\\r\\n{...}]``).

:class:`JSONArrayDecoder` yields each top-level element, parsed, as soon as its last byte has
arrived; chunks may split anywhere. It only tracks strings, escapes and bracket depth to find
element boundaries; the element text itself is parsed (and validated) by msgspec.
:class:`JSONArrayEncoder` writes the same framing.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from toolwire._json import dumps, loads
from toolwire.errors import LimitError, PayloadError, StreamError
from toolwire.framing.sse import DEFAULT_MAX_SIZE

__all__ = ["JSONArrayDecoder", "JSONArrayEncoder"]

_WS = re.compile(rb"[ \t\r\n]*")
_COMMA = re.compile(rb"[ \t\r\n]*(,[ \t\r\n]*)?")
_STR_BODY = re.compile(rb'[^"\\]*+(?:\\.[^"\\]*+)*+', re.DOTALL)  # string body up to " or a lone \
_TEXT = rb'[^"{}\[\]]++|"(?:[^"\\]++|\\.)*+"'  # bracket-free text or a complete string
_SKIP = re.compile(rb"(?:" + _TEXT + rb")*+", re.DOTALL)
_SCALAR_END = re.compile(rb"[,\]\s]")
_TRAILING = re.compile(r"trailing characters \(byte (\d+)\)")
_TRUNCATED = "Input data was truncated"
_GUESS_SLACK = 64 * 1024  # bytes msgspec may re-parse per element before the scanner takes over
_decoder = msgspec.json.Decoder()
_NOTHING: Any = object()
_OPEN = frozenset(b"{[")
_QUOTE = ord('"')

# states
_START, _FIRST, _ELEM, _IN, _SEP, _DONE = range(6)
_EXPECTED = {_START: "'['", _FIRST: "an element or ']'", _ELEM: "an element", _SEP: "',' or ']'"}


class JSONArrayDecoder:
    """Incremental parser of one streamed top-level JSON array: ``feed(bytes) -> list[Any]``.

    Args:
        max_size: largest element in bytes; a bigger one raises
            :class:`~toolwire.errors.LimitError`.

    Malformed framing (no ``[``, missing comma, bytes after ``]``) and invalid element JSON
    raise :class:`~toolwire.errors.PayloadError` with the element path (``$[3]``); a stream that
    ends before the closing ``]`` makes :meth:`close` raise :class:`~toolwire.errors.StreamError`.
    After an exception the decoder should be discarded.

    How an element's end is found: msgspec first parses everything buffered from the element's
    start (a complete element ends there or where msgspec reports trailing characters); while
    the element is incomplete this is retried when a closing bracket arrives, until msgspec has
    re-read about four times the element's size. Then a resumable scan that tracks strings,
    escapes and bracket depth takes over, so the work stays linear however the bytes are split.
    """

    def __init__(self, *, max_size: int = DEFAULT_MAX_SIZE) -> None:
        self.max_size = max_size
        self.count = 0  # elements returned so far
        self._buf = bytearray()  # starts at the current element while inside one
        self._state = _START
        self._pos = 0  # where scanning resumes in _buf
        self._closed = False
        # the current element
        self._depth = 0  # bracket depth
        self._in_str = False  # inside a string
        self._scalar = False  # a number / true / false / null
        self._guess = False  # still letting msgspec find the end
        self._spent = 0  # bytes msgspec re-read for it
        self._value: Any = _NOTHING  # parsed by the guess

    def feed(self, data: bytes) -> list[Any]:
        """Consume a chunk and return the elements it completed, parsed."""
        if self._closed:
            raise StreamError("JSON array decoder fed after close()")
        buf = self._buf
        buf += data
        out: list[Any] = []
        pos = self._pos
        while pos < len(buf):
            if self._state == _IN:
                end = self._end(buf, pos)
                if end < 0:
                    pos = self._pos
                    break
                out.append(self._take(buf, end))
                pos, self._state = 0, _SEP
                continue
            if self._state == _SEP:  # fast path over "\n,\r\n" to the next element
                gap = _COMMA.match(buf, pos)
                assert gap is not None
                if gap[1] is not None:
                    self._state = _ELEM
                pos = gap.end()
            else:
                pos = _WS.match(buf, pos).end()  # type: ignore[union-attr]
            if pos < len(buf):
                pos = self._punct(buf, pos)
        if self._state != _IN:
            del buf[:pos]
            pos = 0
        elif len(buf) > self.max_size:
            self._too_big()
        self._pos = pos
        return out

    def close(self) -> list[Any]:
        """End of stream: raise :class:`StreamError` unless the array was closed."""
        if not self._closed:
            self._closed = True
            if self._state != _DONE:
                raise StreamError(f"JSON array stream ended before its closing ']' ({self.count} items)")
        return []

    def _too_big(self) -> None:
        raise LimitError(f"JSON array element longer than {self.max_size} bytes", path=f"$[{self.count}]")

    def _take(self, buf: bytearray, end: int) -> Any:
        """Parse (unless already parsed) and drop the element ``buf[:end]``."""
        if end > self.max_size:
            self._too_big()
        value, self._value = self._value, _NOTHING
        if value is _NOTHING:
            value = loads(bytes(buf[:end]), path=f"$[{self.count}]")
        self.count += 1
        del buf[:end]
        return value

    def _punct(self, buf: bytearray, pos: int) -> int:
        """Handle the non-blank byte at ``pos`` between elements; returns the next position."""
        state, char = self._state, buf[pos]
        if state == _START and char == ord("["):
            self._state = _FIRST
        elif state == _SEP and char == ord(","):
            self._state = _ELEM
        elif state in (_FIRST, _SEP) and char == ord("]"):
            self._state = _DONE
        elif state in (_FIRST, _ELEM) and char not in b",]":
            del buf[:pos]  # the element now starts at 0
            self._state = _IN
            self._scalar = char not in _OPEN and char != _QUOTE
            self._guess, self._spent = char in _OPEN, 0
            self._depth, self._in_str = (1, False) if char in _OPEN else (0, char == _QUOTE)
            return 1
        else:
            got = f"unexpected {chr(char)!r}"
            if state == _DONE:
                raise PayloadError(f"{got} after the end of the JSON array stream", path="$")
            raise PayloadError(f"{got} in JSON array stream, expected {_EXPECTED[state]}", path="$")
        return pos + 1

    def _end(self, buf: bytearray, pos: int) -> int:
        """End of the element starting at ``buf[0]``, or -1 (resume state saved) if incomplete."""
        if self._scalar:
            match = _SCALAR_END.search(buf, pos)
            self._pos = len(buf)
            return -1 if match is None else match.start()
        if self._guess:
            end = self._end_by_msgspec(buf, pos)
            if end is not None:
                return end
            self._guess, pos = False, 1  # scan from the start of the element
        return self._end_by_scan(buf, pos)

    def _end_by_msgspec(self, buf: bytearray, pos: int) -> int | None:
        """Let msgspec find the end; ``None`` hands over to the scanner."""
        size = len(buf)
        self._pos = size
        if pos > 1 and buf.find(b"}", pos) < 0 and buf.find(b"]", pos) < 0:
            return -1  # nothing that could end the element arrived
        self._spent += size
        if self._spent > 4 * size + _GUESS_SLACK:
            return None
        try:
            self._value = _decoder.decode(buf)
            return size
        except msgspec.DecodeError as exc:
            message = str(exc)
        except RecursionError:
            raise self._too_deep() from None
        except UnicodeDecodeError as exc:
            raise self._not_utf8(exc) from None
        if message.startswith(_TRUNCATED):
            return -1
        trailing = _TRAILING.search(message)
        if trailing is None:
            return None  # malformed: the scanner finds its extent, loads() reports it
        end = int(trailing[1]) - 1
        try:
            self._value = _decoder.decode(buf[:end])
        except msgspec.DecodeError:
            return None
        except RecursionError:
            raise self._too_deep() from None
        except UnicodeDecodeError as exc:
            raise self._not_utf8(exc) from None
        return end

    def _too_deep(self) -> LimitError:
        return LimitError("JSON array element nested too deeply", path=f"$[{self.count}]")

    def _not_utf8(self, exc: UnicodeDecodeError) -> PayloadError:
        return PayloadError(f"JSON array element is not UTF-8 ({exc.reason})", path=f"$[{self.count}]")

    def _end_by_scan(self, buf: bytearray, pos: int) -> int:
        """Resumable scan: jump over text and strings from bracket to bracket."""
        depth, in_str, size = self._depth, self._in_str, len(buf)
        while True:
            if in_str:
                pos = _STR_BODY.match(buf, pos).end()  # type: ignore[union-attr]
                if pos >= size or buf[pos] != _QUOTE:
                    break
                in_str, pos = False, pos + 1
                if depth == 0:
                    return pos
            pos = _SKIP.match(buf, pos).end()  # type: ignore[union-attr]
            if pos >= size:
                break
            char = buf[pos]
            pos += 1
            if char == _QUOTE:
                in_str = True
            elif char in _OPEN:
                depth += 1
            else:
                depth -= 1
                if depth == 0:
                    return pos
        self._depth, self._in_str, self._pos = depth, in_str, pos
        return -1


class JSONArrayEncoder:
    """Writes a streamed JSON array the way Gemini does: ``[`` elem ``\\n,\\r\\n`` elem ... ``]``."""

    def __init__(self) -> None:
        self.count = 0

    def feed(self, obj: Any) -> bytes:
        """Encode one element (with the opening bracket or the separator before it)."""
        self.count += 1
        return (b"[" if self.count == 1 else b"\n,\r\n") + dumps(obj)

    def close(self) -> bytes:
        """Close the array (``[]`` if no element was written)."""
        return b"[]" if self.count == 0 else b"]"
