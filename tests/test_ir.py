from __future__ import annotations

import logging

import msgspec
import pytest

from toolwire import ConversionError
from toolwire.ir import (
    ImagePart,
    Message,
    Notes,
    ReasoningPart,
    Request,
    Response,
    TextPart,
    Tool,
    ToolCall,
    ToolChoice,
    ToolResult,
    Usage,
)


def _sample_request() -> Request:
    return Request(
        model="m",
        tools=(Tool(name="f", parameters={"type": "object", "properties": {}}),),
        tool_choice=ToolChoice(mode="named", name="f"),
        messages=(
            Message(role="user", parts=(TextPart(text="hi"), ImagePart(url="https://x/y.png"))),
            Message(
                role="assistant",
                parts=(
                    ReasoningPart(text="think", signature="sig", origin="anthropic"),
                    ToolCall(id="c1", name="f", arguments='{"a": 1}'),
                ),
            ),
            Message(role="tool", parts=(ToolResult(call_id="c1", content=(TextPart(text="ok"),)),)),
        ),
    )


def test_ir_json_round_trip_with_tagged_unions() -> None:
    request = _sample_request()
    data = msgspec.json.encode(request)
    assert msgspec.json.decode(data, type=Request) == request
    # defaults are omitted: the encoded form is compact
    assert b'"extra"' not in data


def test_ir_is_immutable() -> None:
    request = _sample_request()
    with pytest.raises(AttributeError):
        request.model = "other"  # type: ignore[misc]


def test_response_helpers() -> None:
    response = Response(
        parts=(TextPart(text="a"), ToolCall(name="f", arguments="{}"), TextPart(text="b")),
        usage=Usage(input_tokens=1, output_tokens=2),
    )
    assert response.text == "ab"
    assert [c.name for c in response.tool_calls] == ["f"]


def test_notes_policies(caplog: pytest.LogCaptureFixture) -> None:
    strict = Notes("strict")
    with pytest.raises(ConversionError) as info:
        strict.add("$.x", "dropped", "gone")
    assert info.value.path == "$.x" and info.value.notes[0].kind == "dropped"
    strict.info("$.y", "renamed", "harmless")
    assert len(strict) == 1

    with caplog.at_level(logging.INFO, logger="toolwire.convert"):
        warn = Notes("warn")
        warn.add("$.x", "approximated", "close enough")
    assert [str(n) for n in warn] == ["$.x: approximated: close enough"]
    # logged at INFO: the note itself is the report (see toolwire._logging)
    assert [(r.levelno, r.getMessage()) for r in caplog.records] == [
        (logging.INFO, "$.x: approximated: close enough")
    ]

    drop = Notes("drop")
    drop.add("$.z", "dropped", "quiet")
    assert len(drop) == 1

    with pytest.raises(ValueError):
        Notes("lenient")  # type: ignore[arg-type]
