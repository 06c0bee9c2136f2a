"""The emulator's Responses store through the ``openai`` SDK: ``store``, ``previous_response_id``,
``responses.retrieve``, ``responses.delete``, ``responses.input_items.list``."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import openai
import pytest

from tests.emulator.tools import responses_tools, result_for
from toolwire.emulator import EmulatorConfig, serve
from toolwire.store import MemoryStore, ResponseRecord
from toolwire.store.responses import history


@pytest.fixture(scope="module")
def c() -> Iterator[openai.OpenAI]:
    with serve(config=EmulatorConfig(rules="provider"), log_level="critical") as base:
        yield openai.OpenAI(base_url=f"{base}/v1", api_key="k", max_retries=0)


def create(c: openai.OpenAI, stream: bool = False, **kw: Any) -> Any:
    args: dict[str, Any] = {"model": "gpt-5", "tools": responses_tools(), **kw}
    if not stream:
        return c.responses.create(**args)
    with c.responses.stream(**args) as s:
        for _ in s:
            pass
        return s.get_final_response()


@pytest.mark.parametrize("stream", [False, True])
def test_tool_loop_over_previous_response_id(c: openai.OpenAI, stream: bool) -> None:
    first = create(c, stream, input="Weather?", reasoning={"effort": "low"})
    call = next(o for o in first.output if o.type == "function_call")
    output = {"type": "function_call_output", "call_id": call.call_id, "output": result_for(call.name)}
    second = create(c, stream, input=[output], previous_response_id=first.id, reasoning={"effort": "low"})
    assert second.previous_response_id == first.id
    assert second.output_text == f"Results: get_weather -> {result_for('get_weather')}"
    kept = c.responses.retrieve(second.id)
    if not stream:
        assert kept.model_dump() == second.model_dump()
    assert (kept.output_text, kept.previous_response_id) == (second.output_text, first.id)
    assert [o.id for o in kept.output] == [o.id for o in second.output]
    listed = c.responses.input_items.list(second.id, order="asc")
    kinds = [(i.type, getattr(i, "role", None)) for i in listed.data]
    assert kinds == [
        ("message", "user"),
        ("reasoning", None),
        ("function_call", None),
        ("function_call_output", None),
    ]
    assert [i.id for i in listed.data[1:3]] == [o.id for o in first.output]
    assert listed.data[0].content[0].text == "Weather?"  # type: ignore[union-attr]
    newest = c.responses.input_items.list(second.id)  # the API's default order is desc
    assert [i.id for i in newest.data] == [i.id for i in reversed(listed.data)]
    third = create(c, input="What time is it?", previous_response_id=second.id)
    assert [o.name for o in third.output if o.type == "function_call"] == ["get_time"]
    newer = c.responses.input_items.list(third.id, order="asc").data
    assert [i.id for i in newer[:6]] == [*(i.id for i in listed.data), *(o.id for o in second.output)]
    assert len(newer) == 7 and newer[-1].content[0].text == "What time is it?"  # type: ignore[union-attr]


def test_pages_of_input_items(c: openai.OpenAI) -> None:
    first = create(c, input="One", tools=[])
    second = create(c, input="Two", tools=[], previous_response_id=first.id)
    page = c.responses.input_items.list(second.id, limit=2)
    assert [i.content[0].text for i in page.data] == ["Two", "You said: One"]  # type: ignore[union-attr]
    assert page.has_more
    rest = c.responses.input_items.list(second.id, limit=2, after=page.data[-1].id)
    assert [i.content[0].text for i in rest.data] == ["One"] and not rest.has_more  # type: ignore[union-attr]


def test_instructions_are_not_carried_over(c: openai.OpenAI) -> None:
    first = create(c, input="Hi", tools=[], instructions="Answer in JSON.")
    second = create(c, input="Again", tools=[], previous_response_id=first.id)
    assert first.instructions == "Answer in JSON." and second.instructions is None


def test_store_false_and_unknown_ids(c: openai.OpenAI) -> None:
    kept = create(c, input="Hi", tools=[])
    assert kept.store is True
    unkept = create(c, input="Hi there", tools=[], store=False)
    assert unkept.store is False
    with pytest.raises(openai.NotFoundError) as info:
        c.responses.retrieve(unkept.id)
    assert info.value.body == {
        "message": f"Response with id '{unkept.id}' not found.",
        "type": "invalid_request_error",
    }
    with pytest.raises(openai.BadRequestError) as bad:
        create(c, input="Again", previous_response_id=unkept.id)
    assert bad.value.code == "previous_response_not_found"
    assert bad.value.param == "previous_response_id"  # type: ignore[attr-defined]
    assert bad.value.message.endswith(f"Previous response with id '{unkept.id}' not found.")
    with pytest.raises(openai.NotFoundError):
        c.responses.input_items.list(unkept.id)


def test_delete(c: openai.OpenAI) -> None:
    kept = create(c, input="Forget me", tools=[])
    assert c.responses.retrieve(kept.id).id == kept.id
    assert c.responses.delete(kept.id) is None  # the SDK returns nothing on 200
    with pytest.raises(openai.NotFoundError):
        c.responses.retrieve(kept.id)
    with pytest.raises(openai.NotFoundError):
        c.responses.delete(kept.id)
    with pytest.raises(openai.BadRequestError) as info:
        create(c, input="Again", previous_response_id=kept.id)
    assert info.value.code == "previous_response_not_found"


def test_provider_rules_pair_over_the_stored_conversation(c: openai.OpenAI) -> None:
    first = create(c, input="Weather?")
    wrong = {"type": "function_call_output", "call_id": "call_other", "output": "{}"}
    with pytest.raises(openai.BadRequestError) as info:
        create(c, input=[wrong], previous_response_id=first.id)
    assert info.value.message.endswith("No tool call found for function call output with call_id call_other.")
    with pytest.raises(openai.BadRequestError) as unanswered:
        create(c, input="never mind", previous_response_id=first.id)
    call = next(o for o in first.output if o.type == "function_call")
    assert unanswered.value.message.endswith(f"No tool output found for function call {call.call_id}.")


def test_the_memory_store_is_bounded() -> None:
    async def go() -> list[Any]:
        store = MemoryStore(max_responses=2)
        for n in range(3):
            items = [{"role": "user", "content": str(n)}]
            await store.put_response(ResponseRecord(id=f"resp_{n}", created_at=0, input_items=items))
        kept = await store.get_response("resp_2")
        out: list[Any] = [await store.get_response("resp_0"), kept and history(kept)]
        out += [await store.get_response("resp_1") is not None, await store.delete_response("resp_0")]
        out.append(await store.delete_response("resp_1"))
        none = MemoryStore(max_responses=0)
        await none.put_response(ResponseRecord(id="resp_x", created_at=0))
        return [*out, await none.get_response("resp_x")]

    assert asyncio.run(go()) == [None, [{"role": "user", "content": "2"}], True, False, True, None]
