"""Same-format round trips over the whole Anthropic corpus: decode then encode is lossless.

Run under ``policy="strict"``: a same-format round trip must not drop, approximate or
synthesize anything, so any note would raise. No sample needs an exception. Samples are
sorted by the shape of their body, not by how the corpus labelled them: ``count_tokens``
answers (``{"input_tokens": N}``) are neither messages nor errors and are left out.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.corpus import samples
from toolwire.formats import ToolConfig, anthropic
from toolwire.ir import Notes, ReasoningPart


def _shape(sample: Any) -> str | None:
    body = sample.payload
    if not isinstance(body, dict):
        return None  # a plain-text error page: decoded, but an encoded error is always a JSON body
    if "messages" in body:
        return "request"
    if body.get("type") == "message":
        return "response"
    if body.get("type") == "error" or "error" in body:
        return "error"
    return None  # e.g. a count_tokens answer


_ALL = [s for s in samples("anthropic") if s.kind in ("request", "response", "error")]
_REQUESTS = [s for s in _ALL if _shape(s) == "request"]
_RESPONSES = [s for s in _ALL if _shape(s) == "response"]
_ERRORS = [s for s in _ALL if _shape(s) == "error"]


def _ids(items: list[Any]) -> list[str]:
    return [s.id for s in items]


def test_corpus_is_present() -> None:
    assert len(_REQUESTS) > 200
    assert len(_RESPONSES) > 150
    assert len(_ERRORS) >= 5


@pytest.mark.parametrize("sample", _REQUESTS, ids=_ids(_REQUESTS))
def test_request_round_trip(sample: Any) -> None:
    notes = Notes("strict")
    ir = anthropic.decode_request(sample.payload, notes)
    assert ir.origin == "anthropic"
    assert anthropic.encode_request(ir, notes) == sample.payload
    assert not notes.items


@pytest.mark.parametrize("sample", _RESPONSES, ids=_ids(_RESPONSES))
def test_response_round_trip(sample: Any) -> None:
    notes = Notes("strict")
    ir = anthropic.decode_response(sample.payload, notes)
    assert ir.origin == "anthropic"
    assert anthropic.encode_response(ir, notes) == sample.payload
    assert not notes.items


@pytest.mark.parametrize("sample", _ERRORS, ids=_ids(_ERRORS))
def test_error_round_trip(sample: Any) -> None:
    notes = Notes("strict")
    err = anthropic.decode_error(sample.payload, sample.status, notes)
    status, body = anthropic.encode_error(err, notes)
    assert body == sample.payload
    assert status == (sample.status or err.status)


_TOOL_FIELDS = ("tools", "tool_choice")


@pytest.mark.parametrize("sample", _REQUESTS, ids=_ids(_REQUESTS))
def test_tool_config_round_trip(sample: Any) -> None:
    wanted = {k: sample.payload[k] for k in _TOOL_FIELDS if k in sample.payload}
    notes = Notes("strict")
    cfg = anthropic.decode_tool_config(sample.payload, notes)
    assert isinstance(cfg, ToolConfig)
    assert anthropic.encode_tool_config(cfg, notes) == wanted


def test_thinking_signatures_survive_byte_exact() -> None:
    seen = 0
    for sample in _REQUESTS + _RESPONSES:
        payload = sample.payload
        blocks = [
            b for m in payload.get("messages", ()) if isinstance(m["content"], list) for b in m["content"]
        ]
        blocks += payload.get("content", [])
        signatures = [b["signature"] for b in blocks if b.get("type") == "thinking"]
        if not signatures:
            continue
        seen += len(signatures)
        if sample.kind == "request":
            request = anthropic.decode_request(sample.payload, Notes("strict"))
            parts = [p for m in request.messages for p in m.parts]
        else:
            parts = list(anthropic.decode_response(sample.payload, Notes("strict")).parts)
        assert [p.signature for p in parts if isinstance(p, ReasoningPart) and p.signature] == signatures
    assert seen >= 20
