"""Raw HTTP against the emulator: bad requests in each provider's error shape, model lists, routes."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from toolwire.emulator import EmulatorConfig, Script, ScriptedCall, Turn, create_app, serve
from toolwire.ir import Notes
from toolwire.translate import format_module

GEMINI = "/v1beta/models/gemini-2.5-flash:generateContent"

# (path, body, status, provider's message or a part of it)
BAD: list[tuple[str, Any, int, str]] = [
    (
        "/v1/chat/completions",
        {
            "model": "m",
            "messages": [{"role": "user", "content": "x"}],
            "tools": [{"type": "function", "function": {}}],
        },
        400,
        "Missing required parameter: 'tools[0].function.name'.",
    ),
    (
        "/v1/responses",
        {"model": "m", "input": [{"type": "function_call_output", "call_id": "c"}]},
        400,
        "input[0].output",
    ),
    (
        "/v1/messages",
        {
            "model": "m",
            "max_tokens": 5,
            "messages": [
                {
                    "role": "assistant",
                    "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}],
                },
                {"role": "user", "content": "hi"},
            ],
        },
        400,
        "`tool_use` ids were found without `tool_result` blocks immediately after",
    ),
    (
        GEMINI,
        {"contents": [{"role": "user", "parts": [{"functionResponse": {"name": "f", "response": 3}}]}]},
        400,
        "function_response.response",
    ),
    ("/v1/chat/completions", b"{not json", 400, "We could not parse the JSON body of your request."),
    ("/v1/messages", b"{not json", 400, "invalid JSON"),
    (GEMINI, b"{not json", 400, "Invalid JSON payload received."),
]
FORMAT_OF = {
    "/v1/chat/completions": "openai-chat",
    "/v1/responses": "openai-responses",
    "/v1/messages": "anthropic",
}


@pytest.mark.parametrize(("path", "body", "status", "message"), BAD)
def test_bad_requests_get_the_provider_error_body(
    url: str, path: str, body: Any, status: int, message: str
) -> None:
    kw: dict[str, Any] = {"content": body} if isinstance(body, bytes) else {"json": body}
    reply = httpx.post(f"{url}{path}", **kw)
    assert reply.status_code == status
    fmt = FORMAT_OF.get(path, "gemini")
    info = format_module(fmt).decode_error(reply.json(), reply.status_code, Notes("drop"))
    assert message in info.message
    assert info.status == status


def test_error_shapes(url: str) -> None:
    chat = httpx.post(f"{url}/v1/chat/completions", content=b"[").json()
    assert set(chat) == {"error"} and chat["error"]["type"] == "invalid_request_error"
    anthropic = httpx.post(f"{url}/v1/messages", content=b"[").json()
    assert anthropic["type"] == "error" and anthropic["error"]["type"] == "invalid_request_error"
    gemini = httpx.post(f"{url}{GEMINI}", content=b"[").json()
    assert gemini["error"]["code"] == 400 and gemini["error"]["status"] == "INVALID_ARGUMENT"


def test_model_lists(url: str) -> None:
    openai_list = httpx.get(f"{url}/v1/models").json()
    assert openai_list["object"] == "list" and {m["object"] for m in openai_list["data"]} == {"model"}
    anthropic_list = httpx.get(f"{url}/v1/models", headers={"anthropic-version": "2023-06-01"}).json()
    assert {m["type"] for m in anthropic_list["data"]} == {"model"} and anthropic_list["has_more"] is False
    gemini_list = httpx.get(f"{url}/v1beta/models").json()
    assert all(m["name"].startswith("models/") for m in gemini_list["models"])


def test_gemini_count_tokens_and_unknown_method(url: str) -> None:
    body = {"contents": [{"role": "user", "parts": [{"text": "hello " * 50}]}]}
    count = httpx.post(f"{url}/v1beta/models/g:countTokens", json=body)
    assert count.status_code == 200 and count.json()["totalTokens"] > 10
    missing = httpx.post(f"{url}/v1beta/models/g:embedContent", json=body)
    assert missing.status_code == 404 and missing.json()["error"]["status"] == "NOT_FOUND"


def test_same_request_same_answer(url: str) -> None:
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "weather?"}]}
    first = httpx.post(f"{url}/v1/chat/completions", json=body).json()
    second = httpx.post(f"{url}/v1/chat/completions", json=body).json()
    first.pop("created"), second.pop("created")
    assert first == second


def test_scripted_server_plays_turns_in_every_format() -> None:
    script = Script(
        (
            Turn(tool_calls=(ScriptedCall("lookup", '{"q": "exact"}'),)),
            Turn(text="scripted answer"),
        )
    )
    with serve(create_app(EmulatorConfig(script=script)), log_level="critical") as base:
        chat = httpx.post(
            f"{base}/v1/chat/completions", json={"model": "m", "messages": [{"role": "user", "content": "x"}]}
        )
        call = chat.json()["choices"][0]["message"]["tool_calls"][0]
        assert call["function"] == {"name": "lookup", "arguments": '{"q": "exact"}'}
        history = [
            {"role": "user", "content": "x"},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": call["id"], "content": "r"},
        ]
        chat = httpx.post(f"{base}/v1/chat/completions", json={"model": "m", "messages": history})
        assert chat.json()["choices"][0]["message"]["content"] == "scripted answer"
        gemini = httpx.post(
            f"{base}{GEMINI}", json={"contents": [{"role": "user", "parts": [{"text": "x"}]}]}
        )
        part = gemini.json()["candidates"][0]["content"]["parts"][0]
        assert part["functionCall"] == {"name": "lookup", "args": {"q": "exact"}}


def test_request_id_headers(url: str) -> None:
    chat = httpx.post(f"{url}/v1/chat/completions", json={"model": "m", "messages": []})
    anthropic = httpx.post(f"{url}/v1/messages", content=b"[")
    assert chat.headers["x-request-id"].startswith("req_")
    assert anthropic.headers["request-id"].startswith("req_")
    assert chat.headers["x-request-id"] != anthropic.headers["request-id"]


def test_previous_response_id_is_not_stored(url: str) -> None:
    body = {"model": "gpt-5", "input": "again", "previous_response_id": "resp_123"}
    reply = httpx.post(f"{url}/v1/responses", json=body)
    assert reply.status_code == 400
    assert reply.json()["error"]["message"] == "Previous response with id 'resp_123' not found."
    assert reply.json()["error"]["param"] == "previous_response_id"


def test_serve_stops_with_the_block() -> None:
    with serve(log_level="critical") as base:
        assert base.startswith("http://127.0.0.1:")
        assert httpx.get(f"{base}/v1/models").status_code == 200
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{base}/v1/models", timeout=2)
