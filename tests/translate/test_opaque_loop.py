"""Opaque reasoning state survives a tool loop through every (client, upstream) pair.

A stateless gateway: each turn is a fresh :class:`Exchange`. The client keeps its history in
its own format, echoing the assistant turn exactly as a client SDK does (Chat: the message;
Responses: the output items; Anthropic: the content blocks; Gemini: the candidate's content).
The upstream answers with real recorded payloads, so the state that must come back is the
provider's own bytes.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import toolwire
from tests.corpus import samples
from toolwire import Exchange
from toolwire.errors import ConversionError
from toolwire.opaque import ENVELOPE_PREFIX, GEMINI_PLACEHOLDER, open_envelope

FORMATS = ("openai-chat", "openai-responses", "anthropic", "gemini")
PAIRS = [(c, u) for c in FORMATS for u in FORMATS]
SLOTTED = ("openai-responses", "anthropic", "gemini")

RECORDED = {
    "anthropic": "pydantic-ai/anthropic/test_anthropic_tool_with_thinking.yaml#0/response",
    "openai-responses": (
        "pydantic-ai/openai-responses/test_openai_responses_requires_function_call_status_none.yaml#0/response"
    ),
    "gemini": "pydantic-ai/gemini/test_google_default_tools_use_validated_mode.yaml#0/response",
    "openai-chat": "openai-python/openai-chat/nonstream__test_parse_pydantic_tool.json",
}
"""Upstream format -> a recorded response with a tool call (and, but for Chat, opaque state)."""


def recorded(fmt: str, turn: int = 0) -> dict[str, Any]:
    """The recording; for a later turn its ids get a suffix (each turn's calls are new calls)."""
    wanted = RECORDED[fmt]
    found = [s for s in samples(fmt, "response") if s.id == wanted]
    assert found, wanted
    payload = copy.deepcopy(found[0].payload)
    if turn:
        for obj in _walk(payload):
            for key in ("id", "call_id"):
                if isinstance(obj.get(key), str):
                    obj[key] += f"_{turn}"
    return payload


# -------------------------------------------------------------------- native opaque values


def _walk(value: Any) -> Any:
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from _walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item)


OPAQUE_KEYS = {
    "anthropic": ("signature", "data"),
    "openai-responses": ("encrypted_content",),
    "gemini": ("thoughtSignature", "thought_signature"),
    "openai-chat": (),
}


_BUILTIN_PARTS = ("toolCall", "toolResponse", "executableCode", "codeExecutionResult")
"""Gemini parts of server-side tools: no other format keeps them (dropped, noted), nor their state."""


def opaque_values(fmt: str, payload: Any) -> list[str]:
    """Every opaque reasoning state string of ``fmt``'s payload, in order (Responses: of reasoning
    items; Gemini: not of built-in tool parts)."""
    keys = OPAQUE_KEYS[fmt]
    out = []
    for obj in _walk(payload):
        if fmt == "openai-responses" and obj.get("type") not in ("reasoning", None):
            continue
        if fmt == "gemini" and any(k in obj for k in _BUILTIN_PARTS):
            continue
        for key in keys:
            if isinstance(obj.get(key), str) and (key != "data" or obj.get("type") == "redacted_thinking"):
                out.append(obj[key])
    return out


# -------------------------------------------------------------------- client histories


def _tool(fmt: str, name: str) -> dict[str, Any]:
    schema = {"type": "object", "properties": {"city": {"type": "string"}}}
    return {
        "openai-chat": {"type": "function", "function": {"name": name, "parameters": schema}},
        "openai-responses": {"type": "function", "name": name, "parameters": schema, "strict": False},
        "anthropic": {"name": name, "input_schema": schema},
        "gemini": {"functionDeclarations": [{"name": name, "parameters": schema}]},
    }[fmt]


