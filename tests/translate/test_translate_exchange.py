"""``Exchange`` options and bookkeeping seen from outside: names sent as given when sanitizing is
off, a Chat client's usage chunk only when it asked for one, the notes of a stream."""

from __future__ import annotations

import json
from typing import Any

from toolwire.formats._stream import WireEvent
from toolwire.ir.content import ReasoningPart, TextPart, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.response import Usage
from toolwire.ir.stream import (
    PartEnd,
    PartStart,
    ResponseEnd,
    ResponseStart,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
)
from toolwire.streaming import check_stream, stream_encoder
from toolwire.translate import Exchange, translate_request, translate_response

SCHEMA = {"type": "object", "properties": {}}
DOTTED = "weather.get"


def _chat_request(**extra: Any) -> dict[str, Any]:
    return {
        "model": "my-alias",
        "messages": [{"role": "user", "content": "weather?"}],
        "tools": [{"type": "function", "function": {"name": DOTTED, "parameters": SCHEMA}}],
        **extra,
    }


def _wire(upstream: str, events: list[StreamEvent]) -> list[WireEvent]:
    encoder = stream_encoder(upstream, Notes("drop"))  # type: ignore[arg-type]
    out: list[WireEvent] = []
    for event in events:
        out += encoder.feed(event)
    return out + encoder.close()


def _call_stream(name: str, *, usage: Usage | None = None) -> list[StreamEvent]:
    return [
        ResponseStart(id="resp_1", origin="anthropic", model="up-model"),
        PartStart(index=0, part=TextPart(text="")),
        TextDelta(index=0, text="Checking."),
        PartEnd(index=0),
        PartStart(index=1, part=ToolCall(name=name, id="toolu_1")),
        ToolCallDelta(index=1, arguments='{"city": "Paris"}'),
        PartEnd(index=1),
        ResponseEnd(stop_reason="tool_calls", usage=usage),
    ]


def _through(ex: Exchange, wire: list[WireEvent]) -> list[WireEvent]:
    out: list[WireEvent] = []
    for event in wire:
        out += ex.stream(event)
    return out + ex.stream_close()


def _chat_calls(chunks: list[WireEvent]) -> list[str]:
    return [
        call["function"]["name"]
        for c in chunks
        if isinstance(c, dict)
        for choice in c.get("choices", [])
        for call in choice["delta"].get("tool_calls", [])
        if "name" in call.get("function", {})
    ]


def test_without_sanitizing_names_travel_as_given_both_ways() -> None:
    """``sanitize_names=False``: the upstream gets the client's names unchanged, and its calls,
    streamed or not, and its errors reach the client unchanged too."""
    ex = Exchange("openai-chat", "gemini", sanitize_names=False)
    body = ex.request(_chat_request())
    assert [d["name"] for d in body["tools"][0]["functionDeclarations"]] == [DOTTED]
    assert not any(note.kind == "renamed" for note in ex.notes)
    answer = {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"functionCall": {"name": DOTTED, "args": {"a": 1}}}]},
                "finishReason": "STOP",
            }
        ],
        "modelVersion": "gemini-x",
    }
    out = ex.response(answer)
    call = out["choices"][0]["message"]["tool_calls"][0]["function"]
    assert (call["name"], call["arguments"]) == (DOTTED, '{"a":1}')
    status, error = ex.error(400, b'{"error": {"code": 400, "message": "bad weather.get", "status": "X"}}')
    assert (status, error["error"]["message"]) == (400, "bad weather.get")

    streamed = Exchange("openai-chat", "anthropic", sanitize_names=False)
    sent = streamed.request(_chat_request(stream=True))
    assert [t["name"] for t in sent["tools"]] == [DOTTED]
    chunks = _through(streamed, _wire("anthropic", _call_stream(DOTTED)))
    assert check_stream("openai-chat", chunks) == []
    assert _chat_calls(chunks) == [DOTTED]


