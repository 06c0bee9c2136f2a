"""The emulator's Responses state in a persistent store (``EmulatorConfig.store``,
``toolwire emulate --store``): shared by two emulators, kept across a restart, paged as the API
pages ``input_items``."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest

from tests.emulator.tools import responses_tools, result_for
from tests.redis_server import RedisServer, need_redis_server
from toolwire.cli import main
from toolwire.emulator import EmulatorConfig, serve


@pytest.fixture(params=["sqlite", "redis"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite://{tmp_path / 'emulator.db'}"
    server: RedisServer = request.getfixturevalue("redis_server")
    return server.url()


def client(base: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{base}/v1", api_key="k", max_retries=0)


def create(c: openai.OpenAI, **kw: Any) -> Any:
    return c.responses.create(**{"model": "gpt-5", "tools": responses_tools(), **kw})


def test_two_emulators_share_one_store_turn_by_turn(store_url: str) -> None:
    config = EmulatorConfig(rules="provider", store=store_url)
    with ExitStack() as stack:
        a, b = (client(stack.enter_context(serve(config=config, log_level="critical"))) for _ in range(2))
        first = create(a, input="Weather?", reasoning={"effort": "low"})
        call = next(o for o in first.output if o.type == "function_call")
        output = {"type": "function_call_output", "call_id": call.call_id, "output": result_for(call.name)}
        second = create(b, input=[output], previous_response_id=first.id)  # the other instance, at once
        assert second.output_text == f"Results: get_weather -> {result_for('get_weather')}"
        assert a.responses.retrieve(second.id).model_dump() == second.model_dump()
        listed = a.responses.input_items.list(second.id, order="asc")
        assert [i.id for i in listed.data[1:-1]] == [o.id for o in first.output]
        b.responses.delete(first.id)
        with pytest.raises(openai.NotFoundError):
            a.responses.retrieve(first.id)


def test_responses_outlive_the_emulator(tmp_path: Path) -> None:
    config = EmulatorConfig(store=f"sqlite://{tmp_path / 'kept.db'}")
    with serve(config=config, log_level="critical") as base:
        first = create(client(base), input="One", tools=[])
    with serve(config=config, log_level="critical") as base:
        again = client(base)
        assert again.responses.retrieve(first.id).model_dump() == first.model_dump()
        second = create(again, input="Two", tools=[], previous_response_id=first.id)
        texts = [i.content[0].text for i in again.responses.input_items.list(second.id).data]  # type: ignore[union-attr]
        assert texts == ["Two", "You said: One", "One"]


@pytest.mark.parametrize(
    ("query", "param", "message"),
    [
        ("limit=0", "limit", "Invalid 'limit': expected an integer from 1 to 100, got '0'."),
        ("limit=101", "limit", "Invalid 'limit': expected an integer from 1 to 100, got '101'."),
        ("limit=ten", "limit", "Invalid 'limit': expected an integer from 1 to 100, got 'ten'."),
        ("order=newest", "order", "Invalid 'order': expected 'asc' or 'desc', got 'newest'."),
    ],
)
def test_bad_input_items_queries_are_400_naming_the_param(
    url: str, query: str, param: str, message: str
) -> None:
    first = create(client(url), input="One", tools=[])
    answer = httpx.get(f"{url}/v1/responses/{first.id}/input_items?{query}")
    assert answer.status_code == 400
    assert answer.json()["error"] | {"message": message, "param": param} == answer.json()["error"]


def test_limit_100_is_allowed(url: str) -> None:
    first = create(client(url), input="One", tools=[])
    page = httpx.get(f"{url}/v1/responses/{first.id}/input_items?limit=100&order=asc").json()
    assert [i["content"][0]["text"] for i in page["data"]] == ["One"] and page["has_more"] is False


def test_emulate_refuses_an_unknown_store_url(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["emulate", "--store", "postgres://user:hunter2@db/x"]) == 2
    err = capsys.readouterr().err
    assert "toolwire: error: --store: unknown store URL 'postgres://***@db/x'; choose one of: " in err
    assert "sqlite:///path/to/store.db, redis://host:6379/0" in err and "hunter2" not in err


def test_a_store_that_fails_is_a_500_in_the_apis_shape(tmp_path: Path) -> None:
    server = RedisServer(need_redis_server(), tmp_path)
    server.start()
    try:
        with serve(config=EmulatorConfig(store=server.url()), log_level="critical") as base:
            first = create(client(base), input="One", tools=[])
            server.stop()
            for answer in (
                httpx.post(
                    f"{base}/v1/responses",
                    json={"model": "m", "input": "Two", "previous_response_id": first.id},
                ),
                httpx.post(f"{base}/v1/responses", json={"model": "m", "input": "Three"}),
                httpx.get(f"{base}/v1/responses/{first.id}"),
                httpx.post(
                    f"{base}/v1/responses/input_tokens", json={"input": "x", "previous_response_id": first.id}
                ),
            ):
                assert answer.status_code == 500
                error = answer.json()["error"]
                assert error["message"].startswith(
                    f"The store failed: redis store 127.0.0.1:{server.port}/0: "
                )
    finally:
        server.stop()