def first_request(fmt: str, tool: str) -> dict[str, Any]:
    """Turn 1 of a client in its own format, reasoning on."""
    text = "Where am I, and what is the weather there?"
    if fmt == "openai-chat":
        return {
            "model": "m",
            "messages": [{"role": "user", "content": text}],
            "tools": [_tool(fmt, tool)],
            "reasoning_effort": "high",
        }
    if fmt == "openai-responses":
        return {
            "model": "m",
            "input": [{"role": "user", "content": text}],
            "tools": [_tool(fmt, tool)],
            "reasoning": {"effort": "high"},
            "include": ["reasoning.encrypted_content"],
            "store": False,
        }
    if fmt == "anthropic":
        return {
            "model": "m",
            "max_tokens": 4096,
            "thinking": {"type": "enabled", "budget_tokens": 2048},
            "messages": [{"role": "user", "content": text}],
            "tools": [_tool(fmt, tool)],
        }
    return {
        "contents": [{"role": "user", "parts": [{"text": text}]}],
        "tools": [_tool(fmt, tool)],
        "generationConfig": {"thinkingConfig": {"includeThoughts": True, "thinkingBudget": 2048}},
    }


def _calls(fmt: str, response: dict[str, Any]) -> list[tuple[str | None, str]]:
    """``(call id, name)`` of each call in a client-format response."""
    if fmt == "openai-chat":
        return [(c["id"], c["function"]["name"]) for c in response["choices"][0]["message"]["tool_calls"]]
    if fmt == "openai-responses":
        return [(i["call_id"], i["name"]) for i in response["output"] if i["type"] == "function_call"]
    if fmt == "anthropic":
        return [(b["id"], b["name"]) for b in response["content"] if b["type"] == "tool_use"]
    parts = response["candidates"][0]["content"]["parts"]
    return [(p["functionCall"].get("id"), p["functionCall"]["name"]) for p in parts if "functionCall" in p]


def echo(fmt: str, request: dict[str, Any], response: dict[str, Any]) -> dict[str, Any]:
    """The client's next request: its history, the assistant turn as its SDK keeps it, results."""
    nxt = copy.deepcopy(request)
    calls = _calls(fmt, response)
    assert calls, f"{fmt} response without a tool call"
    if fmt == "openai-chat":
        message = {k: v for k, v in response["choices"][0]["message"].items() if k not in ("refusal",)}
        results = [{"role": "tool", "tool_call_id": i, "content": "Paris"} for i, _ in calls]
        nxt["messages"] += [message, *results]
    elif fmt == "openai-responses":
        nxt["input"] += response["output"]
        nxt["input"] += [{"type": "function_call_output", "call_id": i, "output": "Paris"} for i, _ in calls]
    elif fmt == "anthropic":
        nxt["messages"].append({"role": "assistant", "content": response["content"]})
        results = [{"type": "tool_result", "tool_use_id": i, "content": "Paris"} for i, _ in calls]
        nxt["messages"].append({"role": "user", "content": results})
    else:
        nxt["contents"].append(response["candidates"][0]["content"])
        answers = [{"functionResponse": {"name": n, "response": {"output": "Paris"}}} for _, n in calls]
        nxt["contents"].append({"role": "user", "parts": answers})
    return nxt


def tool_name(upstream: str) -> str:
    payload = recorded(upstream)
    return str(
        toolwire.translate_response(payload, source=upstream, target="openai-chat").payload["choices"][0][
            "message"
        ]["tool_calls"][0]["function"]["name"]
    )


def run_loop(
    client: str, upstream: str, turns: int = 3, policy: Any = "warn"
) -> list[tuple[dict[str, Any], list[Any]]]:
    """``turns`` requests through fresh Exchanges: ``(upstream payload, notes)`` of each."""
    request = first_request(client, tool_name(upstream))
    out = []
    for turn in range(turns):
        ex = Exchange(client, upstream, policy=policy, client_model="m")
        sent = ex.request(copy.deepcopy(request))
        out.append((sent, list(ex.notes)))
        if turn == turns - 1:
            break
        answer = ex.response(recorded(upstream, turn))
        request = echo(client, request, answer)
    return out


# -------------------------------------------------------------------- tests


def _problems(payload: dict[str, Any], fmt: str) -> list[str]:
    return [f"{p.code}: {p.path}: {p.message}" for p in toolwire.validate(payload, format=fmt)]


