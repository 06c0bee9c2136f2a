"""A Responses client's custom tool behind a Gemini upstream that streams the call's arguments
(``partialArgs``): each Gemini chunk decodes to one argument delta, which the Exchange turns back
into the custom call's input text as it comes, in events and in SSE bytes alike."""

from __future__ import annotations

from typing import Any

import pytest

from tests.translate.test_hop_tools import PATCH, _codex
from toolwire.formats._stream import WireEvent
from toolwire.streaming import WireReader, check_stream
from toolwire.translate import Exchange


def _chunk(call: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": [{"functionCall": call}]}}
    if finish is not None:
        candidate["finishReason"] = finish
    return {"candidates": [candidate], "modelVersion": "gemini-x", "responseId": "r1"}


def _gemini_stream() -> list[WireEvent]:
    pieces = [PATCH[i : i + 6] for i in range(0, len(PATCH), 6)]
    entries = [{"jsonPath": "$.input", "stringValue": p, "willContinue": True} for p in pieces]
    del entries[-1]["willContinue"]  # the string's last piece
    return [
        _chunk({"name": "apply_patch", "willContinue": True}),
        *(_chunk({"partialArgs": [e], "willContinue": True}) for e in entries),
        _chunk({}, "STOP"),
    ]


@pytest.mark.parametrize("framed", [False, True])
def test_streamed_gemini_arguments_come_back_as_custom_input_text(framed: bool) -> None:
    ex = Exchange("openai-responses", "gemini", policy="drop")
    ex.request(_codex())
    wire = _gemini_stream()
    if framed:
        data = b"".join(ex.stream_frames(e) for e in wire) + ex.stream_close_frames()
        reader = WireReader()
        out = reader.feed(data) + reader.close()
    else:
        out = [o for e in wire for o in ex.stream(e)] + ex.stream_close()
    assert check_stream("openai-responses", out) == []
    kinds = [e["type"] for e in out if isinstance(e, dict)]
    assert "response.function_call_arguments.delta" not in kinds
    deltas = [
        e["delta"]
        for e in out
        if isinstance(e, dict) and e["type"] == "response.custom_tool_call_input.delta"
    ]
    assert "".join(deltas) == PATCH and len(deltas) > 1
    done = [
        e["input"] for e in out if isinstance(e, dict) and e["type"] == "response.custom_tool_call_input.done"
    ]
    assert done == [PATCH]


@pytest.mark.parametrize("framed", [False, True])
def test_a_broken_upstream_chunk_mid_call_ends_the_stream_with_the_client_error(framed: bool) -> None:
    """A chunk that does not decode while the custom call's input is streaming ends the client's
    stream with its own error event (code ``malformed_event``), not an exception."""
    ex = Exchange("openai-responses", "gemini", policy="drop")
    ex.request(_codex())
    wire = [*_gemini_stream()[:3], {"candidates": "not a list"}]
    if framed:
        data = b"".join(ex.stream_frames(e) for e in wire) + ex.stream_close_frames()
        reader = WireReader()
        out = reader.feed(data) + reader.close()
    else:
        out = [o for e in wire for o in ex.stream(e)] + ex.stream_close()
    errors = [e for e in out if isinstance(e, dict) and e["type"] == "error"]
    assert [e["code"] for e in errors] == ["malformed_event"]
    assert out[-1]["type"] == "response.failed"  # type: ignore[index]


@pytest.mark.parametrize("target", ["openai-chat", "openai-responses", "gemini", "anthropic"])
def test_an_event_the_decoder_refuses_becomes_the_client_error_event(target: str) -> None:
    """An upstream event that is JSON but not a valid event of its format (a delta without an
    open block) gives the client's own error event naming its position, not an exception."""
    from toolwire.streaming import StreamTranslator

    t = StreamTranslator("anthropic", target)
    start = {
        "type": "message_start",
        "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": "m", "content": []},
    }
    t.feed(start)
    out = t.feed({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "x"}})
    text = str(out)
    assert "$[1]" in text and "without an open content block" in text
