"""Signatures, fault specs and the canonical event stream of a response."""

from __future__ import annotations

import pytest

from toolwire.emulator import Faults, parse_faults, response_events
from toolwire.emulator.signature import sign, unpack, verify
from toolwire.errors import PayloadError
from toolwire.ir import PartEnd, ReasoningPart, Response, TextPart, ToolCall, Usage
from toolwire.ir.accumulate import accumulate

SECRET = b"k"


def test_signature_round_trip_and_binding() -> None:
    token = sign(SECRET, "thinking text")
    assert unpack(SECRET, token) == "thinking text"
    assert verify(SECRET, token, "thinking text")
    assert not verify(SECRET, token, "other text")
    assert not verify(b"other secret", token, "thinking text")


@pytest.mark.parametrize("token", ["", "not base64!", "AAAA", None])
def test_bad_tokens_fail(token: str | None) -> None:
    assert not verify(SECRET, token)


def test_tampered_token_fails() -> None:
    token = sign(SECRET, "abc")
    flipped = token[:-6] + ("A" if token[-6] != "A" else "B") + token[-5:]
    assert not verify(SECRET, flipped)


def test_parse_faults() -> None:
    assert parse_faults(None) == Faults()
    assert parse_faults("latency=0.25, 429=3") == Faults(latency=0.25, status=429, retry_after=3.0)
    assert parse_faults("429").retry_after == 1.0
    assert parse_faults("503,disconnect").status == 503
    flags = parse_faults("drop-terminal, malformed")
    assert flags.drop_terminal and flags.malformed
    merged = parse_faults("latency=1").merged(parse_faults("500"))
    assert (merged.latency, merged.status) == (1.0, 500)


@pytest.mark.parametrize("spec", ["teapot", "418", "latency=x", "latency=-1"])
def test_bad_fault_specs(spec: str) -> None:
    with pytest.raises(PayloadError):
        parse_faults(spec)


def test_events_accumulate_back_to_the_response() -> None:
    response = Response(
        parts=(
            ReasoningPart(text="why", signature="sig", origin="anthropic"),
            TextPart(text="a longer text that spans several chunks"),
            ToolCall(name="f", arguments='{"city": "Paris", "days": 3}', id="c1"),
        ),
        id="r1",
        model="m",
        stop_reason="tool_calls",
        usage=Usage(input_tokens=1, output_tokens=2),
    )
    events = list(response_events(response, chunk_size=5))
    assert sum(type(e).__name__ == "TextDelta" for e in events) == 8
    rebuilt = accumulate(events)
    assert rebuilt.parts == response.parts
    from_deltas = accumulate([PartEnd(index=e.index) if isinstance(e, PartEnd) else e for e in events])
    assert from_deltas.parts == response.parts
    assert (rebuilt.id, rebuilt.stop_reason, rebuilt.usage) == ("r1", "tool_calls", response.usage)