@pytest.mark.parametrize(("client", "upstream"), PAIRS)
def test_every_turn_is_valid_for_the_upstream(client: str, upstream: str) -> None:
    for turn, (sent, _) in enumerate(run_loop(client, upstream)):
        assert _problems(sent, upstream) == [], f"turn {turn + 1}"


_LOST = ("signature", "opaque", "replayed", "reasoning of")
"""Words of the notes that say reasoning state was dropped."""


@pytest.mark.parametrize(("client", "upstream"), [(c, u) for c in SLOTTED for u in FORMATS])
def test_state_comes_back_byte_exact(client: str, upstream: str) -> None:
    made = opaque_values(upstream, recorded(upstream))
    turns = run_loop(client, upstream)
    assert opaque_values(upstream, turns[0][0]) == []
    for turn, (sent, notes) in enumerate(turns[1:], start=2):
        # every earlier assistant turn replays the recorded state, in order
        assert opaque_values(upstream, sent) == made * (turn - 1), f"turn {turn}"
        assert not [n for n in notes if n.kind == "dropped" and any(w in n.message for w in _LOST)]


@pytest.mark.parametrize("upstream", FORMATS)
def test_the_envelope_rides_in_the_client_slot(upstream: str) -> None:
    """The client sees an envelope where its own format keeps reasoning state, never a foreign value."""
    for client in SLOTTED:
        answer = Exchange(client, upstream).response(recorded(upstream))
        values = opaque_values(client, answer)
        foreign = set(opaque_values(upstream, recorded(upstream)))
        if client == upstream:
            assert values == opaque_values(upstream, recorded(upstream))  # native, untouched
            continue
        assert len(values) == len(foreign)
        for value in values:
            found = open_envelope(value)
            assert found is not None and found[0] == upstream, value
            assert value not in foreign
        if client == "gemini":
            for value in values:  # the bytes slot holds valid base64 of the envelope
                assert not value.startswith(ENVELOPE_PREFIX)


def test_a_gemini_slot_accepts_url_safe_reencoding() -> None:
    """Gemini SDKs decode thoughtSignature to bytes and may send it back URL-safe, unpadded."""
    answer = Exchange("gemini", "anthropic").response(recorded("anthropic"))
    value = opaque_values("gemini", answer)[0]
    again = value.replace("+", "-").replace("/", "_").rstrip("=")
    assert open_envelope(again) == open_envelope(value)


@pytest.mark.parametrize(("client", "upstream"), [(c, u) for c in SLOTTED for u in SLOTTED if c != u])
def test_no_state_reaches_another_provider(client: str, upstream: str) -> None:
    """Turn 1 goes to ``upstream``; the conversation then moves to every other provider."""
    made = opaque_values(upstream, recorded(upstream))
    request = first_request(client, tool_name(upstream))
    answer = Exchange(client, upstream).response(recorded(upstream))
    request = echo(client, request, answer)
    for other in FORMATS:
        if other == upstream:
            continue
        ex = Exchange(client, other)
        sent = json.dumps(ex.request(copy.deepcopy(request)))
        assert ENVELOPE_PREFIX not in sent and "dHcxL" not in sent, other  # base64 of b"tw1."
        assert not [v for v in made if v in sent], other
        assert any(n.kind == "dropped" for n in ex.notes), other


def test_a_responses_client_native_state_goes_only_to_openai() -> None:
    request = first_request("openai-responses", "get_weather")
    native = recorded("openai-responses")
    request = echo("openai-responses", request, native)
    own = opaque_values("openai-responses", native)
    assert json.dumps(own)  # the recording has encrypted_content
    same = Exchange("openai-responses", "openai-responses").request(copy.deepcopy(request))
    assert opaque_values("openai-responses", same) == own
    for other in ("anthropic", "gemini", "openai-chat"):
        ex = Exchange("openai-responses", other)
        sent = json.dumps(ex.request(copy.deepcopy(request)))
        assert not [v for v in own if v in sent]
        assert any(n.kind == "dropped" and "reasoning" in n.message for n in ex.notes)


# -------------------------------------------------------------------- Chat: the fallbacks


