"""Same-format round trip over every recorded Chat Completions payload: encode(decode(x)) == x."""

from __future__ import annotations

from typing import Any

import pytest

from tests.corpus import samples
from toolwire.errors import PayloadError
from toolwire.formats import openai_chat as chat
from toolwire.ir import Notes

NOT_A_COMPLETION = {
    # The test feeds the client an echo of the request metadata instead of a chat.completion,
    # to check that the client rejects it; decoding must fail with a PayloadError.
    "pydantic-ai/openai-chat/test_invalid_response.yaml#0/response",
}


def _ids(kind: str) -> list[Any]:
    return [pytest.param(s, id=s.id) for s in samples(format="openai-chat", kind=kind)]


def test_corpus_is_there() -> None:
    assert len(samples(format="openai-chat", kind="request")) > 100
    assert len(samples(format="openai-chat", kind="response")) > 50
    assert len(samples(format="openai-chat", kind="error")) >= 5


@pytest.mark.parametrize("sample", _ids("request"))
def test_request_round_trip(sample: Any) -> None:
    notes = Notes("strict")
    ir = chat.decode_request(sample.payload, notes)
    assert ir.origin == "openai-chat"
    assert ir.messages, "messages decoded into the IR"
    assert chat.encode_request(ir, notes) == sample.payload
    assert not notes.items


@pytest.mark.parametrize("sample", _ids("response"))
def test_response_round_trip(sample: Any) -> None:
    notes = Notes("strict")
    if sample.id in NOT_A_COMPLETION:
        with pytest.raises(PayloadError) as info:
            chat.decode_response(sample.payload, notes)
        assert info.value.path == "$.choices"
        return
    ir = chat.decode_response(sample.payload, notes)
    assert ir.parts, "the first choice's message decoded into parts"
    assert ir.raw_stop_reason == sample.payload["choices"][0]["finish_reason"]
    assert chat.encode_response(ir, notes) == sample.payload
    assert not notes.items


@pytest.mark.parametrize("sample", _ids("error"))
def test_error_round_trip(sample: Any) -> None:
    notes = Notes("strict")
    info = chat.decode_error(sample.payload, sample.status, notes)
    assert info.message
    status, body = chat.encode_error(info, notes)
    assert body == sample.payload
    assert status == (sample.status or info.status)
    assert status in (400, 404)


@pytest.mark.parametrize("sample", _ids("request"))
def test_tool_config_round_trip(sample: Any) -> None:
    """decode_tool_config then encode_tool_config reproduces the tool fields (empty/null ones aside)."""
    payload = sample.payload
    notes = Notes("strict")
    config = chat.decode_tool_config(payload, notes)
    wire = chat.encode_tool_config(config, notes)
    expected = {k: payload[k] for k in chat.tools.TOOL_FIELDS if payload.get(k) not in (None, [])}
    if "tools" in expected:  # legacy fields next to new ones stay request extras
        expected.pop("functions", None)
    if "tool_choice" in expected:
        expected.pop("function_call", None)
    assert wire == expected


def test_legacy_samples_stay_legacy() -> None:
    legacy = [s for s in samples(format="openai-chat", kind="request") if "functions" in s.payload]
    assert legacy
    for sample in legacy:
        ir = chat.decode_request(sample.payload, Notes("strict"))
        assert ir.tools and all(t.extra.get("~legacy") for t in ir.tools)
        out = chat.encode_request(ir, Notes("strict"))
        assert "functions" in out and "tools" not in out
