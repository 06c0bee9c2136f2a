"""Property tests: junk never escapes as a Python error, valid payloads round-trip, and
conversations from other formats always become well-formed Anthropic turns."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolwire.errors import ToolwireError
from toolwire.formats.anthropic import decode_request, decode_response, encode_request, encode_response
from toolwire.ir import Message, Notes, ReasoningPart, Request, TextPart, ToolCall, ToolResult

_SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12,
)
_block_types = st.sampled_from(
    [
        "text",
        "image",
        "document",
        "tool_use",
        "tool_result",
        "thinking",
        "redacted_thinking",
        "server_tool_use",
    ]
)


@st.composite
def _junk_block(draw: st.DrawFn) -> Any:
    block = draw(
        st.dictionaries(st.sampled_from(["text", "source", "id", "name", "input", "content"]), _json)
    )
    if draw(st.booleans()):
        block["type"] = draw(_block_types)
    return block


@_SETTINGS
@given(st.lists(_junk_block() | _json, max_size=4), _json, _json)
def test_junk_is_refused_at_its_path_or_round_trips(blocks: list[Any], system: Any, tools: Any) -> None:
    """Junk raises a ToolwireError naming a field it came from; what decodes encodes back as it was."""
    payload = {"messages": [{"role": "user", "content": blocks}], "system": system, "tools": tools}
    try:
        request = encode_request(decode_request(payload, Notes("drop")), Notes("drop"))
    except ToolwireError as exc:
        assert exc.path is not None and exc.path.startswith(
            ("$.messages[0].content", "$.system", "$.tools")
        ), exc
    else:
        assert request["messages"] == payload["messages"]
    response = {"content": blocks, "usage": tools}
    try:
        decoded = encode_response(decode_response(response, Notes("drop")), Notes("drop"))
    except ToolwireError as exc:
        assert exc.path is not None and exc.path.startswith(("$.content", "$.usage")), exc
    else:
        assert decoded["content"] == blocks


_text = st.text(min_size=1, max_size=10)
_ids = st.from_regex(r"toolu_[a-z0-9]{1,6}", fullmatch=True)
_args = st.dictionaries(st.text(max_size=5), st.integers() | st.text(max_size=5) | st.booleans(), max_size=3)


@st.composite
def _valid_block(draw: st.DrawFn, role: str) -> dict[str, Any]:
    kind = draw(
        st.sampled_from(["text", "tool", "image"] if role == "user" else ["text", "tool", "thinking"])
    )
    if kind == "text":
        block: dict[str, Any] = {"type": "text", "text": draw(_text)}
        if draw(st.booleans()):
            block["cache_control"] = {"type": "ephemeral"}
        return block
    if kind == "image":
        return {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": draw(_text)}}
    if kind == "thinking":
        return {"type": "thinking", "thinking": draw(_text), "signature": draw(_text)}
    if role == "assistant":
        return {"type": "tool_use", "id": draw(_ids), "name": draw(_text), "input": draw(_args)}
    result: dict[str, Any] = {"type": "tool_result", "tool_use_id": draw(_ids)}
    content = draw(
        st.none() | _text | st.lists(st.builds(lambda t: {"type": "text", "text": t}, _text), max_size=2)
    )
    if content is not None:
        result["content"] = content
    flag = draw(st.none() | st.booleans())
    if flag is not None:
        result["is_error"] = flag
    return result


@st.composite
def _valid_request(draw: st.DrawFn) -> dict[str, Any]:
    messages: list[dict[str, Any]] = []
    for index in range(draw(st.integers(0, 4))):
        role = "user" if index % 2 == 0 else "assistant"
        if draw(st.booleans()):
            messages.append({"role": role, "content": draw(_text)})
        else:
            messages.append({"role": role, "content": draw(st.lists(_valid_block(role), max_size=3))})
    payload: dict[str, Any] = {
        "model": draw(_text),
        "max_tokens": draw(st.integers(1, 9999)),
        "messages": messages,
    }
    system = draw(
        st.none() | _text | st.lists(st.builds(lambda t: {"type": "text", "text": t}, _text), max_size=2)
    )
    if system is not None:
        payload["system"] = system
    if draw(st.booleans()):
        payload["tool_choice"] = draw(
            st.sampled_from(
                [{"type": "auto"}, {"type": "any", "disable_parallel_tool_use": True}, {"type": "none"}]
            )
        )
    if draw(st.booleans()):
        payload["thinking"] = {"type": "enabled", "budget_tokens": draw(st.integers(1024, 4096))}
    return payload


@_SETTINGS
@given(_valid_request())
def test_valid_requests_round_trip(payload: dict[str, Any]) -> None:
    notes = Notes("strict")
    assert encode_request(decode_request(payload, notes), notes) == payload


# ---------------------------------------------------------------- conversations from other formats

_ID = re.compile(r"^[a-zA-Z0-9_-]+$")


@st.composite
def _foreign_conversation(draw: st.DrawFn) -> tuple[Message, ...]:
    messages: list[Message] = []
    for turn in range(draw(st.integers(1, 5))):
        role = draw(st.sampled_from(["system", "user", "assistant"]))
        if role != "assistant":
            text = TextPart(text=draw(st.text(max_size=5)))
            messages.append(Message(role="system" if role == "system" else "user", parts=(text,)))
            continue
        parts: list[Any] = []
        if draw(st.booleans()):
            parts.append(
                ReasoningPart(text="r", origin=draw(st.sampled_from(["gemini", "openai-responses"])))
            )
        if draw(st.booleans()):
            parts.append(TextPart(text=draw(st.text(max_size=5))))
        calls = draw(st.integers(0, 3))
        named = draw(st.booleans())
        for index in range(calls):
            call_id = f"call.{turn}:{index}" if named else None
            parts.append(
                ToolCall(id=call_id, name=f"f{index}", arguments=draw(st.sampled_from(["", "{}", '{"a":1}'])))
            )
        messages.append(Message(role="assistant", parts=tuple(parts)))
        results = [
            ToolResult(
                call_id=f"call.{turn}:{i}" if named else None, name=f"f{i}", content=(TextPart(text="ok"),)
            )
            for i in range(calls)
        ]
        if draw(st.booleans()):
            messages.extend(Message(role="tool", parts=(r,)) for r in results)
        elif results:
            messages.append(Message(role="user", parts=(*results, TextPart(text="more"))))
    return tuple(messages)


@_SETTINGS
@given(_foreign_conversation(), st.sampled_from(["openai-chat", "gemini", "openai-responses", None]))
def test_foreign_conversations_become_well_formed_turns(messages: tuple[Message, ...], origin: Any) -> None:
    out = encode_request(Request(model="m", messages=messages, origin=origin), Notes("drop"))
    wire = out["messages"]
    assert isinstance(out["max_tokens"], int)
    for index, message in enumerate(wire):
        assert message["role"] in ("user", "assistant")
        assert message["content"], "no empty turns"
        if index:
            assert wire[index - 1]["role"] != message["role"], "roles alternate"
        for block in message["content"]:
            assert block["type"] != "text" or block["text"], "no empty text blocks"
        uses = [b["id"] for b in message["content"] if b["type"] == "tool_use"]
        assert all(_ID.match(u) for u in uses)
        if uses and index + 1 < len(wire):
            following = wire[index + 1]["content"]
            leading = []
            for block in following:
                if block["type"] != "tool_result":
                    break
                leading.append(block["tool_use_id"])
            assert set(uses) <= set(leading), "every tool_use answered at the start of the next turn"
