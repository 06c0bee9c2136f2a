"""The steps of one client attempt as data: what :class:`~toolwire.client._core.ClientCore` asks
its driver to do, and what the driver sends back. No I/O.

A flow (``ClientCore.create_steps``, ``ClientCore.open_steps``) is a generator, driven like
httpx drives an ``auth_flow``: it yields a step, the driver performs it on the answer it holds and
sends back the result, until the flow returns (a :class:`~toolwire.client.Result`, or an
:class:`Opened` stream) or raises (a typed error). The driver closes the answer in hand when the
flow or a step raises.

===========  ==========================================================  =====================
Step         The driver                                                  sends back
===========  ==========================================================  =====================
FetchToken   runs ``ClientCore.refresh_token`` (a blocking HTTP call:    ``None``
             the async driver runs it in a worker thread)
Send         sends the request and keeps its answer open                 an :class:`Answer`
RefreshKey   closes the answer in hand, calls ``auth_refresh``           the key, or ``None``
ReadBody     reads the whole body (an error body: capped, a transport    ``bytes``
             failure reads as ``b""``), then closes the answer
ReadChunk    reads the next chunk of the body                            ``bytes``; ``None`` at
                                                                         the end
===========  ==========================================================  =====================
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from toolwire.client._bodies import MAX_ERROR_BODY
from toolwire.client._session import IdleWatch, StreamSession
from toolwire.ir.response import Response
from toolwire.ir.stream import StreamEvent

__all__ = [
    "FETCH_TOKEN",
    "READ_CHUNK",
    "REFRESH_KEY",
    "Answer",
    "FetchToken",
    "Opened",
    "ReadBody",
    "ReadChunk",
    "RefreshKey",
    "Send",
    "Step",
    "StreamEnd",
]

StreamEnd = Callable[[Response | None, BaseException | None], None]
"""Called once when a stream ends: its accumulated response, or the error that broke it."""


@dataclass(frozen=True, slots=True)
class FetchToken:
    """Take a fresh token from the token source (it may block on an HTTP call)."""


@dataclass(frozen=True, slots=True)
class RefreshKey:
    """Close the answer in hand (a 401) and ask ``auth_refresh`` for a new key."""


@dataclass(frozen=True, slots=True)
class Send:
    """Send the request; keep its answer open. ``headers`` hold credentials: never log them.

    Attributes:
        method: HTTP method.
        url: absolute URL.
        headers: request headers, credentials included.
        content: body bytes.
        stream: whether the answer is a stream (its read timeout is the idle limit).
    """

    method: str
    url: str
    headers: dict[str, str]
    content: bytes
    stream: bool

    def __repr__(self) -> str:  # credentials stay out of reprs, logs and tracebacks
        return f"Send({self.method} {self.url}, stream={self.stream})"


@dataclass(frozen=True, slots=True)
class ReadBody:
    """Read the body of the answer in hand, then close it.

    Attributes:
        deadline: the ``time.monotonic()`` instant the body must be complete by (``None``: none).
        error: an error body: at most ``MAX_ERROR_BODY`` bytes are kept, and a transport failure
            reads as ``b""`` (the status still says what went wrong).
    """

    deadline: float | None
    error: bool = False

    @property
    def limit(self) -> int | None:
        """The bytes kept: capped for an error body, all of a successful one."""
        return MAX_ERROR_BODY if self.error else None


@dataclass(frozen=True, slots=True)
class ReadChunk:
    """Read the next chunk of the answer's body (``None`` at its end)."""


FETCH_TOKEN = FetchToken()
REFRESH_KEY = RefreshKey()
READ_CHUNK = ReadChunk()

Step = FetchToken | Send | RefreshKey | ReadBody | ReadChunk
"""What a flow yields."""


@dataclass(frozen=True, slots=True)
class Answer:
    """The status and headers of the answer to a :class:`Send` (the driver keeps its body)."""

    status: int
    headers: Mapping[str, str]


@dataclass(slots=True)
class Opened:
    """A stream whose first events arrived: what the driver needs to hand it to the caller.

    Attributes:
        session: the decoding session, fed the chunks read so far.
        first: the events of those chunks (empty only when the stream ended without any).
        idle: the idle watch, ticked at each chunk read.
        on_end: tells the observer how the stream ended (``None``: no observer).
    """

    session: StreamSession
    first: list[StreamEvent]
    idle: IdleWatch
    on_end: StreamEnd | None
