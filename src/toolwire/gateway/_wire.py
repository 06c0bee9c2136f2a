"""A lean HTTP/1.1 client for the ASGI gateway's upstream calls (asyncio streams, stdlib only).

httpx costs about 1 ms of CPU per call on the gateway's path (``benchmarks/bench_gateway.py``:
its client-side work was 8x a raw keep-alive round trip), more than the gateway's own
translation; this client does what a gateway needs and no more:

- one write per request (head and body), keep-alive connections pooled per (scheme, host, port),
  TLS with the system's trust store for ``https`` upstreams;
- a body framed by ``content-length``, ``chunked`` transfer coding, or the connection's end;
- the :class:`~toolwire.hop.core.Send`'s timeout on the connect and on each read, so a stream's
  read timeout is its idle limit;
- a connection whose body was not read to its end is closed, never reused: a client that
  leaves mid-stream closes the upstream's connection;
- a pooled connection the server has closed is dropped before use, never retried after the
  request went out (a POST sent twice would be a second model call);
- failures are :class:`~toolwire.errors.TransportError`\\ s naming the upstream, never a header.

Not supported, so the gateway uses httpx instead: HTTP proxies from the environment
(:func:`proxied`), a custom httpx transport, HTTP/2.
"""

from __future__ import annotations

import asyncio
import os
import ssl
from collections.abc import AsyncIterator, Awaitable
from urllib.parse import urlsplit

from toolwire.errors import ConnectionFailedError, RequestTimeoutError
from toolwire.hop.core import Received, Send

__all__ = ["UpstreamPool", "WireResponse", "proxied"]

_PROXY_VARS = ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy")
_MAX_HEAD = 64 * 1024
_READ = 64 * 1024
_Key = tuple[str, str, int]


def proxied() -> bool:
    """Whether the environment names an HTTP proxy (then httpx, which honors it, is used)."""
    return any(os.environ.get(name) for name in _PROXY_VARS)


