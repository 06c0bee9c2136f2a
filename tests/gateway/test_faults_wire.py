"""The ASGI gateway's own upstream client against answers a provider's front end may really send.

:class:`~toolwire.gateway._wire.Dechunker` is fed whole, byte by byte and split at random;
:class:`~toolwire.gateway._wire.UpstreamPool` talks to raw asyncio servers on loopback that
answer with chunked trailers, an HTTP/1.0 body ended by the close, a body cut short, a garbage
head, silence, or close an idle keep-alive connection.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable

import pytest

from tests.gateway._faultkit import watchdog
from toolwire.errors import ConnectionFailedError, RequestTimeoutError
from toolwire.gateway._wire import Dechunker, UpstreamPool
from toolwire.hop.core import Send

__all__ = ["watchdog"]

PAYLOADS = [b"event: a\ndata: {}\n\n", b"x" * 70_000, b"\r\n\r\n", b"tail"]
WIRE = b"".join(b"%x;ext=1\r\n%s\r\n" % (len(p), p) for p in PAYLOADS) + b"0\r\nx-trailer: 1\r\n\r\n"


def _feed(pieces: list[bytes]) -> tuple[bytes, Dechunker]:
    decoder = Dechunker()
    return b"".join(decoder.feed(piece) for piece in pieces), decoder


def test_a_chunked_body_decodes_whole_bytewise_and_split_anywhere() -> None:
    rng = random.Random(5)
    splits = [[WIRE], [WIRE[i : i + 1] for i in range(len(WIRE))]]
    for _ in range(50):
        cuts = sorted(rng.sample(range(1, len(WIRE)), 8))
        splits.append([WIRE[a:b] for a, b in zip([0, *cuts], [*cuts, len(WIRE)], strict=True)])
    for pieces in splits:
        out, decoder = _feed(pieces)
        assert out == b"".join(PAYLOADS)
        assert decoder.done and not decoder.extra


def test_a_partial_chunked_body_is_not_done() -> None:
    out, decoder = _feed([WIRE[:-3]])
    assert out == b"".join(PAYLOADS) and not decoder.done


@pytest.mark.parametrize("wire", [b"zz\r\n", b"3\r\nabcXY", b"-1\r\n", b"1" * 5000])
def test_bad_chunk_framing_is_a_value_error(wire: bytes) -> None:
    with pytest.raises(ValueError):
        Dechunker().feed(wire)


Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


async def _with_server(handler: Handler, body: Callable[[str], Awaitable[None]]) -> None:
    server = await asyncio.start_server(handler, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        await body(f"http://127.0.0.1:{port}")
    finally:
        server.close()


def _step(url: str, *, stream: bool = False, timeout: float = 5.0) -> Send:
    return Send("POST", url + "/v1/messages", {"x-api-key": "k"}, b"{}", stream, timeout, "up")


async def _read_request(reader: asyncio.StreamReader) -> bytes:
    head = await reader.readuntil(b"\r\n\r\n")
    length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
    await reader.readexactly(length)
    return head


def test_chunked_with_trailers_then_the_connection_is_reused() -> None:
    connections: list[int] = []

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append(1)
        for _ in range(2):
            await _read_request(reader)
            writer.write(
                b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\nX-Dup: a\r\nx-dup: b\r\n\r\n" + WIRE
            )
        await writer.drain()

    async def body(url: str) -> None:
        pool = UpstreamPool()
        for _ in range(2):
            received, opened = await pool.send(_step(url))
            assert (received.status, received.body, opened) == (200, b"".join(PAYLOADS), None)
            assert received.headers["x-dup"] == "a, b"
        assert len(connections) == 1
        await pool.aclose()

    asyncio.run(_with_server(handler, body))


def test_an_http_1_0_body_ends_with_the_connection() -> None:
    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _read_request(reader)
        writer.write(b'HTTP/1.0 200 OK\r\ncontent-type: application/json\r\n\r\n{"ok": true}')
        await writer.drain()
        writer.close()

    async def body(url: str) -> None:
        received, _ = await UpstreamPool().send(_step(url))
        assert (received.status, received.body) == (200, b'{"ok": true}')

    asyncio.run(_with_server(handler, body))


@pytest.mark.parametrize(
    "answer",
    [
        b"HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nshort",
        b"garbage\r\n\r\n",
        b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n",
        b"HTTP/1.1 200 OK\r\ncontent-length: -4\r\n\r\n",
        b"",
    ],
    ids=["cut-short", "garbage-head", "bad-chunk", "bad-length", "closed"],
)
def test_a_broken_answer_is_a_connection_failure_naming_the_upstream(answer: bytes) -> None:
    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _read_request(reader)
        writer.write(answer)
        await writer.drain()
        writer.close()

    async def body(url: str) -> None:
        with pytest.raises(ConnectionFailedError, match="upstream 'up'"):
            await UpstreamPool().send(_step(url))

    asyncio.run(_with_server(handler, body))


def test_silence_is_a_timeout_and_a_stalled_stream_too() -> None:
    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await _read_request(reader)
        if b"stream" in head:
            writer.write(b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n")
            await writer.drain()
        await asyncio.sleep(10)

    async def body(url: str) -> None:
        pool = UpstreamPool()
        with pytest.raises(RequestTimeoutError):
            await pool.send(_step(url, timeout=0.3))
        step = Send("POST", url + "/stream", {}, b"{}", True, 0.3, "up")
        received, opened = await pool.send(step)
        assert received.status == 200 and opened is not None
        chunks = []
        with pytest.raises(RequestTimeoutError):
            async for chunk in opened.aiter_bytes():
                chunks.append(chunk)
        assert chunks == [b"hello"]

    asyncio.run(_with_server(handler, body))


def test_an_idle_connection_the_server_closed_is_not_reused() -> None:
    count = 0

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal count
        count += 1
        await _read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok")
        await writer.drain()
        writer.close()  # keep-alive promised, then closed while idle

    async def body(url: str) -> None:
        pool = UpstreamPool()
        for _ in range(3):
            received, _ = await pool.send(_step(url))
            assert received.body == b"ok"
            await asyncio.sleep(0.05)
        assert count == 3

    asyncio.run(_with_server(handler, body))
