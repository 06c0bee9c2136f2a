"""Conversations in front of a stateless upstream, through the ASGI app and the Transport with the
``openai`` SDK: the Conversations API answered from the store, and ``conversation`` on
``/v1/responses`` sending the conversation's items upstream and appending each turn's items."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openai
import pytest

from tests.gateway.shells import ROUTE_MODELS
from tests.gateway.stateful import WEATHER, Recorder, open_gateway
from toolwire.gateway import HopConfig

MODEL = ROUTE_MODELS["anthropic"]


@pytest.fixture(params=("asgi", "transport"))
def gateway(
    request: pytest.FixtureRequest, config: HopConfig, tmp_path: Path
) -> Iterator[tuple[openai.OpenAI, Recorder]]:
    recorder = Recorder()
    with open_gateway(request.param, config, f"sqlite://{tmp_path / 'state.db'}", recorder) as client:
        yield client, recorder


def _texts(items: list[Any]) -> list[tuple[str, str]]:
    return [(item.role, item.content[0].text) for item in items if item.type == "message"]


def test_the_conversations_api_keeps_and_pages_items(gateway: tuple[openai.OpenAI, Recorder]) -> None:
    client, recorder = gateway
    made = client.conversations.create(
        items=[{"role": "user", "content": "first"}], metadata={"topic": "demo"}
    )
    assert (
        made.id.startswith("conv_") and made.object == "conversation" and made.metadata == {"topic": "demo"}
    )
    assert client.conversations.retrieve(made.id).model_dump() == made.model_dump()
    added = client.conversations.items.create(
        made.id, items=[{"role": "assistant", "content": "second"}, {"role": "user", "content": "third"}]
    )
    assert _texts(added.data) == [("assistant", "second"), ("user", "third")]
    every = list(client.conversations.items.list(made.id, limit=2, order="asc"))
    assert _texts(every) == [("user", "first"), ("assistant", "second"), ("user", "third")]
    newest = client.conversations.items.list(made.id, limit=1)  # default order: newest first
    assert _texts(newest.data) == [("user", "third")] and newest.has_more is True
    one = client.conversations.items.retrieve(every[1].id, conversation_id=made.id)
    assert one.model_dump() == every[1].model_dump()
    with pytest.raises(openai.NotFoundError) as missing_item:
        client.conversations.items.retrieve("msg_nope", conversation_id=made.id)
    assert missing_item.value.body["message"] == "Item with id 'msg_nope' not found."  # type: ignore[index]
    deleted = client.conversations.delete(made.id)
    assert (deleted.id, deleted.object, deleted.deleted) == (made.id, "conversation.deleted", True)
    for call in (client.conversations.retrieve, client.conversations.delete, client.conversations.items.list):
        with pytest.raises(openai.NotFoundError) as missing:
            call(made.id)
        assert missing.value.body["message"] == f"Conversation with id '{made.id}' not found."  # type: ignore[index]
    assert recorder.sent == []  # all answered from the store


def test_responses_in_a_conversation_send_its_items_and_append_theirs(
    gateway: tuple[openai.OpenAI, Recorder],
) -> None:
    client, recorder = gateway
    conv = client.conversations.create(items=[{"role": "user", "content": "My name is Ada."}])
    first = client.responses.create(
        model=MODEL,
        input="What is the weather in Paris?",
        tools=[WEATHER],
        conversation=conv.id,  # type: ignore[list-item]
    )
    call = next(item for item in first.output if item.type == "function_call")
    assert first.conversation is not None and first.conversation.id == conv.id
    with client.responses.stream(
        model=MODEL,
        input=[{"type": "function_call_output", "call_id": call.call_id, "output": '{"temp": 21}'}],
        tools=[WEATHER],  # type: ignore[list-item]
        conversation={"id": conv.id},
    ) as events:
        for _ in events:
            pass
        second = events.get_final_response()
    assert '{"temp": 21}' in second.output_text
    kinds = [item.type for item in client.conversations.items.list(conv.id, order="asc", limit=100)]
    assert kinds == ["message", "message", "function_call", "function_call_output", "message"]
    # the upstream got the conversation's items, then the new input, each time
    first_sent, second_sent = (json.dumps(sent.body["messages"]) for sent in recorder.sent)
    assert "My name is Ada." in first_sent and "My name is Ada." in second_sent
    assert call.call_id in second_sent and "Paris" in second_sent
    with pytest.raises(openai.BadRequestError) as both:
        client.responses.create(model=MODEL, input="hi", conversation=conv.id, previous_response_id=first.id)
    assert both.value.body["param"] == "conversation"  # type: ignore[index]
    with pytest.raises(openai.NotFoundError) as unknown:
        client.responses.create(model=MODEL, input="hi", conversation="conv_unknown")
    assert unknown.value.body["message"] == "Conversation with id 'conv_unknown' not found."  # type: ignore[index]
    assert len(recorder.sent) == 2


def test_in_front_of_a_responses_api_the_conversations_routes_are_forwarded(emulator_url: str) -> None:
    """The upstream keeps its own state: the request goes to it as it came, its answer comes back
    (the emulator's Conversations API answers from its own store)."""
    recorder = Recorder()
    config = HopConfig.single("openai-responses", emulator_url + "/v1")
    with open_gateway("asgi", config, "memory://", recorder) as client:
        made = client.conversations.create(items=[{"role": "user", "content": "hi"}])
        with pytest.raises(openai.NotFoundError) as unknown:
            client.conversations.items.list("conv_abc")
        assert unknown.value.body["message"] == "Conversation with id 'conv_abc' not found."  # type: ignore[index]
        updated = client.conversations.update(made.id, metadata={"a": "b"})
        assert (updated.id, updated.metadata) == (made.id, {"a": "b"})
    assert [(sent.path, sent.body) for sent in recorder.sent] == [
        ("/v1/conversations", {"items": [{"role": "user", "content": "hi"}]}),
        ("/v1/conversations/conv_abc/items", None),
        (f"/v1/conversations/{made.id}", {"metadata": {"a": "b"}}),
    ]