class _Conn:
    __slots__ = ("key", "reader", "writer")

    def __init__(self, key: _Key, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.key, self.reader, self.writer = key, reader, writer

    def close(self) -> None:
        self.writer.close()


class WireResponse:
    """An upstream answer whose body is read on demand (``aread`` or ``aiter_bytes``)."""

    def __init__(
        self, pool: UpstreamPool, conn: _Conn, step: Send, status: int, headers: dict[str, str]
    ) -> None:
        self.status_code = status
        self.headers = headers
        self._pool, self._conn, self._step = pool, conn, step
        self._done = False
        self._reusable = headers.get("connection", "").lower() != "close"

    async def aiter_bytes(self) -> AsyncIterator[bytes]:
        """The body's chunks as they arrive (each read bounded by the step's timeout)."""
        try:
            async for chunk in self._body():
                yield chunk
            self._done = True
        finally:
            await self.aclose()

    async def aread(self) -> bytes:
        """The whole body."""
        return b"".join([chunk async for chunk in self.aiter_bytes()])

    async def aclose(self) -> None:
        """Give the connection back (body read to its end) or close it (anything else)."""
        conn, self._conn = self._conn, None  # type: ignore[assignment]
        if conn is None:
            return
        if self._done and self._reusable:
            self._pool._release(conn)
        else:
            conn.close()

    async def _body(self) -> AsyncIterator[bytes]:
        if self._step.method == "HEAD" or self.status_code in (204, 304) or self.status_code < 200:
            return
        if "chunked" in self.headers.get("transfer-encoding", "").lower():
            async for chunk in self._chunked():
                yield chunk
            return
        length = self.headers.get("content-length")
        if length is not None:
            async for chunk in self._sized(_length(length, self._step)):
                yield chunk
            return
        self._reusable = False
        while chunk := await self._read(self._conn.reader.read(_READ)):
            yield chunk

    async def _sized(self, remaining: int) -> AsyncIterator[bytes]:
        reader = self._conn.reader
        while remaining > 0:
            chunk = await self._read(reader.read(min(remaining, _READ)))
            if not chunk:
                raise _failed(self._step, "the body ended early")
            remaining -= len(chunk)
            yield chunk

    async def _chunked(self) -> AsyncIterator[bytes]:
        """Chunked coding, one socket read at a time: every chunk that read holds, joined (a read
        and its timeout per event would cost more than the relay's work on it)."""
        reader, dechunk = self._conn.reader, Dechunker()
        while not dechunk.done:
            data = await self._read(reader.read(_READ))
            if not data:
                raise _failed(self._step, "the body ended early")
            try:
                out = dechunk.feed(data)
            except ValueError as exc:
                raise _failed(self._step, str(exc)) from None
            if out:
                yield out
        if dechunk.extra:
            self._reusable = False

    async def _read(self, pending: Awaitable[bytes]) -> bytes:
        return await _bounded(pending, self._step)


async def _bounded(pending: Awaitable[bytes], step: Send) -> bytes:
    try:
        async with asyncio.timeout(step.timeout):
            data = await pending
    except TimeoutError:
        raise RequestTimeoutError(f"upstream {step.upstream!r}: read timeout") from None
    except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as exc:
        raise _failed(step, type(exc).__name__) from None
    return data


class Dechunker:
    """HTTP/1.1 chunked transfer coding, decoded incrementally (sans-IO): :meth:`feed` takes
    bytes split anywhere and returns the payload bytes they complete; :attr:`done` after the
    last chunk and its trailers. Raises ValueError on bad framing."""

    def __init__(self) -> None:
        self._buf = b""
        self._left = 0
        self._state = _SIZE
        self.done = False
        self.extra = False

    def feed(self, data: bytes) -> bytes:
        """The payload bytes ``data`` completes."""
        buf = self._buf + data if self._buf else data
        out: list[bytes] = []
        pos, end = 0, len(buf)
        while pos < end and not self.done:
            pos = _STEPS[self._state](self, buf, pos, out)
            if pos < 0:  # needs more bytes
                pos = -pos - 1
                break
        self._buf = buf[pos:] if pos < end else b""
        if self.done and self._buf:
            self.extra, self._buf = True, b""
        if len(self._buf) > _MAX_LINE:
            raise ValueError("a chunk line too long")
        return out[0] if len(out) == 1 else b"".join(out)

    def _size(self, buf: bytes, pos: int, out: list[bytes]) -> int:
        eol = buf.find(b"\r\n", pos)
        if eol < 0:
            return -pos - 1
        try:
            size = int(buf[pos:eol].split(b";", 1)[0].strip(), 16)
        except ValueError:
            raise ValueError("a bad chunk size") from None
        if size < 0:
            raise ValueError("a bad chunk size")
        self._left, self._state = size, (_DATA if size else _TRAILER)
        return eol + 2

    def _data(self, buf: bytes, pos: int, out: list[bytes]) -> int:
        take = min(self._left, len(buf) - pos)
        out.append(buf[pos : pos + take])
        self._left -= take
        if not self._left:
            self._state = _CRLF
        return pos + take

    def _crlf(self, buf: bytes, pos: int, out: list[bytes]) -> int:
        if len(buf) - pos < 2:
            return -pos - 1
        if buf[pos : pos + 2] != b"\r\n":
            raise ValueError("a chunk without its CRLF")
        self._state = _SIZE
        return pos + 2

    def _trailer(self, buf: bytes, pos: int, out: list[bytes]) -> int:
        eol = buf.find(b"\r\n", pos)
        if eol < 0:
            return -pos - 1
        self.done = eol == pos  # an empty line ends the trailers
        return eol + 2


_SIZE, _DATA, _CRLF, _TRAILER = range(4)
_STEPS = (Dechunker._size, Dechunker._data, Dechunker._crlf, Dechunker._trailer)
"""The decoder's state -> its step: ``(decoder, bytes, position, out) -> next position``, or
``-position - 1`` when the bytes from ``position`` on are not enough."""
_MAX_LINE = 4096


def _failed(step: Send, why: str) -> ConnectionFailedError:
    return ConnectionFailedError(f"upstream {step.upstream!r}: {why}")


def _length(text: str, step: Send) -> int:
    try:
        value = int(text.split(",")[0].strip())
    except ValueError:
        raise _failed(step, "a bad content-length") from None
    if value < 0:
        raise _failed(step, "a bad content-length")
    return value


def _head(step: Send, host: str) -> bytes:
    target = urlsplit(step.url)
    path = (target.path or "/") + (f"?{target.query}" if target.query else "")
    lines = [f"{step.method} {path} HTTP/1.1", f"host: {host}"]
    lines += [f"{name}: {value}" for name, value in step.headers.items() if name.lower() not in _OWN]
    lines.append(f"content-length: {len(step.body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


_OWN = frozenset({"host", "content-length", "transfer-encoding", "connection"})
"""Request headers this client writes itself."""


def _parse_head(raw: bytes, step: Send) -> tuple[int, dict[str, str]]:
    lines = raw.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/1.") or not parts[1].isdigit():
        raise _failed(step, "not an HTTP/1.1 answer")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if not line:
            continue
        name, sep, value = line.partition(":")
        if not sep:
            raise _failed(step, "a bad header line")
        key, value = name.strip().lower(), value.strip()
        headers[key] = f"{headers[key]}, {value}" if key in headers else value
    if parts[0] == "HTTP/1.0" and headers.get("connection", "").lower() != "keep-alive":
        headers["connection"] = "close"
    return int(parts[1]), headers


class UpstreamPool:
    """Keep-alive connections to the upstreams, and :meth:`send` for a hop's :class:`Send`.

    Args:
        max_idle: idle connections kept per (scheme, host, port).
    """

    def __init__(self, max_idle: int = 64) -> None:
        self._idle: dict[_Key, list[_Conn]] = {}
        self._max_idle = max_idle
        self._ssl: ssl.SSLContext | None = None

    async def send(self, step: Send) -> tuple[Received, WireResponse | None]:
        """Perform ``step``: the whole answer, or for a 2xx stream the answer with its body open."""
        response = await self._exchange(step)
        if step.stream and response.status_code < 300:
            return Received(response.status_code, response.headers), response
        body = await response.aread()
        return Received(response.status_code, response.headers, body), None

    async def aclose(self) -> None:
        """Close the idle connections."""
        for conns in self._idle.values():
            for conn in conns:
                conn.close()
        self._idle.clear()

    async def _exchange(self, step: Send) -> WireResponse:
        url = urlsplit(step.url)
        if url.scheme not in ("http", "https") or not url.hostname:
            raise _failed(step, f"unsupported URL scheme {url.scheme!r}")
        port = url.port or (443 if url.scheme == "https" else 80)
        key: _Key = (url.scheme, url.hostname, port)
        host = url.netloc.rpartition("@")[2]
        request = _head(step, host) + step.body
        conn = self._take(key) or await self._connect(key, step)
        try:
            conn.writer.write(request)
            raw = await _bounded(conn.reader.readuntil(b"\r\n\r\n"), step)
            status, headers = _parse_head(raw, step)
        except BaseException:
            conn.close()
            raise
        return WireResponse(self, conn, step, status, headers)

    async def _connect(self, key: _Key, step: Send) -> _Conn:
        scheme, host, port = key
        context = self._context() if scheme == "https" else None
        try:
            async with asyncio.timeout(min(step.timeout, 30.0)):
                reader, writer = await asyncio.open_connection(host, port, ssl=context, limit=_MAX_HEAD)
        except TimeoutError:
            raise RequestTimeoutError(f"upstream {step.upstream!r}: connect timeout") from None
        except (OSError, ssl.SSLError) as exc:
            raise _failed(step, type(exc).__name__) from None
        return _Conn(key, reader, writer)

    def _context(self) -> ssl.SSLContext:
        if self._ssl is None:
            self._ssl = ssl.create_default_context()
        return self._ssl

    def _take(self, key: _Key) -> _Conn | None:
        conns = self._idle.get(key)
        while conns:
            conn = conns.pop()
            if not conn.writer.is_closing() and not conn.reader.at_eof():
                return conn
            conn.close()
        return None

    def _release(self, conn: _Conn) -> None:
        conns = self._idle.setdefault(conn.key, [])
        if len(conns) < self._max_idle and not conn.writer.is_closing():
            conns.append(conn)
        else:
            conn.close()
