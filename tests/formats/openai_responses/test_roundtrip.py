"""Same-format round trip over every recorded Responses payload: encode(decode(x)) == x."""

from __future__ import annotations

from typing import Any

import pytest

from tests.corpus import samples
from toolwire.formats import openai_responses as resp
from toolwire.formats.openai_responses.tools import TOOL_FIELDS
from toolwire.ir import Notes, ReasoningPart

FORMAT = "openai-responses"


def _params(kind: str) -> list[Any]:
    return [pytest.param(s, id=s.id) for s in samples(format=FORMAT, kind=kind)]


def test_corpus_is_there() -> None:
    assert len(samples(format=FORMAT, kind="request")) > 150
    assert len(samples(format=FORMAT, kind="response")) > 150
    assert len(samples(format=FORMAT, kind="error")) >= 5


@pytest.mark.parametrize("sample", _params("request"))
def test_request_round_trip(sample: Any) -> None:
    notes = Notes("strict")
    ir = resp.decode_request(sample.payload, notes)
    assert ir.origin == FORMAT
    assert resp.encode_request(ir, notes) == sample.payload
    assert not notes.items


@pytest.mark.parametrize("sample", _params("response"))
def test_response_round_trip(sample: Any) -> None:
    notes = Notes("strict")
    ir = resp.decode_response(sample.payload, notes)
    assert ir.origin == FORMAT
    if sample.payload.get("object") == "response":
        assert len(ir.parts) >= len(sample.payload.get("output") or ())
    assert resp.encode_response(ir, notes) == sample.payload
    assert not notes.items


@pytest.mark.parametrize("sample", _params("error"))
def test_error_round_trip(sample: Any) -> None:
    notes = Notes("strict")
    info = resp.decode_error(sample.payload, sample.status, notes)
    assert info.message
    status, body = resp.encode_error(info, notes)
    assert body == sample.payload
    assert status == (sample.status or info.status)
    assert 400 <= status < 500


@pytest.mark.parametrize("sample", _params("request"))
def test_tool_config_round_trip(sample: Any) -> None:
    """decode_tool_config then encode_tool_config reproduces the tool fields (empty/null ones aside)."""
    payload = sample.payload
    notes = Notes("strict")
    wire = resp.encode_tool_config(resp.decode_tool_config(payload, notes), notes)
    assert wire == {k: payload[k] for k in TOOL_FIELDS if payload.get(k) not in (None, [])}


def _encrypted(payload: dict[str, Any], key: str) -> list[str]:
    items = payload.get(key)
    if not isinstance(items, list):
        return []
    return [
        i["encrypted_content"] for i in items if i.get("type") == "reasoning" and i.get("encrypted_content")
    ]


def test_encrypted_reasoning_is_carried_byte_exact() -> None:
    """Every encrypted reasoning blob lands in the IR with its item id and comes back unchanged."""
    seen = 0
    for sample in samples(format=FORMAT, kind="request") + samples(format=FORMAT, kind="response"):
        key = "input" if sample.kind == "request" else "output"
        blobs = _encrypted(sample.payload, key)
        if not blobs:
            continue
        if sample.kind == "request":
            ir_parts = [p for m in resp.decode_request(sample.payload, Notes()).messages for p in m.parts]
        else:
            ir_parts = list(resp.decode_response(sample.payload, Notes()).parts)
        reasoning = [p for p in ir_parts if isinstance(p, ReasoningPart) and p.encrypted]
        assert [p.encrypted for p in reasoning] == blobs
        assert all(p.origin == FORMAT and p.id and p.id.startswith("rs_") for p in reasoning)
        seen += len(blobs)
    assert seen > 50