def test_chat_to_anthropic_turns_thinking_off_for_the_turn() -> None:
    first, second, _ = run_loop("openai-chat", "anthropic")
    assert first[0]["thinking"]["type"] == "enabled"
    assert "thinking" not in second[0]
    dropped = [n.path for n in second[1] if n.kind == "dropped" and "thinking turned off" in n.message]
    assert dropped == ["$.reasoning_effort"]  # what the Chat client sent


def test_chat_to_gemini_sends_the_documented_placeholder() -> None:
    _, second, third = run_loop("openai-chat", "gemini")
    for sent, notes in (second, third):
        calls = [p for c in sent["contents"] for p in c["parts"] if "functionCall" in p]
        assert [p.get("thoughtSignature") for p in calls] == [GEMINI_PLACEHOLDER] * len(calls)
        assert any(n.kind == "approximated" and "placeholder" in n.message for n in notes)


@pytest.mark.parametrize("upstream", ["anthropic", "gemini"])
def test_strict_refuses_a_fallback(upstream: str) -> None:
    with pytest.raises(ConversionError):
        run_loop("openai-chat", upstream, turns=2, policy="strict")


def test_same_format_passes_native_values_unchanged() -> None:
    for fmt in SLOTTED:
        request = echo(fmt, first_request(fmt, tool_name(fmt)), recorded(fmt))
        sent = Exchange(fmt, fmt).request(copy.deepcopy(request))
        assert opaque_values(fmt, sent) == opaque_values(fmt, request)
        assert opaque_values(fmt, sent) == opaque_values(fmt, recorded(fmt))


def _echo_text(fmt: str, request: dict[str, Any], response: dict[str, Any]) -> dict[str, Any]:
    nxt = copy.deepcopy(request)
    follow = "And tomorrow?"
    if fmt == "openai-responses":
        nxt["input"] += [*response["output"], {"role": "user", "content": follow}]
    elif fmt == "anthropic":
        nxt["messages"] += [
            {"role": "assistant", "content": response["content"]},
            {"role": "user", "content": follow},
        ]
    else:
        turn = {"role": "user", "parts": [{"text": follow}]}
        nxt["contents"] += [response["candidates"][0]["content"], turn]
    return nxt


def test_the_client_still_reads_the_reasoning() -> None:
    """A sealed part keeps its readable text: a Responses summary shows as Anthropic thinking."""
    payload = {
        "id": "resp_1",
        "object": "response",
        "created_at": 1,
        "status": "completed",
        "model": "m",
        "output": [
            {
                "type": "reasoning",
                "id": "rs_1",
                "summary": [{"type": "summary_text", "text": "Look it up."}],
                "encrypted_content": "gAAAAABo-opaque",
            },
            {"type": "function_call", "call_id": "c1", "name": "get_weather", "arguments": "{}"},
        ],
    }
    answer = Exchange("anthropic", "openai-responses").response(payload)
    thinking = [b for b in answer["content"] if b["type"] == "thinking"]
    assert [b["thinking"] for b in thinking] == ["Look it up."]
    found = open_envelope(thinking[0]["signature"])
    assert found is not None and found[1]["p"]["encrypted"] == "gAAAAABo-opaque"


# -------------------------------------------------------------------- Chat: the store hook


@pytest.mark.parametrize("upstream", SLOTTED)
def test_a_chat_client_with_a_state_mapping_gets_the_state_back(upstream: str) -> None:
    """``Exchange.state``: a mapping the caller's store keeps; envelopes live there, keyed by call id."""
    made = opaque_values(upstream, recorded(upstream))
    state: dict[str, str] = {}
    seen: set[str] = set()
    request = first_request("openai-chat", tool_name(upstream))
    for turn in range(3):
        ex = Exchange("openai-chat", upstream, client_model="m", state=state)
        sent = ex.request(copy.deepcopy(request))
        assert opaque_values(upstream, sent) == made * turn, f"turn {turn + 1}"
        assert _problems(sent, upstream) == []
        assert not [n for n in ex.notes if n.path == "$.reasoning" or "placeholder" in n.message]
        answer = ex.response(recorded(upstream, turn))
        assert not [v for v in made if v in json.dumps(answer)]  # the client never sees the state
        request = echo("openai-chat", request, answer)
        seen.add("tw1:" + answer["choices"][0]["message"]["tool_calls"][0]["id"])
    assert set(state) == seen  # one entry per turn with calls, under the first id the client saw
    for value in state.values():
        assert all(open_envelope(v) is not None for v in json.loads(value))


