"""Every emulator answer in every scenario validates against the official schemas, and every
stream keeps its format's event order.

Scenarios: plain text, tools, thinking, structured output, and thinking with tools, for each
format, whole and streamed. OpenAI and Anthropic bodies and events go through ``jsonschema``
against the spec components (tests/data/specs, via ``test_shapes._check``); Gemini bodies
against the message definitions of the official ``.proto`` files (``tests.emulator._proto``).
The order checks below are written from each provider's streaming documentation, independent
of toolwire's own stream checkers:

===================  ========================================================================
format               order
===================  ========================================================================
``openai-chat``      one id/model/created; the first delta has ``role``; a tool call's first
                     delta has ``id``, ``type`` and ``function.name``, later ones arguments
                     only; exactly one ``finish_reason``, on the last choice chunk; a usage
                     chunk (``choices: []``) only after it
``openai-responses`` ``sequence_number`` 0, 1, 2...; ``response.created``, then
                     ``response.in_progress``; each output item opens (``output_item.added``),
                     streams its parts with its ``item_id`` and ``output_index``, and closes
                     (``output_item.done``) before the next opens; ``response.completed`` last,
                     its ``output`` the closed items
``anthropic``        ``message_start``; blocks ``content_block_start`` -> deltas of the block's
                     kind -> ``content_block_stop``, indexes 0, 1, 2... one at a time;
                     a thinking block's ``signature_delta`` last; ``message_delta``;
                     ``message_stop``; ``ping`` anywhere
``gemini``           one ``responseId`` and ``modelVersion``; ``finishReason`` only on the
                     last chunk, which carries content; usage on every chunk
===================  ========================================================================
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import jsonschema
import pytest

from tests.emulator import _proto
from tests.emulator.test_shapes import _check, _events
from tests.emulator.tools import WEATHER_SCHEMA

USER = "What is the weather in Paris?"
ANSWER = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "temp_c": {"type": "integer"}},
    "required": ["city", "temp_c"],
    "additionalProperties": False,
}

_SCENARIOS: dict[str, dict[str, dict[str, Any]]] = {
    "openai-chat": {
        "text": {},
        "tools": {
            "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": WEATHER_SCHEMA}}]
        },
        "thinking": {"reasoning_effort": "low"},
        "structured": {
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "a", "schema": ANSWER, "strict": True},
            }
        },
    },
    "openai-responses": {
        "text": {},
        "tools": {
            "tools": [
                {"type": "function", "name": "get_weather", "parameters": WEATHER_SCHEMA, "strict": True}
            ]
        },
        "thinking": {
            "reasoning": {"effort": "low", "summary": "auto"},
            "include": ["reasoning.encrypted_content"],
        },
        "structured": {
            "text": {"format": {"type": "json_schema", "name": "a", "schema": ANSWER, "strict": True}}
        },
    },
    "anthropic": {
        "text": {},
        "tools": {"tools": [{"name": "get_weather", "input_schema": WEATHER_SCHEMA}]},
        "thinking": {"thinking": {"type": "enabled", "budget_tokens": 1024}},
        "structured": {"output_config": {"format": {"type": "json_schema", "schema": ANSWER}}},
    },
    "gemini": {
        "text": {},
        "tools": {
            "tools": [
                {"functionDeclarations": [{"name": "get_weather", "parametersJsonSchema": WEATHER_SCHEMA}]}
            ]
        },
        "thinking": {
            "generationConfig": {"thinkingConfig": {"includeThoughts": True, "thinkingBudget": 512}}
        },
        "structured": {
            "generationConfig": {"responseMimeType": "application/json", "responseJsonSchema": ANSWER}
        },
    },
}
"""format -> scenario -> the request fields that make it (``thinking+tools`` merges two)."""

_BASE: dict[str, tuple[str, dict[str, Any]]] = {
    "openai-chat": (
        "/v1/chat/completions",
        {"model": "gpt-5", "messages": [{"role": "user", "content": USER}]},
    ),
    "openai-responses": ("/v1/responses", {"model": "gpt-5", "input": USER}),
    "anthropic": (
        "/v1/messages",
        {"model": "claude-sonnet-4-5", "max_tokens": 4096, "messages": [{"role": "user", "content": USER}]},
    ),
    "gemini": (
        "/v1beta/models/gemini-2.5-flash:generateContent",
        {"contents": [{"role": "user", "parts": [{"text": USER}]}]},
    ),
}


def _fields(fmt: str, scenario: str) -> dict[str, Any]:
    table = _SCENARIOS[fmt]
    if scenario != "thinking+tools":
        return table[scenario]
    merged = {**table["thinking"], **table["tools"]}
    return merged


CASES = [(f, s) for f in _SCENARIOS for s in [*_SCENARIOS[f], "thinking+tools"]]


def _call(url: str, fmt: str, scenario: str, stream: bool) -> httpx.Response:
    path, body = _BASE[fmt]
    body = {**body, **_fields(fmt, scenario)}
    if fmt == "gemini":
        path = path.replace("generateContent", "streamGenerateContent?alt=sse") if stream else path
    elif stream:
        body["stream"] = True
        if fmt == "openai-chat":
            body["stream_options"] = {"include_usage": True}
    reply = httpx.post(url + path, json=body)
    assert reply.status_code == 200, reply.text
    return reply


_BODY_SCHEMA = {
    "openai-chat": "CreateChatCompletionResponse",
    "openai-responses": "Response",
    "anthropic": "Message",
}
_EVENT_SCHEMA = {
    "openai-chat": "CreateChatCompletionStreamResponse",
    "openai-responses": "ResponseStreamEvent",
    "anthropic": "MessageStreamEvent",
}


def _structured_text(fmt: str, body: dict[str, Any]) -> str:
    if fmt == "openai-chat":
        return str(body["choices"][0]["message"]["content"])
    if fmt == "openai-responses":
        message = next(o for o in body["output"] if o["type"] == "message")
        return str(message["content"][0]["text"])
    if fmt == "anthropic":
        return str(next(b for b in body["content"] if b["type"] == "text")["text"])
    parts = body["candidates"][0]["content"]["parts"]
    return "".join(p.get("text", "") for p in parts if not p.get("thought"))


@pytest.mark.parametrize(("fmt", "scenario"), CASES, ids=[f"{f}-{s}" for f, s in CASES])
def test_bodies_validate(url: str, fmt: str, scenario: str) -> None:
    body = _call(url, fmt, scenario, stream=False).json()
    if fmt == "gemini":
        assert _proto.problems(body, "GenerateContentResponse") == []
        assert body["candidates"][0]["index"] == 0 and "createTime" not in body
    else:
        _check(fmt, _BODY_SCHEMA[fmt], body)
    if scenario == "structured":
        jsonschema.validate(json.loads(_structured_text(fmt, body)), ANSWER)


def _chat_order(events: list[dict[str, Any]]) -> None:
    assert len({(e["id"], e["model"], e["created"]) for e in events}) == 1
    choices = [e for e in events if e["choices"]]
    assert choices[0]["choices"][0]["delta"]["role"] == "assistant"
    finishes = [i for i, e in enumerate(choices) if e["choices"][0]["finish_reason"] is not None]
    assert finishes == [len(choices) - 1]
    tail = events[events.index(choices[-1]) + 1 :]
    assert all(e["choices"] == [] and e["usage"] for e in tail) and len(tail) <= 1
    assert all(e["usage"] is None for e in choices)  # asked for usage: null until the usage chunk
    assert len({(e["service_tier"], e["system_fingerprint"]) for e in events}) == 1
    seen: set[int] = set()
    for event in choices:
        for call in event["choices"][0]["delta"].get("tool_calls") or []:
            opening = call["index"] not in seen
            assert ("id" in call and call.get("type") == "function" and "name" in call["function"]) is opening
            assert opening or set(call["function"]) == {"arguments"}
            assert opening or call["index"] == max(seen)
            seen.add(call["index"])


_RESPONSE_PARTS = {
    "response.content_part.added",
    "response.content_part.done",
    "response.output_text.delta",
    "response.output_text.done",
    "response.function_call_arguments.delta",
    "response.function_call_arguments.done",
    "response.reasoning_summary_part.added",
    "response.reasoning_summary_part.done",
    "response.reasoning_summary_text.delta",
    "response.reasoning_summary_text.done",
}


def _responses_order(events: list[dict[str, Any]]) -> None:
    assert [e["sequence_number"] for e in events] == list(range(len(events)))
    assert [e["type"] for e in events[:2]] == ["response.created", "response.in_progress"]
    assert events[-1]["type"] == "response.completed"
    open_item: dict[str, Any] | None = None
    closed: list[dict[str, Any]] = []
    for event in events[2:-1]:
        kind = event["type"]
        if kind == "response.output_item.added":
            assert open_item is None and event["output_index"] == len(closed)
            open_item = event["item"]
        elif kind == "response.output_item.done":
            assert open_item is not None and event["item"]["id"] == open_item["id"]
            assert event["output_index"] == len(closed)
            closed.append(event["item"])
            open_item = None
        else:
            assert kind in _RESPONSE_PARTS, kind
            assert open_item is not None and event["item_id"] == open_item["id"]
            assert event["output_index"] == len(closed)
    assert open_item is None
    assert events[-1]["response"]["output"] == closed


_DELTAS = {
    "text": {"text_delta", "citations_delta"},
    "tool_use": {"input_json_delta"},
    "thinking": {"thinking_delta", "signature_delta"},
}


def _anthropic_order(events: list[dict[str, Any]]) -> None:
    kinds = [e for e in events if e["type"] != "ping"]
    assert kinds[0]["type"] == "message_start"
    assert [e["type"] for e in kinds[-2:]] == ["message_delta", "message_stop"]
    block: dict[str, Any] | None = None
    index = 0
    last_delta = ""
    for event in kinds[1:-2]:
        kind = event["type"]
        if kind == "content_block_start":
            assert block is None and event["index"] == index
            block, last_delta = event["content_block"], ""
        elif kind == "content_block_delta":
            assert block is not None and event["index"] == index
            assert event["delta"]["type"] in _DELTAS[block["type"]]
            assert last_delta != "signature_delta", "a thinking block's signature comes last"
            last_delta = event["delta"]["type"]
        else:
            assert kind == "content_block_stop" and block is not None and event["index"] == index
            assert block["type"] != "thinking" or last_delta == "signature_delta"
            block, index = None, index + 1
    assert block is None


def _gemini_order(events: list[dict[str, Any]]) -> None:
    assert len({(e.get("responseId"), e.get("modelVersion")) for e in events}) == 1
    finishes = [i for i, e in enumerate(events) if "finishReason" in e["candidates"][0]]
    assert finishes == [len(events) - 1]
    assert events[-1]["candidates"][0]["content"]["parts"]
    assert all("usageMetadata" in e and e["candidates"][0]["index"] == 0 for e in events)


_ORDER: dict[str, Callable[[list[dict[str, Any]]], None]] = {
    "openai-chat": _chat_order,
    "openai-responses": _responses_order,
    "anthropic": _anthropic_order,
    "gemini": _gemini_order,
}


@pytest.mark.parametrize(("fmt", "scenario"), CASES, ids=[f"{f}-{s}" for f, s in CASES])
def test_streams_validate_in_order(url: str, fmt: str, scenario: str) -> None:
    events = _events(_call(url, fmt, scenario, stream=True).text)
    for event in events:
        if fmt == "gemini":
            assert _proto.problems(event, "GenerateContentResponse") == []
        else:
            _check(fmt, _EVENT_SCHEMA[fmt], event)
    _ORDER[fmt](events)
    if fmt == "openai-responses":
        _check(fmt, "Response", events[-1]["response"])


@pytest.mark.parametrize(
    ("fmt", "events", "broken"),
    [
        ("openai-responses", lambda e: [e[1], e[0], *e[2:]], "created after in_progress"),
        (
            "openai-responses",
            lambda e: [*e[:-1], {**e[-1], "sequence_number": 99}],
            "a gap in sequence numbers",
        ),
        ("anthropic", lambda e: [e[0], *e[2:]], "a block without its start"),
        ("openai-chat", lambda e: [*e[:-2], e[-1]], "no finish_reason"),
        ("gemini", lambda e: [e[-1], *e], "finishReason twice"),
    ],
    ids=["responses-swap", "responses-gap", "anthropic-start", "chat-finish", "gemini-finish"],
)
def test_order_checks_reject_broken_streams(url: str, fmt: str, events: Any, broken: str) -> None:
    """The order checks are not vacuous: each refuses a stream broken in one place."""
    good = _events(_call(url, fmt, "tools", stream=True).text)
    _ORDER[fmt](good)
    with pytest.raises(AssertionError):
        _ORDER[fmt](events(good))


def _sdk_types() -> dict[str, tuple[Callable[[Any], Any], Callable[[Any], Any]]]:
    """format -> (check a body, check a stream event) with the official SDK's typed models;
    pydantic refuses a missing required field (and google-genai any unknown key)."""
    import anthropic.types
    import pydantic
    from google.genai import types as genai
    from openai.types.chat import ChatCompletion, ChatCompletionChunk
    from openai.types.responses import Response, ResponseStreamEvent

    event = pydantic.TypeAdapter(ResponseStreamEvent)
    message_event = pydantic.TypeAdapter(anthropic.types.RawMessageStreamEvent)
    return {
        "openai-chat": (ChatCompletion.model_validate, ChatCompletionChunk.model_validate),
        "openai-responses": (Response.model_validate, event.validate_python),
        "anthropic": (anthropic.types.Message.model_validate, message_event.validate_python),
        "gemini": (
            genai.GenerateContentResponse.model_validate,
            genai.GenerateContentResponse.model_validate,
        ),
    }


@pytest.mark.parametrize(("fmt", "scenario"), CASES, ids=[f"{f}-{s}" for f, s in CASES])
def test_sdk_types_accept_every_body_and_event(url: str, fmt: str, scenario: str) -> None:
    whole, streamed = _sdk_types()[fmt]
    body = _call(url, fmt, scenario, stream=False).json()
    assert whole(body) is not None
    for event in _events(_call(url, fmt, scenario, stream=True).text):
        if event.get("type") == "ping":
            continue
        assert streamed(event) is not None


def test_chat_bodies_carry_what_the_api_always_returns(url: str) -> None:
    """``annotations``, usage details, ``service_tier`` and ``system_fingerprint`` (recorded:
    tests/data/fixtures/vercel-ai/openai-chat/openai-text.json)."""
    body = _call(url, "openai-chat", "text", stream=False).json()
    assert body["choices"][0]["message"]["annotations"] == []
    assert body["usage"]["prompt_tokens_details"] == {"cached_tokens": 0, "audio_tokens": 0}
    assert set(body["usage"]["completion_tokens_details"]) == {
        "reasoning_tokens",
        "audio_tokens",
        "accepted_prediction_tokens",
        "rejected_prediction_tokens",
    }
    assert body["service_tier"] == "default" and body["system_fingerprint"].startswith("fp_")
    path, base = _BASE["openai-chat"]
    flex = httpx.post(url + path, json={**base, "service_tier": "flex"}).json()
    assert flex["service_tier"] == "flex"
