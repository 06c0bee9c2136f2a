"""The Responses request as the server receives it, field by field (Codex reference behaviour)."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

import pytest

from tests.client.conftest import KEY, Server
from tests.client.payloads import MODELS, native
from toolwire.client import Client, ResponsesOptions
from toolwire.client._responses import ENCRYPTED_REASONING, build_responses_body
from toolwire.ir.notes import Notes

USER: dict[str, Any] = {"type": "message", "role": "user", "content": "What is the weather in Paris?"}


@pytest.fixture
def history(server: Server) -> list[dict[str, Any]]:
    """A real two-turn history: the question, the emulator's reasoning and call, the tool output."""
    options = ResponsesOptions(reasoning_effort="medium", reasoning_summary="auto")
    with Client("openai-responses", base_url=server.url, api_key=KEY, options=options) as client:
        output = client.create(native("openai-responses")).raw["output"]
    server.recorder.reset()
    call = next(item for item in output if item["type"] == "function_call")
    assert [item["type"] for item in output] == ["reasoning", "function_call"]
    return [USER, *output, {"type": "function_call_output", "call_id": call["call_id"], "output": "18C"}]


CODEX = ResponsesOptions(
    reasoning_effort="medium",
    reasoning_summary="auto",
    verbosity="low",
    conversation_id="conv-42",
    base_instructions="You are a coding agent.",
    openai_beta=True,
    originator="codex_cli_rs",
    chatgpt_account_id="acct-7",
)


def payload(history: list[dict[str, Any]]) -> dict[str, Any]:
    body = native("openai-responses")
    body["input"] = [dict(item) for item in history]
    return body


def send(
    server: Server,
    provider: str,
    options: ResponsesOptions,
    history: list[dict[str, Any]],
    *,
    stream: bool = False,
) -> Any:
    with Client(provider, base_url=server.url, api_key=KEY, options=options) as client:
        if stream:
            with client.stream(payload(history)) as events:
                events.collect()
        else:
            client.create(payload(history))
    (seen,) = server.requests
    return seen


def test_openai_body_field_by_field(server: Server, history: list[dict[str, Any]]) -> None:
    seen = send(server, "openai-responses", CODEX, history)
    body = seen.body
    assert seen.path == "/v1/responses"
    assert body["model"] == MODELS["openai-responses"]
    assert body["instructions"] == "You are a coding agent.\n\nBe brief."
    assert body["tools"] == native("openai-responses")["tools"]
    assert body["tool_choice"] == "auto"
    assert body["parallel_tool_calls"] is False
    assert body["reasoning"] == {"effort": "medium", "summary": "auto"}
    assert body["store"] is False
    assert body["stream"] is False
    assert body["include"] == [ENCRYPTED_REASONING]
    assert body["prompt_cache_key"] == "conv-42"
    assert body["text"] == {"verbosity": "low"}
    # store=false: the history goes whole, every item type, without item ids except reasoning's
    assert [item["type"] for item in body["input"]] == [item["type"] for item in history]
    reasoning_id = history[1]["id"]
    assert [item.get("id") for item in body["input"]] == [None, reasoning_id, None, None]
    assert body["input"][1]["encrypted_content"] == history[1]["encrypted_content"]
    assert body["input"][3] == history[3]


def test_openai_headers(server: Server, history: list[dict[str, Any]]) -> None:
    headers = send(server, "openai-responses", CODEX, history).headers
    assert headers["authorization"] == f"Bearer {KEY}"
    assert headers["openai-beta"] == "responses=experimental"
    assert headers["conversation_id"] == "conv-42"
    assert headers["session_id"] == "conv-42"
    assert headers["accept"] == "application/json"
    assert headers["chatgpt-account-id"] == "acct-7"
    assert headers["originator"] == "codex_cli_rs"
    assert headers["content-type"] == "application/json"


def test_streaming_sets_stream_and_accept(server: Server, history: list[dict[str, Any]]) -> None:
    from tests.client.payloads import need_stream

    need_stream("openai-responses")
    seen = send(server, "openai-responses", CODEX, history, stream=True)
    assert seen.body["stream"] is True
    assert seen.headers["accept"] == "text/event-stream"


