"""Newline-delimited JSON framing, sans-IO: one JSON value per line.

Lines end in LF (a CR before it is whitespace to JSON and ignored); blank lines are skipped;
a last line without a newline is parsed by :meth:`NDJSONDecoder.close`.
"""

from __future__ import annotations

from typing import Any

from toolwire._json import dumps, loads
from toolwire.errors import LimitError, StreamError
from toolwire.framing.sse import DEFAULT_MAX_SIZE

__all__ = ["NDJSONDecoder", "encode_ndjson"]


class NDJSONDecoder:
    """Incremental NDJSON parser: ``feed(bytes) -> list[Any]`` (one parsed value per line).

    Args:
        max_size: longest line in bytes; a longer one raises
            :class:`~toolwire.errors.LimitError`.

    Invalid JSON raises :class:`~toolwire.errors.PayloadError` at ``$[n]`` (n counts values).
    """

    def __init__(self, *, max_size: int = DEFAULT_MAX_SIZE) -> None:
        self.max_size = max_size
        self.count = 0  # values returned so far
        self._tail = bytearray()
        self._closed = False

    def feed(self, data: bytes) -> list[Any]:
        """Consume a chunk and return the values of the lines it completed."""
        if self._closed:
            raise StreamError("NDJSON decoder fed after close()")
        end = data.rfind(b"\n")
        if end < 0:
            self._tail += data
            self._check(self._tail)
            return []
        block = data[:end]
        if self._tail:
            block = bytes(self._tail) + block
            self._tail.clear()
        self._tail += data[end + 1 :]
        self._check(self._tail)
        return self._parse(block.split(b"\n"))

    def close(self) -> list[Any]:
        """End of stream: parse a last line that lacks its newline."""
        if self._closed:
            return []
        self._closed = True
        tail = bytes(self._tail)
        self._tail.clear()
        return self._parse([tail])

    def _check(self, line: bytes | bytearray) -> None:
        if len(line) > self.max_size:
            raise LimitError(f"NDJSON line longer than {self.max_size} bytes", path=f"$[{self.count}]")

    def _parse(self, lines: list[bytes]) -> list[Any]:
        out: list[Any] = []
        for line in lines:
            if not line or line.isspace():
                continue
            self._check(line)
            out.append(loads(line, path=f"$[{self.count}]"))
            self.count += 1
        return out


def encode_ndjson(obj: Any) -> bytes:
    """Encode one value as a compact JSON line ending in ``\\n`` (JSON never holds a raw LF)."""
    return dumps(obj) + b"\n"
