"""ClientCore's attempt flows driven by hand (sans-IO): fake answers in, steps and errors out.

``Client`` and ``AsyncClient`` only perform these steps on httpx; the policy (send, refresh once on
401, map a non-2xx, read a stream to its first event) is pinned here, once for both.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Generator
from typing import Any

import anyio
import pytest

from toolwire.client import AsyncClient, Client, StreamIdleTimeoutError, Timeouts
from toolwire.client._bodies import MAX_ERROR_BODY
from toolwire.client._core import Call, ClientCore
from toolwire.client._steps import (
    FETCH_TOKEN,
    READ_CHUNK,
    REFRESH_KEY,
    Answer,
    Opened,
    ReadBody,
    Send,
    Step,
)
from toolwire.errors import AuthenticationError, OverloadedError, RateLimitError, ServerError
from toolwire.ir.stream import TextDelta

CHAT = {"model": "gpt-4o", "messages": [{"role": "user", "content": "Hi"}]}
JSON = {"content-type": "application/json"}
SSE = {"content-type": "text/event-stream"}
OK_BODY = (
    b'{"id": "c1", "object": "chat.completion", "created": 1, "model": "gpt-4o", "choices": [{"index": 0,'
    b' "message": {"role": "assistant", "content": "Hello"}, "finish_reason": "stop"}]}'
)


def _error_body(message: str) -> bytes:
    return b'{"error": {"message": "%s", "type": "server_error", "code": null}}' % message.encode()


def _core(**kw: Any) -> ClientCore:
    return ClientCore("openai-chat", base_url="https://api.test/v1", api_key="old-key", env={}, **kw)


def _send(steps: Generator[Step, Any, Any], value: Any) -> Step:
    return steps.send(value)


def _finish(steps: Generator[Step, Any, Any], value: Any) -> Any:
    with pytest.raises(StopIteration) as stop:
        steps.send(value)
    return stop.value.value


def test_a_401_then_200_refreshes_the_key_once_and_resends() -> None:
    core = _core()
    call = core.prepare(CHAT, stream=False)
    steps = core.create_steps(call, refresh=True)
    first = next(steps)
    assert isinstance(first, Send)
    assert (first.method, first.url, first.stream) == ("POST", "https://api.test/v1/chat/completions", False)
    assert first.headers["authorization"] == "Bearer old-key"
    assert first.content == core.content(call)
    assert _send(steps, Answer(401, JSON)) is REFRESH_KEY
    again = _send(steps, "new-key")
    assert isinstance(again, Send)
    assert again.headers["authorization"] == "Bearer new-key"
    assert (again.url, again.content) == (first.url, first.content)
    read = _send(steps, Answer(200, JSON))
    assert read == ReadBody(read.deadline, error=False) and read.limit is None
    result = _finish(steps, OK_BODY)
    assert result.response.text == "Hello"
    assert (result.attempts, call.attempts, call.refreshed, core.api_key) == (1, 1, True, "new-key")


def test_a_refresh_hook_answering_none_keeps_the_key() -> None:
    core = _core()
    steps = core.attempt_steps(core.prepare(CHAT, stream=False), None, refresh=True)
    next(steps)
    assert _send(steps, Answer(401, JSON)) is REFRESH_KEY
    again = _send(steps, None)
    assert isinstance(again, Send) and again.headers["authorization"] == "Bearer old-key"


def test_a_500_reads_a_capped_error_body_and_raises_the_server_error() -> None:
    core = _core()
    call = core.prepare(CHAT, stream=False)
    steps = core.create_steps(call, refresh=True)
    next(steps)
    read = _send(steps, Answer(500, {**JSON, "x-request-id": "req-9"}))
    assert isinstance(read, ReadBody) and read.error and read.limit == MAX_ERROR_BODY
    with pytest.raises(ServerError) as info:
        steps.send(_error_body("upstream broke"))
    assert (info.value.status, info.value.request_id) == (500, "req-9")
    assert "upstream broke" in str(info.value)
    assert (call.attempts, call.refreshed) == (1, False)


def test_a_429_carries_the_servers_retry_hint() -> None:
    core = _core()
    steps = core.create_steps(core.prepare(CHAT, stream=False), refresh=False)
    next(steps)
    assert isinstance(_send(steps, Answer(429, {**JSON, "retry-after": "7"})), ReadBody)
    with pytest.raises(RateLimitError) as info:
        steps.send(_error_body("slow down"))
    assert info.value.retry_after == 7.0


def test_a_2xx_other_than_200_is_an_answer_and_a_3xx_is_an_error() -> None:
    core = _core()
    steps = core.attempt_steps(core.prepare(CHAT, stream=False), None, refresh=False)
    next(steps)
    assert _finish(steps, Answer(299, JSON)) == Answer(299, JSON)
    steps = core.attempt_steps(core.prepare(CHAT, stream=False), None, refresh=False)
    next(steps)
    assert _send(steps, Answer(300, JSON)) == ReadBody(None, error=True)


def test_a_second_401_is_not_refreshed_again() -> None:
    core = _core()
    call = core.prepare(CHAT, stream=False)
    steps = core.create_steps(call, refresh=True)
    next(steps)
    assert _send(steps, Answer(401, JSON)) is REFRESH_KEY
    assert isinstance(_send(steps, "new-key"), Send)
    assert isinstance(_send(steps, Answer(401, JSON)), ReadBody)
    with pytest.raises(AuthenticationError):
        steps.send(_error_body("still bad"))
    retry = core.create_steps(call, refresh=True)  # the next attempt of the same call: no refresh
    next(retry)
    assert isinstance(_send(retry, Answer(401, JSON)), ReadBody)
    assert call.attempts == 2


def test_without_a_refresh_hook_a_401_is_raised_at_once() -> None:
    core = _core()
    call = core.prepare(CHAT, stream=False)
    steps = core.create_steps(call, refresh=False)
    next(steps)
    assert isinstance(_send(steps, Answer(401, JSON)), ReadBody)
    with pytest.raises(AuthenticationError):
        steps.send(b"")
    assert not call.refreshed


def test_a_stream_reads_chunks_until_its_first_event() -> None:
    core = _core()
    call = core.prepare(CHAT, stream=True)
    steps = core.open_steps(call, refresh=True)
    send = next(steps)
    assert isinstance(send, Send) and send.stream
    assert _send(steps, Answer(200, SSE)) is READ_CHUNK
    assert _send(steps, b": keep-alive\n\n") is READ_CHUNK  # no event yet: read on
    chunk = (
        b'data: {"id": "c1", "choices": [{"index": 0, "delta": {"role": "assistant", "content": "He"}}]}\n\n'
    )
    opened = _finish(steps, chunk)
    assert isinstance(opened, Opened)
    assert [e.text for e in opened.first if isinstance(e, TextDelta)] == ["He"]
    assert not opened.session.finished and opened.on_end is None
    assert call.attempts == 1


def test_chunks_without_an_event_beyond_the_idle_limit_end_the_stream() -> None:
    core = _core(timeouts=Timeouts(idle=0.005))
    steps = core.open_steps(core.prepare(CHAT, stream=True), refresh=False)
    next(steps)
    assert _send(steps, Answer(200, SSE)) is READ_CHUNK
    time.sleep(0.02)
    with pytest.raises(StreamIdleTimeoutError):
        steps.send(b": keep-alive\n\n")


def test_a_stream_answering_an_error_status_raises_before_reading_chunks() -> None:
    core = _core()
    steps = core.open_steps(core.prepare(CHAT, stream=True), refresh=False)
    next(steps)
    assert isinstance(_send(steps, Answer(503, JSON)), ReadBody)
    with pytest.raises(OverloadedError):
        steps.send(_error_body("overloaded"))


class _Tokens:
    """A token source whose held token is ``held`` (``None``: expired) and whose refresh gives ``fresh``."""

    def __init__(self, held: str | None, fresh: str) -> None:
        self.held, self.fresh = held, fresh

    def token(self) -> str:
        return self.fresh

    def current(self) -> str | None:
        return self.held


def _vertex(tokens: _Tokens) -> tuple[ClientCore, Call]:
    core = ClientCore("vertex-gemini", model="gemini-2.5-pro", project="p", credentials=tokens, env={})
    return core, core.prepare({"contents": [{"role": "user", "parts": [{"text": "Hi"}]}]}, stream=False)


def test_an_expired_token_is_fetched_by_the_driver_before_the_send() -> None:
    core, call = _vertex(_Tokens(None, "fresh-token"))
    steps = core.attempt_steps(call, None, refresh=False)
    assert next(steps) is FETCH_TOKEN
    core.refresh_token()  # what the driver does (the async one in a thread)
    send = _send(steps, None)
    assert isinstance(send, Send) and send.headers["authorization"] == "Bearer fresh-token"


def test_a_valid_token_is_used_without_a_fetch_step() -> None:
    core, call = _vertex(_Tokens("held-token", "fresh-token"))
    send = next(core.attempt_steps(call, None, refresh=False))
    assert isinstance(send, Send) and send.headers["authorization"] == "Bearer held-token"


def test_a_send_step_keeps_credentials_out_of_its_repr() -> None:
    send = next(_core().create_steps(_core().prepare(CHAT, stream=False), refresh=False))
    assert repr(send) == "Send(POST https://api.test/v1/chat/completions, stream=False)"


CLIENT_KEYWORDS = [
    "provider",
    "base_url",
    "api_key",
    "model",
    "options",
    "headers",
    "timeouts",
    "retry",
    "policy",
    "validate",
    "auth_refresh",
    "sleep",
    "rng",
    "http_client",
    "observer",
    "project",
    "location",
    "credentials",
]
DRIVER_TYPED = {"auth_refresh", "sleep", "http_client"}  # a blocking or an async callable / httpx client


def test_the_client_twins_take_the_same_keywords_with_the_same_defaults() -> None:
    sync = inspect.signature(Client).parameters
    both = inspect.signature(AsyncClient).parameters
    assert list(sync) == list(both) == CLIENT_KEYWORDS
    for name, param in sync.items():
        twin = both[name]
        assert param.kind == twin.kind, name
        if name != "sleep":
            assert param.default == twin.default, name
        if name not in DRIVER_TYPED:
            assert param.annotation == twin.annotation, name
    assert (sync["sleep"].default, both["sleep"].default) == (time.sleep, anyio.sleep)
    assert sync["provider"].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    assert {p.kind for n, p in sync.items() if n != "provider"} == {inspect.Parameter.KEYWORD_ONLY}


def test_the_clients_forward_every_core_keyword_unchanged() -> None:
    core = {n: p for n, p in inspect.signature(ClientCore).parameters.items() if n != "env"}
    sync = inspect.signature(Client).parameters
    assert [n for n in sync if n in core] == list(core)
    assert set(sync) - set(core) == {"auth_refresh", "sleep", "rng", "http_client"}
    for name, param in core.items():
        assert (sync[name].default, sync[name].annotation) == (param.default, param.annotation), name