def test_an_error_names_the_client_tool_the_request_renamed() -> None:
    """With sanitizing (the default) the upstream's error text is given back in the client's names."""
    ex = Exchange("openai-chat", "anthropic")
    body = ex.request(_chat_request())
    sent = body["tools"][0]["name"]
    assert sent != DOTTED
    message = f"tools.0: {sent} is not allowed"
    raw = {"type": "error", "error": {"type": "invalid_request_error", "message": message}}
    status, error = ex.error(400, json.dumps(raw))
    assert (status, error["error"]["message"]) == (400, f"tools.0: {DOTTED} is not allowed")


def _usage_chunks(chunks: list[WireEvent]) -> list[dict[str, Any]]:
    return [c for c in chunks if isinstance(c, dict) and c.get("choices") == [] and c.get("usage")]


def test_a_chat_client_gets_the_usage_chunk_only_when_it_asked() -> None:
    """``stream_options.include_usage`` decides whether the translated stream ends with the usage
    chunk (``choices: []``), as OpenAI does."""
    usage = Usage(input_tokens=11, output_tokens=7)
    for options, expected in (({}, 0), ({"stream_options": {"include_usage": True}}, 1)):
        ex = Exchange("openai-chat", "anthropic")
        ex.request(_chat_request(stream=True, **options))
        chunks = _through(ex, _wire("anthropic", _call_stream("weather_get", usage=usage)))
        found = _usage_chunks(chunks)
        assert len(found) == expected, options
        if found:
            assert (found[0]["usage"]["prompt_tokens"], found[0]["usage"]["completion_tokens"]) == (11, 7)


def test_an_exchange_used_for_streams_only_reports_usage() -> None:
    """An Exchange that translates a stream without a request (``client_usage`` default) ends
    the Chat stream with its usage chunk."""
    ex = Exchange("openai-chat", "anthropic")
    usage = Usage(input_tokens=3, output_tokens=4)
    chunks = _through(ex, _wire("anthropic", _call_stream("weather_get", usage=usage)))
    assert [c["usage"]["total_tokens"] for c in _usage_chunks(chunks)] == [7]


def test_the_notes_of_a_stream_join_the_exchange_notes_when_it_closes() -> None:
    """Reasoning a Chat client has no slot for is dropped from the stream, and the Exchange's notes
    say so once the stream is closed, bytes or events alike."""
    events: list[StreamEvent] = [
        ResponseStart(id="resp_1", origin="openai-responses", model="m"),
        PartStart(index=0, part=ReasoningPart(text="thinking")),
        PartEnd(index=0),
        PartStart(index=1, part=TextPart(text="")),
        TextDelta(index=1, text="Hi"),
        PartEnd(index=1),
        ResponseEnd(stop_reason="end_turn"),
    ]
    wire = _wire("openai-responses", events)
    as_events = Exchange("openai-chat", "openai-responses")
    as_bytes = Exchange("openai-chat", "openai-responses")
    for event in wire:
        as_events.stream(event)
        as_bytes.stream_frames(event)
    assert as_events.notes == [] and as_bytes.notes == []
    as_events.stream_close()
    as_bytes.stream_close_frames()
    for ex in (as_events, as_bytes):
        assert "dropped" in [note.kind for note in ex.notes]


def test_format_aliases_name_their_format() -> None:
    """``chat``, ``responses``... are accepted wherever a format is named, as their format."""
    ex = Exchange("chat", "claude")
    assert (ex.client, ex.upstream) == ("openai-chat", "anthropic")
    out = translate_request(_chat_request(), source="chat", target="claude")
    assert out.payload["tools"][0]["name"] == "weather_get" and "max_tokens" in out.payload
    back = translate_response(
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "c",
            "content": [{"type": "text", "text": "Hi"}],
            "stop_reason": "end_turn",
            "usage": {"input_tokens": 1, "output_tokens": 1},
        },
        source="claude",
        target="chat",
    )
    assert back.payload["choices"][0]["message"]["content"] == "Hi"


