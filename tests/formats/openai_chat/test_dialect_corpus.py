"""Recordings of OpenAI-compatible providers (Mistral, DeepSeek, Groq, OpenRouter, xAI, Ollama):
each decodes and round-trips to its own dialect, fits every other dialect, and translates to the
other formats validly or is refused."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tests.corpus import ANY_DIALECT, Sample, samples
from toolwire import validate
from toolwire.errors import ConversionError
from toolwire.formats import openai_chat as chat
from toolwire.formats.openai_chat.dialects import DIALECTS
from toolwire.ir import Notes
from toolwire.ir.accumulate import accumulate
from toolwire.ir.content import ReasoningPart, TextPart, ToolCall
from toolwire.ir.stream import StreamErrorEvent
from toolwire.translate import translate_request, translate_response

COMPATIBLE = [s for s in samples("openai-chat", dialect=ANY_DIALECT) if s.dialect != "openai"]
OTHER_FORMATS = ("openai-responses", "anthropic", "gemini", "bedrock-converse")

# Streams that end in the provider's mid-stream error (the recording's point): the error decodes.
ERROR_STREAMS = {
    "pydantic-ai/openai-chat-compatible/test_openrouter_stream_error.yaml#0/stream": "Token limit reached",
    "pydantic-ai/openai-chat-compatible/test_tool_use_failed_error_streaming.yaml#0/stream": (
        "Tool call validation failed"
    ),
}


def _of(kind: str) -> list[Any]:
    return [pytest.param(s, id=s.id) for s in COMPATIBLE if s.kind == kind] or [
        pytest.param(None, marks=pytest.mark.skip(reason="fixture corpus missing"), id="no-corpus")
    ]


def test_every_provider_is_recorded() -> None:
    if not COMPATIBLE:
        pytest.skip("fixture corpus missing")
    counts = Counter((s.dialect, s.kind) for s in COMPATIBLE)
    assert {d for d, _ in counts} == {"mistral", "deepseek", "openrouter", "groq", "xai", "ollama"}
    assert counts["mistral", "request"] >= 25 and counts["mistral", "stream"] >= 20
    assert counts["deepseek", "response"] >= 4 and counts["openrouter", "error"] >= 2


@pytest.mark.parametrize("sample", _of("request"))
def test_request_round_trips_to_its_own_dialect(sample: Sample) -> None:
    notes = Notes("strict")
    ir = chat.decode_request(sample.payload, notes, dialect=sample.dialect)
    assert ir.messages and ir.extra["~dialect"] == sample.dialect
    assert chat.encode_request(ir, notes, dialect=sample.dialect) == sample.payload
    assert not notes.items
    assert validate(sample.payload, format="openai-chat", dialect=sample.dialect) == []


@pytest.mark.parametrize("sample", _of("response"))
def test_response_round_trips(sample: Sample) -> None:
    notes = Notes("strict")
    ir = chat.decode_response(sample.payload, notes, dialect=sample.dialect)
    assert ir.parts and ir.raw_stop_reason == sample.payload["choices"][0]["finish_reason"]
    for part in ir.parts:
        if isinstance(part, ReasoningPart):
            assert part.text and part.extra["~dialect"] == sample.dialect
    assert chat.encode_response(ir, notes) == sample.payload
    assert not notes.items


@pytest.mark.parametrize("sample", _of("error"))
def test_error_round_trips(sample: Sample) -> None:
    notes = Notes("strict")
    info = chat.decode_error(sample.payload, sample.status, notes)
    assert info.message
    assert chat.encode_error(info, notes)[1] == sample.payload


def _wire(sample: Sample) -> list[Any]:
    return [item.data for item in sample.payload]


def _decode(wire: list[Any]) -> list[Any]:
    decoder = chat.StreamDecoder(Notes("drop"))
    return [e for event in wire for e in decoder.feed(event)] + decoder.close()


def _encode(events: list[Any]) -> list[Any]:
    encoder = chat.StreamEncoder(Notes("drop"))
    return [w for event in events for w in encoder.feed(event)] + encoder.close()


def _raw_text(wire: list[Any]) -> tuple[str, str, list[str]]:
    """(answer text, reasoning text, called names) read straight off the chunks."""
    text, reasoning, names = [], [], []
    for chunk in wire:
        for choice in chunk.get("choices") or () if isinstance(chunk, dict) else ():
            delta = choice.get("delta") or {}
            content = delta.get("content")
            for item in content if isinstance(content, list) else [{"type": "text", "text": content or ""}]:
                if item["type"] == "text":
                    text.append(item["text"])
                else:
                    reasoning.extend(t["text"] for t in item["thinking"])
            reasoning.append(delta.get("reasoning_content") or delta.get("reasoning") or "")
            names.extend(c["function"]["name"] for c in delta.get("tool_calls") or () if c.get("id"))
    return "".join(text), "".join(reasoning), names


@pytest.mark.parametrize("sample", _of("stream"))
def test_stream_decodes_checks_and_reencodes(sample: Sample) -> None:
    wire = _wire(sample)
    events = _decode(wire)
    errors = [e for e in events if isinstance(e, StreamErrorEvent)]
    if sample.id in ERROR_STREAMS:
        assert len(errors) == 1 and ERROR_STREAMS[sample.id] in errors[0].error.message
        return
    assert errors == []
    assert chat.check_stream(wire, dialect=sample.dialect) == []
    resp = accumulate(events)
    text, reasoning, names = _raw_text(wire)
    assert "".join(p.text for p in resp.parts if isinstance(p, TextPart)) == text
    assert "".join(p.text or "" for p in resp.parts if isinstance(p, ReasoningPart)) == reasoning
    assert [p.name for p in resp.parts if isinstance(p, ToolCall)] == names
    again = _encode(events)
    assert chat.check_stream(again, dialect=sample.dialect) == []
    assert _decode(again) == events


def test_mistral_stream_forms_are_refused_without_the_dialect() -> None:
    found = [s for s in COMPATIBLE if s.id == "vercel-ai/mistral/mistral-reasoning.chunks.txt"]
    if not found:
        pytest.skip("fixture corpus missing")
    codes = {p.code for p in chat.check_stream(_wire(found[0]))}
    assert codes == {"malformed_event"}


@pytest.mark.parametrize("sample", _of("request"))
@pytest.mark.parametrize("target", sorted(DIALECTS))
def test_request_fits_every_dialect(sample: Sample, target: str) -> None:
    out = translate_request(
        sample.payload,
        source="openai-chat",
        target="openai-chat",
        policy="drop",
        source_dialect=sample.dialect,
        target_dialect=target,
    ).payload
    if target == "openai":
        assert validate(out, format="openai-chat") == []
    else:
        assert validate(out, format="openai-chat", dialect=target) == []
    assert len(out["messages"]) == len(sample.payload["messages"])


@pytest.mark.parametrize("sample", _of("request") + _of("response"))
@pytest.mark.parametrize("target", OTHER_FORMATS)
def test_translation_to_other_formats_is_valid_or_refused(sample: Sample, target: str) -> None:
    try:
        if sample.kind == "request":
            out = translate_request(
                sample.payload,
                source="openai-chat",
                target=target,
                policy="drop",
                source_dialect=sample.dialect,
            ).payload
        else:
            out = translate_response(
                sample.payload,
                source="openai-chat",
                target=target,
                policy="drop",
                source_dialect=sample.dialect,
            ).payload
    except ConversionError as exc:
        assert str(exc)
        return
    assert validate(out, format=target, kind=sample.kind) == []  # type: ignore[arg-type]


def test_native_chat_histories_fit_mistral() -> None:
    """OpenAI call ids (``call_...``) become Mistral's 9 characters, consistently in calls and results."""
    with_calls = [
        s
        for s in samples("openai-chat", "request")
        if any(m.get("role") == "tool" for m in s.payload["messages"])
    ]
    if not with_calls:
        pytest.skip("fixture corpus missing")
    for sample in with_calls:
        out = translate_request(
            sample.payload,
            source="openai-chat",
            target="openai-chat",
            policy="drop",
            target_dialect="mistral",
        ).payload
        assert validate(out, format="openai-chat", dialect="mistral") == [], sample.id
        calls = {c["id"] for m in out["messages"] for c in m.get("tool_calls") or ()}
        assert {m["tool_call_id"] for m in out["messages"] if m["role"] == "tool"} <= calls, sample.id
