"""``background: true`` through the real gateway over loopback, the ``openai`` SDK as the client,
in front of emulator upstreams of each stateless format: create returns at once (``queued``), a
poll sees the job's result, ``cancel`` stops a running job, and a background stream is replayed
from a sequence number with ``retrieve(stream=True, starting_after=N)``."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest

from tests._background import assert_background_refusals, until
from tests.gateway.shells import ENV, FAULTY_MODEL, GATEWAY_KEY, ROUTE_MODELS
from toolwire.emulator import serve
from toolwire.emulator.faults import FAULT_HEADER
from toolwire.gateway import HopConfig, Route, Transport, Upstream, create_app

STATELESS = ("anthropic", "gemini", "openai-chat")
TRUNCATED = "to-truncated"
"""Routes to an Anthropic upstream whose streams end without their terminal event."""
SLOW = "to-slow"
"""Routes to an Anthropic upstream that answers after 30 seconds (the emulator's fault header)."""


@dataclasses.dataclass
class Gateway:
    client: openai.OpenAI
    url: str

    def jobs(self) -> int:
        """The gateway's ``toolwire_gateway_background_jobs`` gauge (``/metrics``)."""
        text = httpx.get(f"{self.url}/metrics", timeout=30).text
        return int(
            next(
                ln for ln in text.splitlines() if ln.startswith("toolwire_gateway_background_jobs ")
            ).split()[1]
        )


def _slow(config: HopConfig) -> HopConfig:
    base = config.upstreams["anthropic"].base_url
    slow = Upstream("slow", "anthropic", base, "UPSTREAM_KEY", {FAULT_HEADER: "latency=30"})
    cut = Upstream("truncated", "anthropic", base, "UPSTREAM_KEY", {FAULT_HEADER: "drop-terminal"})
    routes = (Route(SLOW, "slow", "claude-sonnet-4-5"), Route(TRUNCATED, "truncated", "claude-sonnet-4-5"))
    return dataclasses.replace(
        config, upstreams={**config.upstreams, "slow": slow, "truncated": cut}, routes=routes + config.routes
    )


@pytest.fixture(scope="module")
def gateway(config: HopConfig, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    """The ASGI gateway on loopback keeping its state in a SQLite file."""
    store = f"sqlite://{tmp_path_factory.mktemp('background') / 'state.db'}"
    app = create_app(dataclasses.replace(_slow(config), store=store), env=ENV)
    with serve(app=app, log_level="critical") as url, httpx.Client(timeout=60) as http:
        client = openai.OpenAI(base_url=f"{url}/v1", api_key=GATEWAY_KEY, max_retries=0, http_client=http)
        yield Gateway(client, url)


def _finished(client: openai.OpenAI, ident: str) -> Any:
    return until(
        lambda: (r := client.responses.retrieve(ident)).status not in ("queued", "in_progress") and r,
        f"{ident} finished",
    )


@pytest.mark.parametrize("upstream", STATELESS)
def test_a_background_response_is_queued_then_polled_to_completion(gateway: Gateway, upstream: str) -> None:
    client = gateway.client
    created = client.responses.create(
        model=ROUTE_MODELS[upstream], input="background hello", background=True, metadata={"k": "v"}
    )
    assert created.status in ("queued", "in_progress") and created.background is True
    assert created.output == [] and created.id.startswith("resp_") and created.metadata == {"k": "v"}
    done = _finished(client, created.id)
    assert done.status == "completed" and done.id == created.id and done.background is True
    assert "background hello" in done.output_text
    assert done.usage is not None and done.usage.output_tokens > 0
    # a finished background response continues like any other, and cancelling it changes nothing
    follow_up = client.responses.create(
        model=ROUTE_MODELS[upstream], input="and again", previous_response_id=done.id
    )
    assert follow_up.previous_response_id == done.id and "and again" in follow_up.output_text
    items = client.responses.input_items.list(follow_up.id, order="asc")
    assert [i.content[0].text for i in items.data if i.type == "message" and i.role == "user"] == [  # type: ignore[union-attr]
        "background hello",
        "and again",
    ]
    assert client.responses.cancel(done.id).model_dump() == done.model_dump()


@pytest.mark.parametrize("upstream", STATELESS)
def test_a_background_stream_is_replayed_from_a_sequence_number(gateway: Gateway, upstream: str) -> None:
    client = gateway.client
    stream = client.responses.create(
        model=ROUTE_MODELS[upstream], input="streamed in the background", background=True, stream=True
    )
    events = list(stream)
    assert [e.type for e in events[:3]] == ["response.created", "response.queued", "response.in_progress"]
    assert events[0].response.status == "queued" and events[0].response.background is True  # type: ignore[union-attr]
    assert events[-1].type == "response.completed"
    assert [e.sequence_number for e in events] == list(range(len(events)))
    ident = events[0].response.id  # type: ignore[union-attr]
    final = events[-1].response  # type: ignore[union-attr]
    assert final.id == ident and "streamed in the background" in final.output_text
    assert client.responses.retrieve(ident).model_dump() == final.model_dump()
    for after in (2, len(events) - 2):
        replay = list(client.responses.retrieve(ident, stream=True, starting_after=after))
        assert [e.model_dump() for e in replay] == [e.model_dump() for e in events[after + 1 :]]
    assert [e.model_dump() for e in client.responses.retrieve(ident, stream=True)] == [
        e.model_dump() for e in events
    ]


def test_cancel_stops_a_running_background_response(gateway: Gateway) -> None:
    client = gateway.client
    created = client.responses.create(model=SLOW, input="take your time", background=True)
    until(lambda: client.responses.retrieve(created.id).status == "in_progress", "in progress")
    assert gateway.jobs() >= 1
    cancelled = client.responses.cancel(created.id)
    assert cancelled.id == created.id and cancelled.status == "cancelled" and cancelled.background is True
    until(lambda: gateway.jobs() == 0, "the job stopped (its upstream call answers in 30 s)")
    assert client.responses.retrieve(created.id).status == "cancelled"
    assert client.responses.cancel(created.id).status == "cancelled"  # idempotent


def test_cancel_ends_a_background_stream(gateway: Gateway) -> None:
    client = gateway.client
    with client.responses.create(model=SLOW, input="stream slowly", background=True, stream=True) as stream:
        events = iter(stream)
        first, second = next(events), next(events)
        assert (first.type, second.type) == ("response.created", "response.queued")
        ident = first.response.id  # type: ignore[union-attr]
        assert client.responses.cancel(ident).status == "cancelled"
        assert list(events) == []  # the stream ends once the job has stopped
    assert client.responses.retrieve(ident).status == "cancelled"
    replay = list(client.responses.retrieve(ident, stream=True, starting_after=0))
    assert [e.type for e in replay] == ["response.queued"]


def test_an_upstream_error_fails_the_background_response(gateway: Gateway) -> None:
    client = gateway.client
    created = client.responses.create(model=FAULTY_MODEL, input="hello", background=True)
    assert created.status == "queued"
    failed = _finished(client, created.id)
    assert failed.status == "failed" and failed.error is not None
    assert failed.error.code == "rate_limit_exceeded" and failed.error.message, failed.error
    events = list(client.responses.create(model=FAULTY_MODEL, input="hello", background=True, stream=True))
    assert [e.type for e in events] == ["response.created", "response.queued", "response.failed"]
    assert events[-1].response.error.code == "rate_limit_exceeded"  # type: ignore[union-attr]


def test_an_upstream_stream_cut_short_fails_the_background_response(gateway: Gateway) -> None:
    client = gateway.client
    events = list(client.responses.create(model=TRUNCATED, input="cut", background=True, stream=True))
    assert [e.type for e in events[-2:]] == ["error", "response.failed"]
    assert [e.sequence_number for e in events] == list(range(len(events)))
    failed = client.responses.retrieve(events[0].response.id)  # type: ignore[union-attr]
    assert failed.status == "failed" and failed.error is not None
    assert failed.error.message == "stream ended without message_stop"  # the relay's words
    assert events[-1].response.model_dump() == failed.model_dump()  # type: ignore[union-attr]


def test_background_refusals_are_worded_as_the_api_words_them(gateway: Gateway) -> None:
    assert_background_refusals(gateway.client, ROUTE_MODELS["anthropic"])


def test_the_transport_refuses_background_clearly(config: HopConfig, tmp_path: Path) -> None:
    store = f"sqlite://{tmp_path / 'state.db'}"
    transport = Transport(dataclasses.replace(config, store=store), env=ENV)
    try:
        with httpx.Client(transport=transport, timeout=30) as http:
            client = openai.OpenAI(
                base_url="http://gateway.invalid/v1", api_key=GATEWAY_KEY, max_retries=0, http_client=http
            )
            with pytest.raises(openai.BadRequestError) as refused:
                client.responses.create(model=ROUTE_MODELS["gemini"], input="hi", background=True)
    finally:
        transport.close()
    assert refused.value.body["param"] == "background"  # type: ignore[index]
    assert "toolwire serve" in refused.value.body["message"]  # type: ignore[index]


def test_deleting_a_running_background_response_stops_it(gateway: Gateway) -> None:
    client = gateway.client
    created = client.responses.create(model=SLOW, input="never mind", background=True)
    until(lambda: client.responses.retrieve(created.id).status == "in_progress", "in progress")
    client.responses.delete(created.id)
    until(lambda: gateway.jobs() == 0, "the job stopped (its upstream call answers in 30 s)")
    with pytest.raises(openai.NotFoundError):
        client.responses.retrieve(created.id)
