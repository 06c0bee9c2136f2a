"""The emulator's background responses, through the ``openai`` SDK over loopback: the same rules
and wording as the gateway's (:mod:`toolwire.store.background`), the ``latency`` fault as the
job's work (so a cancel has something to stop)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import openai
import pytest

from tests._background import assert_background_refusals, until
from toolwire.emulator import EmulatorConfig, serve
from toolwire.emulator.faults import FAULT_HEADER
from toolwire.hop._stored import _error
from toolwire.store.background import NOT_BACKGROUND


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[openai.OpenAI]:
    store = f"sqlite://{tmp_path_factory.mktemp('emulator-bg') / 'state.db'}"
    with serve(config=EmulatorConfig(store=store), log_level="critical") as url:
        yield openai.OpenAI(base_url=f"{url}/v1", api_key="sk-test", max_retries=0)


def test_a_background_response_is_queued_then_completed(client: openai.OpenAI) -> None:
    created = client.responses.create(model="gpt-5", input="hello in the background", background=True)
    assert created.status == "queued" and created.background is True and created.output == []
    done = until(
        lambda: (r := client.responses.retrieve(created.id)).status == "completed" and r, "completed"
    )
    assert done.id == created.id and "hello in the background" in done.output_text
    assert client.responses.cancel(created.id).model_dump() == done.model_dump()
    follow_up = client.responses.create(model="gpt-5", input="next", previous_response_id=done.id)
    assert follow_up.previous_response_id == done.id


def test_a_background_stream_is_replayed(client: openai.OpenAI) -> None:
    events = list(client.responses.create(model="gpt-5", input="stream it", background=True, stream=True))
    assert [e.type for e in events[:3]] == ["response.created", "response.queued", "response.in_progress"]
    assert [e.sequence_number for e in events] == list(range(len(events)))
    assert events[-1].type == "response.completed"
    ident = events[0].response.id  # type: ignore[union-attr]
    assert events[-1].response.id == ident  # type: ignore[union-attr]
    replay = list(client.responses.retrieve(ident, stream=True, starting_after=3))
    assert [e.model_dump() for e in replay] == [e.model_dump() for e in events[4:]]


def test_cancel_stops_the_job(client: openai.OpenAI) -> None:
    slow = {FAULT_HEADER: "latency=1.5"}
    created = client.responses.create(model="gpt-5", input="slowly", background=True, extra_headers=slow)
    assert created.status == "queued"
    assert client.responses.retrieve(created.id).status == "in_progress"
    assert client.responses.cancel(created.id).status == "cancelled"
    time.sleep(2.5)  # past the latency: a job that went on would have kept the answer by now
    kept = client.responses.retrieve(created.id)
    assert kept.status == "cancelled" and kept.output == []


def test_refusals(client: openai.OpenAI) -> None:
    assert_background_refusals(client, "gpt-5")


def test_the_emulator_and_the_gateway_word_refusals_alike() -> None:
    with serve(config=EmulatorConfig(), log_level="critical") as url:
        sdk = openai.OpenAI(base_url=f"{url}/v1", api_key="sk-test", max_retries=0)
        answer = sdk.responses.create(model="gpt-5", input="hi")
        with pytest.raises(openai.BadRequestError) as emulated:
            sdk.responses.cancel(answer.id)
    gateway = _error(400, NOT_BACKGROUND)
    assert emulated.value.body == json.loads(gateway.body)["error"]
