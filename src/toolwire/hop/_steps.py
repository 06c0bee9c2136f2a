"""The steps of a hop as data: what it asks its shell to do (:class:`Send`), what the shell
answers (:class:`Received`), and the answers it ends with (:class:`Reply`, :class:`ReplyStream`),
plus the record an access log reports (:class:`HopRecord`) and :func:`client_error`. No I/O.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from toolwire._json import dumps
from toolwire.hop._capture import HopCapture
from toolwire.hop._relay import StreamRelay
from toolwire.hop._stateful import StoreCall
from toolwire.ir.base import Format
from toolwire.ir.notes import Notes
from toolwire.ir.response import ErrorInfo

__all__ = ["HopRecord", "Received", "Reply", "ReplyStream", "Send", "client_error"]

_JSON = {"content-type": "application/json"}


@dataclass(frozen=True, slots=True)
class Send:
    """Call the upstream. ``headers`` hold its credentials: never log them.

    Attributes:
        method: HTTP method.
        url: absolute URL.
        headers: request headers, credentials included.
        body: body bytes.
        stream: whether the answer is a stream (read it incrementally).
        timeout: connect and read timeout, seconds.
        upstream: the upstream's config name.
    """

    method: str
    url: str
    headers: dict[str, str]
    body: bytes
    stream: bool
    timeout: float
    upstream: str

    def __repr__(self) -> str:  # credentials stay out of reprs, logs and tracebacks
        return f"Send({self.method} {self.url}, stream={self.stream}, upstream={self.upstream!r})"


@dataclass(frozen=True, slots=True)
class Received:
    """The upstream's answer to a :class:`Send`.

    Attributes:
        status: HTTP status.
        headers: response headers.
        body: the whole body; for a 2xx answer to a streaming :class:`Send`, ``b""`` (the shell
            keeps the body open and pumps it through the :class:`ReplyStream`).
    """

    status: int
    headers: Mapping[str, str]
    body: bytes = b""


@dataclass(frozen=True, slots=True)
class Reply:
    """A whole answer for the client."""

    status: int
    headers: dict[str, str]
    body: bytes


@dataclass(frozen=True, slots=True)
class ReplyStream:
    """A streamed answer: feed the upstream's body chunks to ``relay`` and send what it returns.

    Attributes:
        status: HTTP status (200).
        headers: response headers (``content-type`` included).
        tap: when set, each chunk the relay gives goes through it before it is sent: it returns
            the chunk to send and the :class:`StoreCall`\\ s to perform first (a Responses
            client's state, :mod:`toolwire.hop._stateful`; a Chat client's reasoning state,
            :mod:`toolwire.hop._opaque`).
        relay: the stream relay (``feed(chunk)``, ``close()``). The :class:`Send` of a stream
            has the idle limit as its read timeout; when a read fails or times out, the shell
            sends ``relay.close()``, which ends the stream with the client's error event.
    """

    status: int
    headers: dict[str, str]
    relay: StreamRelay
    tap: Callable[[bytes], tuple[bytes, list[StoreCall]]] | None = None


@dataclass(slots=True)
class HopRecord:
    """What an access log line reports of one call (no keys, no bodies); ``capture`` holds a
    traced call's payloads, notes and times (:mod:`toolwire.hop._capture`), else ``None``."""

    request_id: str
    method: str
    path: str
    client: str | None = None
    operation: str | None = None
    upstream: str | None = None
    upstream_format: str | None = None
    client_model: str | None = None
    upstream_model: str | None = None
    stream: bool = False
    status: int = 0
    notes: int = 0
    input_tokens: int | None = None
    output_tokens: int | None = None
    error: str | None = None
    started: float = field(default_factory=time.monotonic)
    capture: HopCapture | None = None


def client_error(
    fmt: Format,
    status: int,
    message: str,
    *,
    type: str | None = None,
    code: str | None = None,
    param: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> Reply:
    """An error answer in the client format's own shape."""
    from toolwire.translate import format_module

    info = ErrorInfo(message=message, status=status, type=type, code=code, param=param)
    out_status, body = format_module(fmt).encode_error(info, Notes("drop"))
    return Reply(out_status, {**_JSON, **(headers or {})}, dumps(body))
