"""The official ``google-genai`` SDK against the emulator: generateContent, thought signatures."""

from __future__ import annotations

import json
from typing import Any

import pytest
from google import genai
from google.genai import errors, types

from tests.emulator.conftest import API_KEY
from tests.emulator.tools import EXPECTED_ARGS, SCHEMAS, result_for

MODEL = "gemini-2.5-flash"


def client(url: str, key: str = "k") -> genai.Client:
    options = types.HttpOptions(base_url=url, retry_options=types.HttpRetryOptions(attempts=1))
    return genai.Client(api_key=key, http_options=options)


def config(thinking: bool = False, **kw: Any) -> types.GenerateContentConfig:
    declarations = [types.FunctionDeclaration(name=n, parameters_json_schema=s) for n, s in SCHEMAS.items()]
    think = types.ThinkingConfig(include_thoughts=True, thinking_budget=512) if thinking else None
    return types.GenerateContentConfig(
        tools=[types.Tool(function_declarations=declarations)],
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
        thinking_config=think,
        **kw,
    )


def turn(
    c: genai.Client, contents: list[types.Content], stream: bool, cfg: types.GenerateContentConfig
) -> types.Content:
    if not stream:
        reply = c.models.generate_content(model=MODEL, contents=contents, config=cfg)  # type: ignore[arg-type]
        assert reply.candidates and reply.candidates[0].content
        return reply.candidates[0].content
    parts: list[types.Part] = []
    for chunk in c.models.generate_content_stream(model=MODEL, contents=contents, config=cfg):  # type: ignore[arg-type]
        if chunk.candidates and chunk.candidates[0].content and chunk.candidates[0].content.parts:
            parts.extend(chunk.candidates[0].content.parts)
    return types.Content(role="model", parts=parts)


def user(text: str) -> types.Content:
    return types.Content(role="user", parts=[types.Part(text=text)])


def answers(content: types.Content) -> types.Content:
    calls = [p.function_call for p in content.parts or [] if p.function_call]
    parts = [
        types.Part.from_function_response(name=c.name or "", response=json.loads(result_for(c.name or "")))
        for c in calls
    ]
    return types.Content(role="user", parts=parts)


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(
    ("text", "expected"), [("Weather?", ["get_weather"]), ("weather and time", ["get_weather", "get_time"])]
)
def test_tool_loop_with_thought_signatures(url: str, stream: bool, text: str, expected: list[str]) -> None:
    c = client(url)
    contents = [user(text)]
    first = turn(c, contents, stream, config(thinking=True))
    parts = first.parts or []
    assert any(p.thought and p.text for p in parts)
    calls = [p for p in parts if p.function_call]
    assert [(p.function_call.name, p.function_call.args) for p in calls if p.function_call] == [
        (n, EXPECTED_ARGS[n]) for n in expected
    ]
    assert calls[0].thought_signature
    contents += [first, answers(first)]
    second = turn(c, contents, stream, config(thinking=True))
    text_out = "".join(p.text or "" for p in second.parts or [] if not p.thought)
    assert text_out.startswith("Results: get_weather -> ")
    assert '"temp_c":21' in text_out.replace(" ", "")
    assert text_out.count(" -> ") == len(expected)


def test_tampered_and_missing_signature_rejected(url: str) -> None:
    c = client(url)
    contents = [user("Weather?")]
    first = turn(c, contents, False, config(thinking=True))
    call = next(p for p in first.parts or [] if p.function_call)
    assert call.function_call is not None
    call.function_call.args = {"city": "Rome", "unit": "celsius"}  # signature no longer matches
    with pytest.raises(errors.ClientError) as info:
        turn(c, [*contents, first, answers(first)], False, config(thinking=True))
    assert info.value.code == 400 and info.value.status == "INVALID_ARGUMENT"
    assert "thought signature" in str(info.value.message)
    call.thought_signature = None
    with pytest.raises(errors.ClientError, match="missing a thought_signature"):
        turn(c, [*contents, first, answers(first)], False, config(thinking=True))


def test_function_calling_modes(url: str) -> None:
    c = client(url)
    mode = types.FunctionCallingConfigMode
    named = config(
        tool_config=types.ToolConfig(
            function_calling_config=types.FunctionCallingConfig(
                mode=mode.ANY, allowed_function_names=["get_time"]
            )
        )
    )
    content = turn(c, [user("weather and time")], False, named)
    assert [p.function_call.name for p in content.parts or [] if p.function_call] == ["get_time"]
    none = config(
        tool_config=types.ToolConfig(function_calling_config=types.FunctionCallingConfig(mode=mode.NONE))
    )
    content = turn(c, [user("weather")], False, none)
    assert [p.text for p in content.parts or []] == ["You said: weather"]


def test_auth_header_and_query_key(keyed_url: str) -> None:
    import httpx

    assert turn(client(keyed_url, API_KEY), [user("hi")], False, config()).parts
    body = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
    path = f"{keyed_url}/v1beta/models/{MODEL}:generateContent"
    assert httpx.post(path, params={"key": API_KEY}, json=body).status_code == 200
    with pytest.raises(errors.ClientError) as info:
        turn(client(keyed_url, "wrong"), [user("hi")], False, config())
    assert info.value.code == 401 and info.value.status == "UNAUTHENTICATED"
    assert "API key not valid" in str(info.value.message)


def test_v1_route_and_json_array_stream(url: str) -> None:
    import httpx

    body = {"contents": [{"role": "user", "parts": [{"text": "hello"}]}]}
    plain = httpx.post(f"{url}/v1/models/{MODEL}:generateContent", json=body)
    assert (
        plain.status_code == 200
        and plain.json()["candidates"][0]["content"]["parts"][0]["text"] == "You said: hello"
    )
    array = httpx.post(f"{url}/v1beta/models/{MODEL}:streamGenerateContent", json=body)
    chunks = array.json()
    assert isinstance(chunks, list) and chunks
    assert (
        "".join(
            p.get("text", "")
            for ch in chunks
            for p in ch["candidates"][0].get("content", {}).get("parts", [])
        )
        == "You said: hello"
    )
    assert chunks[-1]["candidates"][0]["finishReason"] == "STOP"


def test_chat_streaming_records_each_turn(url: str) -> None:
    """google-genai chat streaming keeps a turn only when its last chunk carries content with
    ``finishReason``, as the real API sends it."""
    c = client(url)  # held: a collected client closes its connection pool
    chat = c.chats.create(model=MODEL)
    first = "".join(chunk.text or "" for chunk in chat.send_message_stream("Hello there"))
    second = "".join(chunk.text or "" for chunk in chat.send_message_stream("Again"))
    assert (first, second) == ("You said: Hello there", "You said: Again")
    turns: list[tuple[str | None, str]] = []
    for content in chat.get_history(curated=True):  # one entry per streamed chunk: join each turn
        text = "".join(p.text or "" for p in content.parts or [])
        if turns and turns[-1][0] == content.role:
            turns[-1] = (content.role, turns[-1][1] + text)
        else:
            turns.append((content.role, text))
    assert turns == [
        ("user", "Hello there"),
        ("model", "You said: Hello there"),
        ("user", "Again"),
        ("model", "You said: Again"),
    ]
