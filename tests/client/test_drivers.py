"""The two drivers of ClientCore's steps, over an in-memory httpx transport: what each step does
to the answer in hand (read, close, map a failure), the same for :class:`Client` and
:class:`AsyncClient`."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import anyio
import httpx
import pytest

from toolwire.client import AsyncClient, Client, ConnectionFailedError, RetryPolicy
from toolwire.errors import ServerError

KEY = "sk-driver-secret-0123456789"
CHAT = {"model": "gpt-4o", "messages": [{"role": "user", "content": "Hi"}]}
OK = (
    b'{"id": "c1", "object": "chat.completion", "created": 1, "model": "gpt-4o", "choices": [{"index": 0,'
    b' "message": {"role": "assistant", "content": "Hello"}, "finish_reason": "stop"}]}'
)
MODES = ("sync", "async")


class Body(httpx.SyncByteStream, httpx.AsyncByteStream):
    """A response body: ``chunks``, then a read failure naming the key when ``fail``; it records
    into ``log`` when it is closed."""

    def __init__(self, log: list[str], chunks: list[bytes], *, fail: bool = False) -> None:
        self.log, self.chunks, self.fail = log, chunks, fail

    def __iter__(self) -> Iterator[bytes]:
        yield from self.chunks
        if self.fail:
            raise httpx.ReadError(f"connection reset while sending {KEY}")

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self:
            yield chunk

    def close(self) -> None:
        self.log.append("closed")

    async def aclose(self) -> None:
        self.close()


Answers = list[tuple[int, Body]]


def _call(mode: str, answers: Answers, method: str, **kw: Any) -> Any:
    """Call ``method`` (``create`` or ``stream``) once, the server answering ``answers`` in turn."""
    pending = list(answers)

    def handler(request: httpx.Request) -> httpx.Response:
        status, body = pending.pop(0)
        return httpx.Response(status, headers={"content-type": "application/json"}, stream=body)

    options: dict[str, Any] = {"base_url": "https://api.test/v1", "api_key": KEY, **kw}
    options["retry"] = RetryPolicy(max_attempts=1)
    if mode == "sync":
        http = httpx.Client(transport=httpx.MockTransport(handler))
        with Client("openai-chat", http_client=http, **options) as c:
            return getattr(c, method)(CHAT)

    async def run() -> Any:
        http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
        async with AsyncClient("openai-chat", http_client=http, **options) as c:
            return await getattr(c, method)(CHAT)

    return anyio.run(run)


@pytest.mark.parametrize("mode", MODES)
def test_an_error_body_that_fails_to_read_still_raises_the_status_error(mode: str) -> None:
    log: list[str] = []
    with pytest.raises(ServerError) as info:
        _call(mode, [(500, Body(log, [b'{"error": {"mess'], fail=True))], "create")
    assert info.value.status == 500 and log == ["closed"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("method", ["create", "stream"])
def test_a_body_that_fails_to_read_is_a_transport_error_without_the_key(mode: str, method: str) -> None:
    log: list[str] = []
    with pytest.raises(ConnectionFailedError) as info:
        _call(mode, [(200, Body(log, [b"data: {"], fail=True))], method)
    assert KEY not in str(info.value) and info.value.__cause__ is None
    assert "ReadError" in str(info.value) and log[-1:] == ["closed"]


@pytest.mark.parametrize("mode", MODES)
def test_a_401_is_closed_before_the_refresh_hook_runs_and_the_call_is_sent_again(mode: str) -> None:
    log: list[str] = []

    def refresh() -> str:
        log.append("refresh")
        return KEY + "-new"

    answers = [(401, Body(log, [b"{}"])), (200, Body(log, [OK]))]
    result = _call(mode, answers, "create", auth_refresh=refresh)
    assert result.response.text == "Hello" and result.attempts == 1
    assert log == ["closed", "refresh", "closed"]


@pytest.mark.parametrize("mode", MODES)
def test_a_stream_ending_before_its_first_event_is_closed(mode: str) -> None:
    log: list[str] = []
    with pytest.raises(ConnectionFailedError, match="stream ended early"):
        _call(mode, [(200, Body(log, [b": ping\n\n"]))], "stream")
    assert log == ["closed"]
