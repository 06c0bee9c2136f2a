"""Same-format round trip over every recorded Bedrock Converse body: encode(decode(x)) == x,
under the strict policy (no note at all), and what the IR holds of each."""

from __future__ import annotations

from typing import Any

import pytest

from tests.corpus import samples
from toolwire.formats import bedrock_converse as bedrock
from toolwire.ir import Notes, ReasoningPart, ToolCall, ToolResult


def _ids(kind: str) -> list[Any]:
    return [pytest.param(s, id=s.id) for s in samples(format="bedrock-converse", kind=kind)]


def test_corpus_is_there() -> None:
    assert len(_ids("request")) >= 75
    assert len(_ids("response")) >= 75
    assert len(_ids("error")) >= 3


@pytest.mark.parametrize("sample", _ids("request"))
def test_request_round_trip(sample: Any) -> None:
    notes = Notes("strict")
    ir = bedrock.decode_request(sample.payload, notes, model=sample.model)
    assert ir.origin == "bedrock-converse" and ir.model == sample.model
    assert ir.messages, "messages decoded into the IR"
    assert bedrock.encode_request(ir, notes) == sample.payload
    assert not notes.items


@pytest.mark.parametrize("sample", _ids("response"))
def test_response_round_trip(sample: Any) -> None:
    notes = Notes("strict")
    ir = bedrock.decode_response(sample.payload, notes)
    assert ir.origin == "bedrock-converse" and ir.raw_stop_reason == sample.payload["stopReason"]
    assert bedrock.encode_response(ir, notes) == sample.payload
    assert not notes.items


@pytest.mark.parametrize("sample", _ids("error"))
def test_error_round_trip(sample: Any) -> None:
    notes = Notes("strict")
    info = bedrock.decode_error(sample.payload, sample.status, notes)
    assert info.message == sample.payload["message"] and info.status == sample.status
    assert bedrock.encode_error(info, notes) == (sample.status, sample.payload)


def test_the_corpus_exercises_tools_results_and_signed_reasoning() -> None:
    """The recordings hold what the codec maps: calls, results, and signed reasoning."""
    parts = [
        p
        for s in samples(format="bedrock-converse", kind="request")
        for m in bedrock.decode_request(s.payload, Notes("strict"), model=s.model).messages
        for p in m.parts
    ]
    assert any(isinstance(p, ToolCall) for p in parts)
    assert any(isinstance(p, ToolResult) and p.is_error is None for p in parts)
    signed = [p for p in parts if isinstance(p, ReasoningPart) and p.signature]
    assert signed and all(p.origin == "bedrock-converse" for p in signed)
