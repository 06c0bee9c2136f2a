"""Every emulator answer, streamed and not, with and without tools, has the official shape.

OpenAI and Anthropic bodies and stream events are checked with ``jsonschema`` against the official
OpenAPI component schemas in tests/data/specs ($refs resolved within the spec file); Gemini with
our own response validator. The official SDKs' typed models must find every required field, and
the structured-output helpers (``responses.parse``, ``chat.completions.parse``) must parse the
emulator's JSON answers.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import anthropic
import httpx
import jsonschema
import openai
import pydantic
import pytest
import yaml
from openai.types.chat import ChatCompletion
from openai.types.responses import Response

from tests.emulator.tools import WEATHER_SCHEMA
from tests.validate import _specs
from toolwire.validate import validate

pytestmark = pytest.mark.skipif(not _specs.available(), reason="spec folder tests/data/specs not found")

USER = "What is the weather in Paris?"
_CHAT_TOOL = {"type": "function", "function": {"name": "get_weather", "parameters": WEATHER_SCHEMA}}
_RESP_TOOL = {"type": "function", "name": "get_weather", "parameters": WEATHER_SCHEMA, "strict": True}
_ANTHROPIC_TOOL = {"name": "get_weather", "input_schema": WEATHER_SCHEMA}
_GEMINI_TOOL = {"functionDeclarations": [{"name": "get_weather", "parametersJsonSchema": WEATHER_SCHEMA}]}

# format -> (path, request without tools, the tools field, the spec's body schema, its event schema)
ENDPOINTS: dict[str, tuple[str, dict[str, Any], dict[str, Any], str, str]] = {
    "openai-chat": (
        "/v1/chat/completions",
        {"model": "gpt-4o", "messages": [{"role": "user", "content": USER}]},
        {"tools": [_CHAT_TOOL], "tool_choice": "required"},
        "CreateChatCompletionResponse",
        "CreateChatCompletionStreamResponse",
    ),
    "openai-responses": (
        "/v1/responses",
        {"model": "gpt-5", "input": USER, "instructions": "Be brief.", "metadata": {"k": "v"}, "top_p": 0.5},
        {"tools": [_RESP_TOOL], "tool_choice": "required", "parallel_tool_calls": False},
        "Response",
        "ResponseStreamEvent",
    ),
    "anthropic": (
        "/v1/messages",
        {
            "model": "claude-sonnet-4-5",
            "max_tokens": 4096,
            "thinking": {"type": "enabled", "budget_tokens": 1024},
            "messages": [{"role": "user", "content": USER}],
        },
        {"tools": [_ANTHROPIC_TOOL]},
        "Message",
        "MessageStreamEvent",
    ),
    "gemini": (
        "/v1beta/models/gemini-2.5-flash:generateContent",
        {"contents": [{"role": "user", "parts": [{"text": USER}]}]},
        {"tools": [_GEMINI_TOOL]},
        "",
        "",
    ),
}


@cache
def _spec(fmt: str) -> dict[str, Any]:
    if fmt == "anthropic":
        return json.loads((_specs.SPECS / "anthropic-openapi.json").read_text())
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load((_specs.SPECS / "openai-openapi.yaml").read_text(), Loader=loader)


def _nullable(keyword: str) -> Any:
    """``keyword``'s check, honouring OpenAPI's ``nullable: true`` (the OpenAI spec still uses it)."""
    check = jsonschema.Draft202012Validator.VALIDATORS[keyword]

    def run(validator: Any, value: Any, instance: Any, schema: dict[str, Any]) -> Any:
        if instance is None and schema.get("nullable") is True:
            return
        yield from check(validator, value, instance, schema)

    return run


_OpenAPI = jsonschema.validators.extend(
    jsonschema.Draft202012Validator, {"type": _nullable("type"), "enum": _nullable("enum")}
)


def _branch(spec: dict[str, Any], name: str, kind: Any) -> str:
    """The member of the union ``name`` whose ``type`` is ``kind`` (``name`` itself if not a union)."""
    schemas = spec["components"]["schemas"]
    union = schemas[name].get("anyOf") or schemas[name].get("oneOf") or []
    for option in union:
        member = option.get("$ref", "").rsplit("/", 1)[-1]
        tag = schemas.get(member, {}).get("properties", {}).get("type", {})
        if kind == tag.get("const") or kind in tag.get("enum", ()):
            return member
    assert not union, f"{kind!r} is no member of {name}"
    return name


def _spec_lag(instance: Any) -> Any:
    """``instance`` without the values the real API sends where the official spec lags, each
    checked here instead:

    - an unfinished Responses object (``response.created``/``response.in_progress``) has
      ``usage: null`` (recorded: tests/data/fixtures/vercel-ai/openai-responses/
      openai-reasoning-encrypted-content.1.chunks.txt); the spec's ``usage`` is not nullable.
    - a Chat chunk asked for usage (``stream_options.include_usage``) has ``usage: null`` until
      the usage chunk (recorded: tests/data/fixtures/vercel-ai/openai-chat/openai-text.chunks.txt);
      the spec's chunk ``usage`` is not nullable.
    """
    if isinstance(instance, dict) and instance.get("object") == "chat.completion.chunk":
        if instance.get("usage", 0) is None:
            assert instance["choices"], "the usage chunk carries usage"
            return {k: v for k, v in instance.items() if k != "usage"}
        return instance
    response = instance.get("response") if isinstance(instance, dict) else None
    if isinstance(response, dict) and response.get("usage", 0) is None:
        assert response["status"] in ("in_progress", "queued"), response["status"]
        return {**instance, "response": {k: v for k, v in response.items() if k != "usage"}}
    return instance


def _check(fmt: str, name: str, instance: Any) -> None:
    """Validate ``instance`` against the spec's component ``name`` (for a union of events, the
    member its ``type`` names), $refs resolved within the spec."""
    spec = _spec(fmt)
    name = _branch(spec, name, instance.get("type"))
    _OpenAPI({**spec, "$ref": f"#/components/schemas/{name}"}).validate(_spec_lag(instance))


def _request(fmt: str, tools: bool, stream: bool) -> tuple[str, dict[str, Any]]:
    path, body, tool_fields, _, _ = ENDPOINTS[fmt]
    body = {**body, **(tool_fields if tools else {})}
    if fmt == "gemini":
        return (path.replace("generateContent", "streamGenerateContent?alt=sse") if stream else path), body
    return path, {**body, "stream": True} if stream else body


def _events(text: str) -> list[dict[str, Any]]:
    out = []
    for block in text.split("\n\n"):
        data = [line[6:] for line in block.splitlines() if line.startswith("data: ")]
        if data and data[0] != "[DONE]":
            out.append(json.loads("\n".join(data)))
    return out


FORMATS = list(ENDPOINTS)


@pytest.mark.parametrize("tools", [False, True], ids=["text", "tools"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_bodies_match_the_official_schemas(url: str, fmt: str, tools: bool) -> None:
    path, body = _request(fmt, tools, stream=False)
    reply = httpx.post(url + path, json=body)
    assert reply.status_code == 200, reply.text
    payload = reply.json()
    if fmt == "gemini":
        assert validate(payload, format="gemini", kind="response") == []
    else:
        _check(fmt, ENDPOINTS[fmt][3], payload)
    if fmt == "openai-responses":
        assert payload["tools"] == [{"description": None, **t} for t in body.get("tools", [])]
        assert payload["tool_choice"] == body.get("tool_choice", "auto")
        assert (payload["instructions"], payload["metadata"], payload["top_p"]) == (
            "Be brief.",
            {"k": "v"},
            0.5,
        )
        assert payload["parallel_tool_calls"] is body.get("parallel_tool_calls", True)
        assert (payload["store"], payload["truncation"]) == (True, "disabled")
        assert payload["completed_at"] == payload["created_at"]


@pytest.mark.parametrize("tools", [False, True], ids=["text", "tools"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_streams_match_the_official_schemas(url: str, fmt: str, tools: bool) -> None:
    path, body = _request(fmt, tools, stream=True)
    reply = httpx.post(url + path, json=body)
    assert reply.status_code == 200, reply.text
    events = _events(reply.text)
    assert events
    for event in events:
        if fmt == "gemini":
            assert validate(event, format="gemini", kind="response") == []
        else:
            _check(fmt, ENDPOINTS[fmt][4], event)
    if fmt == "openai-chat":
        assert [e["choices"][0]["finish_reason"] for e in events if e["choices"]][-1] == (
            "tool_calls" if tools else "stop"
        )
    if fmt == "openai-responses":
        final = events[-1]["response"]
        _check(fmt, "Response", final)
        assert final["tools"] == [{"description": None, **t} for t in body.get("tools", [])]
        assert final["status"] == "completed"
    if fmt == "gemini":
        last = events[-1]["candidates"][0]
        assert last["finishReason"] == "STOP" and last["content"]["parts"]


def _missing(model: type[pydantic.BaseModel], data: dict[str, Any]) -> set[str]:
    """Required fields of an SDK model (no default) absent from ``data`` (by alias)."""
    return {
        (field.alias or name)
        for name, field in model.model_fields.items()
        if field.is_required() and (field.alias or name) not in data
    }


def test_sdk_models_find_every_required_field(url: str) -> None:
    for fmt, model in (("openai-responses", Response), ("openai-chat", ChatCompletion)):
        path, body = _request(fmt, True, stream=False)
        payload = httpx.post(url + path, json=body).json()
        assert _missing(model, payload) == set()
        model.model_validate(payload)
    path, body = _request("anthropic", True, stream=False)
    payload = httpx.post(url + path, json=body).json()
    assert _missing(anthropic.types.Message, payload) == set()
    anthropic.types.Message.model_validate(payload)
    response = Response.model_validate(
        httpx.post(url + "/v1/responses", json=ENDPOINTS["openai-responses"][1]).json()
    )
    part = response.output[0].content[0]  # type: ignore[union-attr]
    assert _missing(type(part), part.model_dump()) == set() and part.annotations == []


class Weather(pydantic.BaseModel):
    city: str
    temp_c: int
    sky: str


def _oai(url: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{url}/v1", api_key="k", max_retries=0)


def test_responses_parse(url: str) -> None:
    parsed = _oai(url).responses.parse(model="gpt-5", input=USER, text_format=Weather).output_parsed
    assert isinstance(parsed, Weather) and parsed.city == "Paris"


def test_chat_completions_parse(url: str) -> None:
    message = (
        _oai(url)
        .chat.completions.parse(
            model="gpt-4o", messages=[{"role": "user", "content": USER}], response_format=Weather
        )
        .choices[0]
        .message
    )
    assert isinstance(message.parsed, Weather) and message.parsed.city == "Paris"


@pytest.mark.parametrize(
    ("path", "body", "read"),
    [
        (
            "/v1/messages",
            {
                "model": "claude-sonnet-4-5",
                "max_tokens": 100,
                "messages": [{"role": "user", "content": USER}],
                "output_config": {"format": {"type": "json_schema", "schema": WEATHER_SCHEMA}},
            },
            lambda p: p["content"][0]["text"],
        ),
        (
            "/v1beta/models/gemini-2.5-flash:generateContent",
            {
                "contents": [{"role": "user", "parts": [{"text": USER}]}],
                "generationConfig": {
                    "responseMimeType": "application/json",
                    "responseJsonSchema": WEATHER_SCHEMA,
                },
            },
            lambda p: p["candidates"][0]["content"]["parts"][0]["text"],
        ),
        (
            "/v1beta/models/gemini-2.5-flash:generateContent",
            {
                "contents": [{"role": "user", "parts": [{"text": USER}]}],
                "generationConfig": {
                    "responseMimeType": "application/json",
                    "responseSchema": {"type": "OBJECT", "properties": {"city": {"type": "STRING"}}},
                },
            },
            lambda p: p["candidates"][0]["content"]["parts"][0]["text"],
        ),
    ],
    ids=["anthropic-output-config", "gemini-json-schema", "gemini-response-schema"],
)
def test_structured_output_is_schema_valid(url: str, path: str, body: dict[str, Any], read: Any) -> None:
    reply = httpx.post(url + path, json=body)
    assert reply.status_code == 200, reply.text
    value = json.loads(read(reply.json()))
    schema = body.get("output_config", {}).get("format", {}).get("schema") or WEATHER_SCHEMA
    if "responseSchema" in body.get("generationConfig", {}):
        assert value == {"city": "Paris"}
    else:
        jsonschema.validate(value, schema)
        assert value["city"] == "Paris"


def test_stream_helpers_parse_structured_outputs(url: str) -> None:
    c = _oai(url)
    with c.responses.stream(model="gpt-5", input=USER, text_format=Weather) as responses:
        for _ in responses:
            pass
        parsed = responses.get_final_response().output_parsed
    assert isinstance(parsed, Weather) and parsed.city == "Paris"
    messages: Any = [{"role": "user", "content": USER}]
    with c.chat.completions.stream(model="gpt-4o", messages=messages, response_format=Weather) as chat:
        for _ in chat:
            pass
        message = chat.get_final_completion().choices[0].message
    assert isinstance(message.parsed, Weather) and message.parsed.city == "Paris"


def test_anthropic_beta_output_format(url: str) -> None:
    """The deprecated beta ``output_format`` answers schema-valid JSON too."""
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 100,
        "messages": [{"role": "user", "content": USER}],
        "output_format": {"type": "json_schema", "schema": WEATHER_SCHEMA},
    }
    reply = httpx.post(f"{url}/v1/messages?beta=true", json=body)
    assert reply.status_code == 200, reply.text
    value = json.loads(reply.json()["content"][0]["text"])
    jsonschema.validate(value, WEATHER_SCHEMA)
    assert value["city"] == "Paris"


def test_counts_and_stored_responses_match_the_official_schemas(url: str) -> None:
    messages = {"model": "claude-sonnet-4-6", "messages": [{"role": "user", "content": "hi"}]}
    _check(
        "anthropic",
        "CountMessageTokensResponse",
        httpx.post(f"{url}/v1/messages/count_tokens", json=messages).json(),
    )
    beta = httpx.post(f"{url}/v1/messages/count_tokens?beta=true", json=messages).json()
    _check("anthropic", "BetaCountMessageTokensResponse", beta)
    _check(
        "openai-responses",
        "TokenCountsResource",
        httpx.post(f"{url}/v1/responses/input_tokens", json={"model": "gpt-5", "input": USER}).json(),
    )
    path, body, tool_fields, _, _ = ENDPOINTS["openai-responses"]
    first = httpx.post(url + path, json={**body, **tool_fields, "reasoning": {"effort": "low"}}).json()
    call = next(o for o in first["output"] if o["type"] == "function_call")
    answer = {"type": "function_call_output", "call_id": call["call_id"], "output": "{}"}
    second = {**body, **tool_fields, "input": [answer], "previous_response_id": first["id"]}
    kept = httpx.post(url + path, json=second).json()
    assert httpx.get(f"{url}/v1/responses/{kept['id']}").json() == kept
    _check("openai-responses", "Response", kept)
    page = httpx.get(f"{url}/v1/responses/{kept['id']}/input_items").json()
    assert [i["type"] for i in page["data"]] == [
        "function_call_output",
        "function_call",
        "reasoning",
        "message",
    ]
    _check("openai-responses", "ResponseItemList", page)