@pytest.mark.parametrize("upstream", SLOTTED)
@pytest.mark.parametrize("chunk_size", [3, 1000])
def test_a_streamed_answer_keeps_the_same_state_as_a_whole_one(upstream: str, chunk_size: int) -> None:
    """The recorded answer streamed (deltas on the hot paths, cut small or not at all): the state
    kept under the first call id the client's stream shows equals the whole answer's."""
    from toolwire._opaque_state import first_stream_call_id
    from toolwire.emulator.streaming import wire_events
    from toolwire.translate import format_module

    request = first_request("openai-chat", tool_name(upstream))
    whole: dict[str, str] = {}
    Exchange("openai-chat", upstream, client_model="m", state=whole).response(recorded(upstream))
    streamed: dict[str, str] = {}
    ex = Exchange("openai-chat", upstream, client_model="m", state=streamed)
    ex.request({**copy.deepcopy(request), "stream": True})
    response = format_module(upstream).decode_response(recorded(upstream), toolwire.Notes("drop"))
    asked = {"include": ["reasoning.encrypted_content"]}  # as the hop asks a Responses upstream
    events = wire_events(upstream, response, chunk_size, asked)
    out = b"".join(ex.stream_frames(event) for event in events)
    out += ex.stream_close_frames()
    call_id = first_stream_call_id(out)
    assert call_id is not None and not [
        v for v in opaque_values(upstream, recorded(upstream)) if v in out.decode()
    ]
    ex.keep_stream_state(call_id)
    assert streamed == whole and len(whole) == 1


def test_without_a_state_mapping_nothing_is_kept() -> None:
    ex = Exchange("openai-chat", "anthropic")
    ex.response(recorded("anthropic"))
    assert ex.state is None


def _recorded_responses() -> list[Any]:
    """Every recorded response of a format with opaque state that has some, for each other slotted client."""
    out = []
    for upstream in SLOTTED:
        for sample in samples(upstream, "response"):
            if any(v for v in opaque_values(upstream, sample.payload)):
                out += [
                    pytest.param(upstream, c, sample, id=f"{c}<-{sample.id}")
                    for c in SLOTTED
                    if c != upstream
                ]
    return out


@pytest.mark.parametrize(("upstream", "client", "sample"), _recorded_responses())
def test_every_recorded_response_comes_back_byte_exact(upstream: str, client: str, sample: Any) -> None:
    native = [v for v in opaque_values(upstream, sample.payload) if v]
    answer = Exchange(client, upstream).response(copy.deepcopy(sample.payload))
    request = first_request(client, "get_weather")
    try:
        request = echo(client, request, answer)
    except (AssertionError, KeyError):  # no tool call: the turn ends with text
        request = _echo_text(client, request, answer)
    sent = Exchange(client, upstream, client_model="m").request(request)
    assert [v for v in opaque_values(upstream, sent) if v] == native


@pytest.mark.parametrize("fmt", ["anthropic", "openai-responses"])
def test_a_same_format_stream_keeps_nothing_in_the_state_mapping(fmt: str) -> None:
    """A client that speaks the upstream's format carries its state itself: a streamed turn with
    signed reasoning and a call stores nothing in the mapping, even when asked to keep it."""
    from toolwire.emulator.streaming import wire_events
    from toolwire.ir.content import ToolCall
    from toolwire.translate import format_module

    state: dict[str, str] = {}
    ex = Exchange(fmt, fmt, client_model="m", state=state)
    response = format_module(fmt).decode_response(recorded(fmt), toolwire.Notes("drop"))
    call_id = next(p.id for p in response.parts if isinstance(p, ToolCall) and p.id is not None)
    assert opaque_values(fmt, recorded(fmt))  # the turn has state to keep
    events = wire_events(fmt, response, 1000, {"include": ["reasoning.encrypted_content"]})
    out = b"".join(ex.stream_frames(event) for event in events) + ex.stream_close_frames()
    assert call_id.encode() in out
    ex.keep_stream_state(call_id)
    assert state == {}
