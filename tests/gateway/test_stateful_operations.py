"""The stored-response operations the gateway answers itself in front of a stateless upstream,
through the ASGI app and the Transport, with the ``openai`` SDK: ``store: false`` keeps nothing,
``GET``/``DELETE``/``input_items`` (paginated) answer from the store, and errors are worded as
OpenAI words them."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openai
import pytest

from tests.gateway.shells import ROUTE_MODELS
from tests.gateway.stateful import WEATHER, Recorder, open_gateway
from toolwire.gateway import HopConfig
from toolwire.store import open_store

MODEL = ROUTE_MODELS["anthropic"]


@pytest.fixture(params=("asgi", "transport"))
def gateway(
    request: pytest.FixtureRequest, config: HopConfig, tmp_path: Path
) -> Iterator[tuple[openai.OpenAI, str, Recorder]]:
    """An SDK client on a gateway keeping its state in a SQLite file (also returned), and its
    upstream recorder."""
    url = f"sqlite://{tmp_path / 'state.db'}"
    recorder = Recorder()
    with open_gateway(request.param, config, url, recorder) as client:
        yield client, url, recorder


def _kept(url: str) -> list[str]:
    async def go() -> list[str]:
        store = await open_store(url)
        try:
            return [record.id for record in await store.list_responses(limit=100)]
        finally:
            await store.aclose()

    return asyncio.run(go())


def _chain(client: openai.OpenAI, turns: int) -> list[Any]:
    answers: list[Any] = []
    for n in range(turns):
        extra = {"previous_response_id": answers[-1].id} if answers else {}
        answers.append(client.responses.create(model=MODEL, input=f"message number {n}", **extra))  # type: ignore[arg-type]
    return answers


def test_store_false_keeps_nothing_and_cannot_be_continued(
    gateway: tuple[openai.OpenAI, str, Recorder],
) -> None:
    client, url, recorder = gateway
    answer = client.responses.create(model=MODEL, input="hello there", store=False)
    assert answer.status == "completed" and answer.store is False and "hello there" in answer.output_text
    assert _kept(url) == []
    with pytest.raises(openai.NotFoundError) as missing:
        client.responses.retrieve(answer.id)
    assert missing.value.body == {
        "message": f"Response with id '{answer.id}' not found.",
        "type": "invalid_request_error",
        "param": None,
        "code": None,
    }
    sent = len(recorder.sent)
    with pytest.raises(openai.BadRequestError) as refused:
        client.responses.create(model=MODEL, input="again", previous_response_id=answer.id)
    assert refused.value.code == "previous_response_not_found"
    assert refused.value.body["message"] == f"Previous response with id '{answer.id}' not found."  # type: ignore[index]
    assert refused.value.body["param"] == "previous_response_id"  # type: ignore[index]
    assert len(recorder.sent) == sent  # refused before any upstream call


def test_retrieve_answers_the_response_as_it_was_returned(
    gateway: tuple[openai.OpenAI, str, Recorder],
) -> None:
    client, url, _ = gateway
    first, second = _chain(client, 2)
    assert client.responses.retrieve(second.id).model_dump() == second.model_dump()
    assert client.responses.retrieve(first.id).model_dump() == first.model_dump()
    assert second.previous_response_id == first.id and second.store is True
    assert sorted(_kept(url)) == sorted([first.id, second.id])


def test_delete_removes_the_response_and_its_continuation(
    gateway: tuple[openai.OpenAI, str, Recorder],
) -> None:
    client, url, _ = gateway
    (answer,) = _chain(client, 1)
    reply = client.responses.with_raw_response.delete(answer.id)
    assert reply.http_response.status_code == 200
    assert reply.http_response.json() == {"id": answer.id, "object": "response.deleted", "deleted": True}
    assert _kept(url) == []
    with pytest.raises(openai.NotFoundError):
        client.responses.retrieve(answer.id)
    with pytest.raises(openai.NotFoundError):
        client.responses.delete(answer.id)
    with pytest.raises(openai.BadRequestError) as refused:
        client.responses.create(model=MODEL, input="more", previous_response_id=answer.id)
    assert refused.value.code == "previous_response_not_found"


def test_input_items_lists_the_whole_resolved_input_page_by_page(
    gateway: tuple[openai.OpenAI, str, Recorder],
) -> None:
    client, _, _ = gateway
    answers = _chain(client, 4)
    every = list(client.responses.input_items.list(answers[-1].id, limit=2, order="asc"))
    # the resolved input: each earlier turn's message and answer, then this turn's message
    kinds = [(item.type, getattr(item, "role", None)) for item in every]
    assert kinds == [("message", "user"), ("message", "assistant")] * 3 + [("message", "user")]
    users = [item.content[0].text for item in every if item.role == "user"]  # type: ignore[union-attr]
    assert users == [f"message number {n}" for n in range(4)]
    assert len({item.id for item in every}) == 7
    first = client.responses.input_items.list(answers[-1].id, limit=3)  # default order: newest first
    assert [item.id for item in first.data] == [item.id for item in reversed(every)][:3]
    assert (
        first.has_more is True and first.first_id == first.data[0].id and first.last_id == first.data[-1].id
    )
    rest = client.responses.input_items.list(answers[-1].id, limit=100, after=first.last_id)
    assert [item.id for item in rest.data] == [item.id for item in reversed(every)][3:]
    assert rest.has_more is False


@pytest.mark.parametrize(
    ("query", "param", "message"),
    [
        ({"limit": 0}, "limit", "Invalid 'limit': expected an integer from 1 to 100, got '0'."),
        ({"limit": 101}, "limit", "Invalid 'limit': expected an integer from 1 to 100, got '101'."),
        ({"order": "up"}, "order", "Invalid 'order': expected 'asc' or 'desc', got 'up'."),
    ],
)
def test_a_bad_page_query_is_a_400_naming_the_parameter(
    gateway: tuple[openai.OpenAI, str, Recorder], query: dict[str, Any], param: str, message: str
) -> None:
    client, _, _ = gateway
    (answer,) = _chain(client, 1)
    with pytest.raises(openai.BadRequestError) as refused:
        client.responses.input_items.list(answer.id, **query)
    assert refused.value.body == {
        "message": message,
        "type": "invalid_request_error",
        "param": param,
        "code": None,
    }


def test_unknown_ids_are_worded_as_openai_words_them(gateway: tuple[openai.OpenAI, str, Recorder]) -> None:
    client, _, recorder = gateway
    unknown = "resp_0123456789abcdef"
    for call in (client.responses.retrieve, client.responses.delete, client.responses.input_items.list):
        with pytest.raises(openai.NotFoundError) as missing:
            call(unknown)
        assert missing.value.body["message"] == f"Response with id '{unknown}' not found."  # type: ignore[index]
    with pytest.raises(openai.BadRequestError) as refused:
        client.responses.create(model=MODEL, input="hi", previous_response_id=unknown, tools=[WEATHER])  # type: ignore[list-item]
    assert refused.value.status_code == 400 and refused.value.code == "previous_response_not_found"
    assert recorder.sent == []
