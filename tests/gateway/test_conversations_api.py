"""The rest of the Conversations API through the ``openai`` SDK, answered alike by the gateway
(ASGI app and Transport, in front of a stateless upstream) and the emulator (``--store``): update
a conversation's metadata, retrieve one item (with ``include``), delete one item, add items."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import openai
import pytest

from tests.gateway.stateful import Recorder, open_gateway
from toolwire.emulator import EmulatorConfig, serve
from toolwire.gateway import HopConfig

REASONING = {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAAA+/=opaque"}


@pytest.fixture(params=("asgi", "transport", "emulator"))
def client(request: pytest.FixtureRequest, config: HopConfig, tmp_path: Path) -> Iterator[openai.OpenAI]:
    store = f"sqlite://{tmp_path / 'state.db'}"
    if request.param == "emulator":
        with serve(config=EmulatorConfig(store=store), log_level="critical") as url:
            yield openai.OpenAI(base_url=f"{url}/v1", api_key="k", max_retries=0)
        return
    recorder = Recorder()
    with open_gateway(request.param, config, store, recorder) as gateway:
        yield gateway
    assert recorder.sent == []  # all answered from the store


def test_update_replaces_the_metadata(client: openai.OpenAI) -> None:
    made = client.conversations.create(metadata={"topic": "demo", "owner": "ada"})
    updated = client.conversations.update(made.id, metadata={"topic": "renamed"})
    assert (updated.id, updated.object, updated.created_at) == (made.id, "conversation", made.created_at)
    assert updated.metadata == {"topic": "renamed"}
    assert client.conversations.retrieve(made.id).metadata == {"topic": "renamed"}
    with pytest.raises(openai.NotFoundError) as missing:
        client.conversations.update("conv_nope", metadata={"a": "b"})
    assert missing.value.body["message"] == "Conversation with id 'conv_nope' not found."  # type: ignore[index]
    with pytest.raises(openai.BadRequestError) as bad:
        client.conversations.update(made.id, metadata={str(n): "v" for n in range(17)})
    assert bad.value.body["param"] == "metadata"  # type: ignore[index]
    with pytest.raises(openai.BadRequestError) as no_metadata:
        client.post(f"/conversations/{made.id}", body={}, cast_to=object)
    assert no_metadata.value.body["message"] == "Missing required parameter: 'metadata'."  # type: ignore[index]
    assert no_metadata.value.body["param"] == "metadata"  # type: ignore[index]
    assert client.conversations.retrieve(made.id).metadata == {"topic": "renamed"}


def test_retrieve_one_item_with_include(client: openai.OpenAI) -> None:
    made = client.conversations.create(items=[{"role": "user", "content": "first"}])
    added = client.conversations.items.create(made.id, items=[REASONING, {"role": "user", "content": "next"}])
    assert [item.type for item in added.data] == ["reasoning", "message"]
    assert getattr(added.data[0], "encrypted_content", None) is None  # not asked for
    shown = client.conversations.items.retrieve("rs_1", conversation_id=made.id)
    assert shown.type == "reasoning" and getattr(shown, "encrypted_content", None) is None
    full = client.conversations.items.retrieve(
        "rs_1", conversation_id=made.id, include=["reasoning.encrypted_content"]
    )
    assert getattr(full, "encrypted_content", None) == REASONING["encrypted_content"]  # byte-exact
    listed = client.conversations.items.list(made.id, include=["reasoning.encrypted_content"], order="asc")
    assert getattr(listed.data[1], "encrypted_content", None) == REASONING["encrypted_content"]
    message = client.conversations.items.retrieve(added.data[1].id, conversation_id=made.id)
    assert message.model_dump() == added.data[1].model_dump()
    with pytest.raises(openai.BadRequestError) as bad:
        client.conversations.items.retrieve("rs_1", conversation_id=made.id, include=["nope"])  # type: ignore[list-item]
    assert bad.value.body["param"] == "include"  # type: ignore[index]
    assert bad.value.body["message"].startswith("Invalid value: 'nope'. Supported values are: ")  # type: ignore[index]
    with pytest.raises(openai.NotFoundError) as unknown:
        client.conversations.items.retrieve("rs_1", conversation_id="conv_nope")
    assert unknown.value.body["message"] == "Conversation with id 'conv_nope' not found."  # type: ignore[index]


def test_delete_one_item_returns_the_conversation(client: openai.OpenAI) -> None:
    made = client.conversations.create(
        items=[{"role": "user", "content": text} for text in ("one", "two", "three")], metadata={"k": "v"}
    )
    ids = [item.id for item in client.conversations.items.list(made.id, order="asc")]
    after = client.conversations.items.delete(ids[1], conversation_id=made.id)
    assert after.model_dump() == made.model_dump()  # the conversation object
    left = client.conversations.items.list(made.id, order="asc")
    assert [item.id for item in left.data] == [ids[0], ids[2]]
    assert [item.content[0].text for item in left.data] == ["one", "three"]  # type: ignore[union-attr]
    with pytest.raises(openai.NotFoundError) as gone:
        client.conversations.items.delete(ids[1], conversation_id=made.id)
    assert gone.value.body["message"] == f"Item with id '{ids[1]}' not found."  # type: ignore[index]
    with pytest.raises(openai.NotFoundError) as gone_get:
        client.conversations.items.retrieve(ids[1], conversation_id=made.id)
    assert gone_get.value.body["message"] == f"Item with id '{ids[1]}' not found."  # type: ignore[index]
    with pytest.raises(openai.NotFoundError) as unknown:
        client.conversations.items.delete(ids[0], conversation_id="conv_nope")
    assert unknown.value.body["message"] == "Conversation with id 'conv_nope' not found."  # type: ignore[index]
    client.conversations.items.create(made.id, items=[{"role": "assistant", "content": "four"}])
    texts = [item.content[0].text for item in client.conversations.items.list(made.id, order="asc")]  # type: ignore[union-attr]
    assert texts == ["one", "three", "four"]