def test_azure_variant_stores_and_keeps_item_ids(server: Server, history: list[dict[str, Any]]) -> None:
    seen = send(server, "azure-openai", replace(CODEX, api_version="2025-04-01-preview"), history)
    body = seen.body
    assert (seen.path, seen.query) == ("/v1/responses", "api-version=2025-04-01-preview")
    assert seen.headers["api-key"] == KEY
    assert "authorization" not in seen.headers
    assert body["store"] is True
    assert "include" not in body  # reasoning state is stored server-side
    assert [item.get("id") for item in body["input"]] == [item.get("id") for item in history]
    assert body["input"][2]["id"].startswith("fc_")


def test_minimal_options_send_no_optional_fields(server: Server, history: list[dict[str, Any]]) -> None:
    seen = send(server, "openai-responses", ResponsesOptions(originator=None), history)
    for absent in ("reasoning", "include", "prompt_cache_key", "text"):
        assert absent not in seen.body
    for absent in ("openai-beta", "conversation_id", "session_id", "chatgpt-account-id", "originator"):
        assert absent not in seen.headers


def test_verbosity_only_for_gpt5_family(
    server: Server, history: list[dict[str, Any]], caplog: pytest.LogCaptureFixture
) -> None:
    body = payload(history)
    body["model"] = "gpt-4.1"
    with (
        caplog.at_level(logging.INFO, logger="toolwire.client"),
        Client("openai-responses", base_url=server.url, api_key=KEY, options=CODEX) as client,
    ):
        result = client.create(body)
    (seen,) = server.requests
    assert "text" not in seen.body
    assert any("verbosity" in r.getMessage() and r.levelno == logging.INFO for r in caplog.records)
    assert any(note.path == "$.text.verbosity" for note in result.notes)


STATIC: list[dict[str, Any]] = [
    USER,
    {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "opaque"},
    {"type": "function_call", "id": "fc_1", "call_id": "c1", "name": "get_weather", "arguments": "{}"},
    {"type": "function_call_output", "call_id": "c1", "output": "18C"},
]


def test_reasoning_without_store_false_has_no_include() -> None:
    options = ResponsesOptions(reasoning_effort="high", store=True)
    body = build_responses_body(payload(STATIC), options, azure=False, stream=True, notes=Notes())
    assert body["store"] is True
    assert body["reasoning"] == {"effort": "high"}
    assert "include" not in body
    assert [item.get("id") for item in body["input"]] == [None, "rs_1", "fc_1", None]


def test_payload_fields_win_over_defaults() -> None:
    own = {**payload(STATIC), "tool_choice": "required", "parallel_tool_calls": True, "store": True}
    body = build_responses_body(own, CODEX, azure=False, stream=False, notes=Notes())
    assert (body["tool_choice"], body["parallel_tool_calls"], body["store"]) == ("required", True, True)
    assert "include" not in body


def test_item_references_keep_their_id() -> None:
    own = {**payload(STATIC), "input": [{"type": "item_reference", "id": "msg_9"}, *STATIC]}
    body = build_responses_body(own, ResponsesOptions(), azure=False, stream=False, notes=Notes())
    assert body["input"][0] == {"type": "item_reference", "id": "msg_9"}
    assert [item.get("id") for item in body["input"][1:]] == [None, "rs_1", None, None]


def test_structured_output_goes_to_text_format(server: Server) -> None:
    body = native("openai-responses")
    schema = {"type": "object", "properties": {"t": {"type": "number"}}, "required": ["t"]}
    body["text"] = {"format": {"type": "json_schema", "name": "w", "schema": schema, "strict": False}}
    options = ResponsesOptions(verbosity="high")
    with Client("openai-responses", base_url=server.url, api_key=KEY, options=options) as client:
        client.create(body)
    (seen,) = server.requests
    assert seen.body["text"]["format"]["name"] == "w"
    assert seen.body["text"]["verbosity"] == "high"
