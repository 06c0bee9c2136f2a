"""Reading answer bodies within bounds: a size cap for error bodies, a total deadline for answers.

=================  =====================================================================
Bound              Rule
=================  =====================================================================
error body size    at most :data:`MAX_ERROR_BODY` bytes are kept, then the read stops and
                   :data:`TRUNCATED` is appended (an endless 5xx body no longer grows memory)
total deadline     ``Timeouts.total``: a non-streamed answer (headers and body) must be
                   complete within it. The read timeout bounds each wait for bytes, so a
                   body dripping a byte at a time would outlive it; the deadline is checked
                   at each chunk, so it can be overrun by at most one read timeout.
=================  =====================================================================

The sync and async readers are twins that differ only in ``await``.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator

from toolwire.client._errors import RequestTimeoutError

__all__ = ["MAX_ERROR_BODY", "TRUNCATED", "aread_body", "deadline_after", "read_body"]

MAX_ERROR_BODY = 1 << 20
"""Bytes of an error body kept (1 MiB); the rest is not read."""

TRUNCATED = b"\n[truncated: the body exceeded 1 MiB]"
"""Appended to an error body cut at :data:`MAX_ERROR_BODY`."""


def deadline_after(seconds: float | None) -> float | None:
    """The ``time.monotonic()`` instant ``seconds`` from now (``None``: no deadline)."""
    return None if seconds is None else time.monotonic() + seconds


class _Body:
    """The bytes read so far, with the bounds they must stay within."""

    __slots__ = ("chunks", "deadline", "limit", "size")

    def __init__(self, limit: int | None, deadline: float | None) -> None:
        self.chunks: list[bytes] = []
        self.size = 0
        self.limit = limit
        self.deadline = deadline

    def add(self, chunk: bytes) -> bool:
        """Keep ``chunk``; ``False`` when the size cap is reached (stop reading).

        Raises:
            RequestTimeoutError: the total deadline has passed.
        """
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise RequestTimeoutError("the answer was not complete within the total timeout")
        if self.limit is not None and self.size + len(chunk) > self.limit:
            self.chunks += [chunk[: self.limit - self.size], TRUNCATED]
            return False
        self.chunks.append(chunk)
        self.size += len(chunk)
        return True

    def bytes(self) -> bytes:
        return b"".join(self.chunks)


def read_body(chunks: Iterator[bytes], *, limit: int | None = None, deadline: float | None = None) -> bytes:
    """The body from ``chunks``, cut at ``limit`` bytes, complete before ``deadline``.

    Raises:
        RequestTimeoutError: the deadline passed before the body was complete.
    """
    body = _Body(limit, deadline)
    for chunk in chunks:
        if not body.add(chunk):
            break
    return body.bytes()


async def aread_body(
    chunks: AsyncIterator[bytes], *, limit: int | None = None, deadline: float | None = None
) -> bytes:
    """Async :func:`read_body`.

    Raises:
        RequestTimeoutError: the deadline passed before the body was complete.
    """
    body = _Body(limit, deadline)
    async for chunk in chunks:
        if not body.add(chunk):
            break
    return body.bytes()