def test_what_the_upstream_call_leaves_out_is_in_the_exchange_notes() -> None:
    """An option the upstream call does not send for this model (``text.verbosity`` to a model
    outside the GPT-5 family) is noted on the Exchange, as its translation notes are."""
    from toolwire.client import ResponsesOptions

    ex = Exchange("openai-chat", "openai-responses")
    body = ex.request({"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]})
    call = ex.upstream_call(body, options=ResponsesOptions(verbosity="low"))
    assert "verbosity" not in call.json().get("text", {})
    assert [(n.path, n.kind) for n in ex.notes if "verbosity" in n.path] == [("$.text.verbosity", "dropped")]


def test_a_tool_choice_names_the_tool_as_it_was_sent() -> None:
    """A forced tool and an allowed-tools list name the tools as the upstream request names them."""
    ex = Exchange("openai-chat", "anthropic")
    forced = {"type": "function", "function": {"name": DOTTED}}
    body = ex.request(_chat_request(tool_choice=forced))
    assert body["tool_choice"] == {"type": "tool", "name": "weather_get"}
    assert body["tools"][0]["name"] == "weather_get"

    responses = Exchange("openai-responses", "openai-chat")
    tools = [{"type": "function", "name": n, "parameters": SCHEMA} for n in (DOTTED, "other.one")]
    allowed = {"type": "allowed_tools", "mode": "required", "tools": [{"type": "function", "name": DOTTED}]}
    body = responses.request({"model": "m", "input": "hi", "tools": tools, "tool_choice": allowed})
    assert body["tool_choice"] == {
        "type": "allowed_tools",
        "allowed_tools": {
            "mode": "required",
            "tools": [{"type": "function", "function": {"name": "weather_get"}}],
        },
    }


def _anthropic_answer() -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-up",
        "content": [{"type": "text", "text": "Hi"}],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }


def test_the_client_sees_its_own_model_only_when_the_model_was_replaced() -> None:
    """With ``upstream_model`` the upstream gets that model and the client its own name back;
    without it, the client sees the model the upstream says it used."""
    replaced = Exchange("openai-chat", "anthropic", upstream_model="claude-up")
    assert replaced.request(_chat_request())["model"] == "claude-up"
    assert replaced.response(_anthropic_answer())["model"] == "my-alias"
    plain = Exchange("openai-chat", "anthropic")
    assert plain.request(_chat_request())["model"] == "my-alias"
    assert plain.response(_anthropic_answer())["model"] == "claude-up"


def test_last_response_is_the_translated_answer_in_ir() -> None:
    """``last_response`` is ``None`` until a response is translated, then that response in IR."""
    ex = Exchange("openai-chat", "anthropic")
    assert (ex.last_request, ex.last_response) == (None, None)
    ex.request(_chat_request())
    assert ex.last_request is not None and ex.last_response is None
    ex.response(_anthropic_answer())
    assert ex.last_response is not None
    assert (ex.last_response.model, ex.last_response.stop_reason) == ("claude-up", "end_turn")


_GEMINI_TURN = {
    "candidates": [
        {
            "content": {
                "role": "model",
                "parts": [
                    {"text": "think", "thought": True},
                    {"text": "a"},
                    {"functionCall": {"name": "f", "args": {"x": 1}}},
                    {"text": "b"},
                    {"executableCode": {"language": "PYTHON", "code": "print(1)"}},
                ],
            },
            "finishReason": "STOP",
        }
    ],
    "modelVersion": "gemini-x",
}


def test_the_notes_of_a_response_point_into_the_upstream_answer() -> None:
    """``Exchange.response`` notes what the client's format cannot hold at its place in the
    upstream's body (not in the IR's coordinates), and keeps the notes on the Exchange."""
    ex = Exchange("openai-chat", "gemini", policy="drop")
    ex.response(json.loads(json.dumps(_GEMINI_TURN)))
    parts = "$.candidates[0].content.parts"
    assert [(note.path, note.kind) for note in ex.notes] == [
        (f"{parts}[2]", "synthesized"),  # the call's id
        (f"{parts}[0]", "dropped"),  # the thought
        (parts, "approximated"),  # text after the call moved before it
        (f"{parts}[4]", "dropped"),  # the built-in code execution
        ("$", "synthesized"),  # the response id
    ]


def test_the_client_sees_the_model_the_upstream_reports_unless_it_was_replaced() -> None:
    """Without ``upstream_model`` the answer names the model the upstream says it ran (a dated
    snapshot, say); with it, the client's own model name comes back."""
    answer = {**_GEMINI_TURN, "modelVersion": "gemini-2.5-flash-001"}
    plain = Exchange("openai-chat", "gemini", policy="drop")
    plain.request({"model": "gemini-2.5-flash", "messages": [{"role": "user", "content": "hi"}]})
    assert plain.response(json.loads(json.dumps(answer)))["model"] == "gemini-2.5-flash-001"
    aliased = Exchange("openai-chat", "gemini", policy="drop", upstream_model="gemini-2.5-flash")
    aliased.request({"model": "my-alias", "messages": [{"role": "user", "content": "hi"}]})
    assert aliased.response(json.loads(json.dumps(answer)))["model"] == "my-alias"


def test_a_gemini_client_gets_sse_unless_its_url_asked_for_an_array() -> None:
    """A Gemini client whose request came through :meth:`Exchange.request` (no URL: no
    ``alt=sse`` to miss) gets its stream as SSE events, not as a JSON array."""
    ex = Exchange("gemini", "anthropic")
    ex.request({"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}, stream=True, model="g")
    upstream = _wire("anthropic", _call_stream("weather_get"))
    frames = [
        f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in upstream if isinstance(e, dict)
    ]
    out = b"".join(ex.translate_stream(frames))
    assert out.startswith(b"data: {") and b'"functionCall"' in out


_LONG_NAMESPACE = "mcp_github_enterprise_server_for_the_platform_team"


def _namespaced_history() -> dict[str, Any]:
    """A Responses turn (Codex with an MCP server) whose flattened tool name is too long for
    Chat and Gemini (64 characters) although neither part of it is."""
    schema = {"type": "object", "properties": {}}
    return {
        "model": "gpt-5",
        "tools": [
            {
                "type": "namespace",
                "name": _LONG_NAMESPACE,
                "description": "GitHub",
                "tools": [{"type": "function", "name": "search_issues_by_label", "parameters": schema}],
            }
        ],
        "input": [
            {"role": "user", "content": "find the bugs"},
            {
                "type": "function_call",
                "namespace": _LONG_NAMESPACE,
                "name": "search_issues_by_label",
                "call_id": "c1",
                "arguments": "{}",
            },
            {"type": "function_call_output", "call_id": "c1", "output": "none"},
        ],
    }


def test_a_flattened_name_renamed_for_length_is_renamed_in_the_history_too() -> None:
    """The history's call and result use the name the upstream's tool list declares, also when
    only the flattened name (namespace + tool) needs renaming."""
    chat = Exchange("openai-responses", "openai-chat", policy="drop").request(_namespaced_history())
    declared = chat["tools"][0]["function"]["name"]
    assert len(declared) <= 64 and declared.startswith(_LONG_NAMESPACE)
    assert chat["messages"][1]["tool_calls"][0]["function"]["name"] == declared
    gemini = Exchange("openai-responses", "gemini", policy="drop").request(_namespaced_history())
    parts = [part for content in gemini["contents"] for part in content["parts"]]
    named = [part[key]["name"] for part in parts for key in part if key != "text"]
    assert named == [gemini["tools"][0]["functionDeclarations"][0]["name"]] * 2
