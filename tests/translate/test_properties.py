"""Hypothesis round trips through every format: for random IR conversations and responses,
``decode(encode(x))`` equals the documented projection of ``x`` onto the format
(:mod:`tests.translate.projection`), and re-encoding the decoded value gives the same payload."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.translate.projection import project
from toolwire.ir import (
    FORMATS,
    ImagePart,
    Message,
    Notes,
    ReasoningConfig,
    ReasoningPart,
    Request,
    Response,
    ResponseFormat,
    TextPart,
    Tool,
    ToolCall,
    ToolChoice,
    ToolResult,
    Usage,
)
from toolwire.translate import format_module

_SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_NAMES = ("get_weather", "search_docs", "send_email")
_TOOLS = tuple(
    Tool(
        name=name,
        description=f"The {name.replace('_', ' ')} tool.",
        parameters={"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "integer"}}},
    )
    for name in _NAMES
)
_words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=6)
_text = st.lists(_words, min_size=1, max_size=4).map(" ".join)
_scalar = st.integers(-5, 99) | _words | st.booleans() | st.none()
_args = st.builds(
    lambda args, compact: json.dumps(args, separators=(",", ":") if compact else None),
    st.dictionaries(st.sampled_from(["q", "n", "flag", "note"]), _scalar, max_size=3),
    st.booleans(),
)
"""Argument text: a JSON object, compact or with the default spacing (kept byte-exact)."""
_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="


@st.composite
def _reasoning(draw: st.DrawFn, index: int) -> ReasoningPart:
    origin = draw(st.sampled_from(["anthropic", "openai-responses", "gemini"]))
    if origin == "anthropic":
        return ReasoningPart(text=draw(_text), signature=f"sig{index}{draw(_words)}", origin="anthropic")
    if origin == "openai-responses":
        return ReasoningPart(
            id=f"rs_{index}{draw(_words)}",
            summary=tuple(draw(st.lists(_text, max_size=2))),
            encrypted=f"enc{draw(_words)}",
            origin="openai-responses",
        )
    return ReasoningPart(text=draw(_text), origin="gemini")


@st.composite
def _calls(draw: st.DrawFn, turn: int) -> list[ToolCall]:
    calls = []
    for index in range(draw(st.integers(0, 3))):
        signature = draw(st.none() | st.just(f"ts{turn}{index}"))
        calls.append(
            ToolCall(
                id=f"call_{turn}_{index}",
                name=draw(st.sampled_from(_NAMES)),
                arguments=draw(_args),
                thought_signature=signature,
            )
        )
    return calls


@st.composite
def _assistant_parts(draw: st.DrawFn, turn: int) -> tuple[list[Any], list[ToolCall]]:
    parts: list[Any] = [draw(_reasoning(i)) for i in range(draw(st.integers(0, 2)))]
    if draw(st.booleans()):
        parts.append(TextPart(text=draw(_text)))
    calls = draw(_calls(turn))
    if not parts and not calls:
        parts.append(TextPart(text=draw(_text)))
    return [*parts, *calls], calls


@st.composite
def _result(draw: st.DrawFn, call: ToolCall) -> ToolResult:
    content: list[Any] = [TextPart(text=t) for t in draw(st.lists(_text, min_size=1, max_size=2))]
    if draw(st.integers(0, 5)) == 0:
        content.append(ImagePart(data=_PNG, media_type="image/png"))
    return ToolResult(
        call_id=call.id, name=call.name, content=tuple(content), is_error=draw(st.none() | st.just(True))
    )


@st.composite
def requests(draw: st.DrawFn) -> Request:
    """A neutral (origin-less) conversation: system prompt, user/assistant turns, tool calls
    answered by tool results, reasoning of every origin, and generation controls."""
    messages: list[Message] = []
    if draw(st.booleans()):
        messages.append(
            Message(role=draw(st.sampled_from(["system", "developer"])), parts=(TextPart(text=draw(_text)),))
        )
    for turn in range(draw(st.integers(1, 3))):
        messages.append(Message(role="user", parts=(TextPart(text=draw(_text)),)))
        parts, calls = draw(_assistant_parts(turn))
        messages.append(Message(role="assistant", parts=tuple(parts)))
        if calls:
            messages.extend(Message(role="tool", parts=(draw(_result(call)),)) for call in calls)
            messages.append(Message(role="assistant", parts=(TextPart(text=draw(_text)),)))
    if draw(st.booleans()):
        messages.append(Message(role="user", parts=(TextPart(text=draw(_text)),)))
    choice = draw(
        st.none()
        | st.sampled_from([ToolChoice(mode="auto"), ToolChoice(mode="required"), ToolChoice(mode="none")])
        | st.sampled_from(_NAMES).map(lambda n: ToolChoice(mode="named", name=n))
    )
    reasoning = draw(
        st.none()
        | st.sampled_from([1024, 2048, 4000, 8192, 20000]).map(lambda b: ReasoningConfig(budget_tokens=b))
        | st.sampled_from(["low", "medium", "high"]).map(lambda e: ReasoningConfig(effort=e))
    )
    response_format = draw(
        st.none()
        | st.just(
            ResponseFormat(
                type="json_schema", name="answer", schema={"type": "object", "properties": {}}, strict=True
            )
        )
    )
    return Request(
        model="m",
        messages=tuple(messages),
        tools=_TOOLS,
        tool_choice=choice,
        max_tokens=draw(st.none() | st.integers(16, 4096)),
        temperature=draw(st.none() | st.sampled_from([0.0, 0.5, 1.0])),
        reasoning=reasoning,
        response_format=response_format,
    )


@st.composite
def responses(draw: st.DrawFn) -> Response:
    """A neutral response: reasoning, text and tool calls, with a consistent stop reason and usage."""
    parts, calls = draw(_assistant_parts(0))
    input_tokens, output_tokens = draw(st.integers(1, 5000)), draw(st.integers(1, 5000))
    return Response(
        id="resp_1",
        model="m",
        created=1767225600,
        parts=tuple(parts),
        stop_reason="tool_calls" if calls else draw(st.sampled_from(["end_turn", "max_tokens"])),
        usage=Usage(
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            total_tokens=input_tokens + output_tokens,
            reasoning_tokens=draw(st.none() | st.integers(1, output_tokens)),
        ),
    )


def _encode(value: Request | Response, fmt: str) -> dict[str, Any]:
    module = format_module(fmt)
    notes = Notes("drop")
    out: dict[str, Any] = (
        module.encode_request(value, notes)
        if isinstance(value, Request)
        else module.encode_response(value, notes)
    )
    return out


def _decode(payload: dict[str, Any], fmt: str, kind: type) -> Request | Response:
    module = format_module(fmt)
    notes = Notes("strict")
    if kind is Request:
        request: Request = module.decode_request(payload, notes, model="m")
        return request
    response: Response = module.decode_response(payload, notes)
    return response


def _check(value: Request | Response, fmt: str) -> None:
    wire = _encode(value, fmt)
    decoded = _decode(json.loads(json.dumps(wire)), fmt, type(value))
    assert project(decoded, fmt) == project(value, fmt)
    assert _encode(decoded, fmt) == wire, "re-encoding the decoded payload is stable"


@pytest.mark.parametrize("fmt", FORMATS)
@_SETTINGS
@given(value=requests())
def test_requests_round_trip_to_their_projection(fmt: str, value: Request) -> None:
    _check(value, fmt)


@pytest.mark.parametrize("fmt", FORMATS)
@_SETTINGS
@given(value=responses())
def test_responses_round_trip_to_their_projection(fmt: str, value: Response) -> None:
    _check(value, fmt)
