"""``record_request`` records exactly what the recording decoder records, for every request.

Notes name IR messages and parts; when one does, where each came from is recorded from the
payload and the decoded IR (``_origins``) instead of decoding again. Compared here with the
recording decoder on the corpus, on requests toolwire writes from the other formats' corpus
requests, and on items of every kind in runs that group and break groups.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.compiled import pure_only
from tests.corpus import samples
from toolwire.errors import ToolwireError
from toolwire.formats import openai_responses as resp
from toolwire.formats.openai_responses import _origins
from toolwire.ir import Notes
from toolwire.ir._where import Coord
from toolwire.translate import format_module

_ITEMS: list[dict[str, Any]] = [
    {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "s"}]},
    {"role": "assistant", "content": "a"},
    {
        "type": "message",
        "role": "assistant",
        "id": "msg_1",
        "content": [{"type": "output_text", "text": "b"}, {"type": "refusal", "refusal": "no"}],
    },
    {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "output_text", "text": "c"}, {"type": "x"}],
    },
    {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
    {"type": "web_search_call", "id": "ws_1", "status": "completed"},
    {"type": "function_call_output", "call_id": "c1", "output": "ok"},
    {"type": "custom_tool_call_output", "call_id": "c2", "output": [{"type": "input_text", "text": "t"}]},
    {"type": "message", "role": "assistant", "content": []},
    {"type": "item_reference", "id": "msg_0"},
    {
        "role": "user",
        "content": [{"type": "input_text", "text": "q"}, {"type": "input_image", "image_url": "u"}],
    },
    {"role": "developer", "content": "d"},
    {"type": "custom_tool_call", "call_id": "c2", "name": "g", "input": "x"},
    {"type": "message", "role": "assistant", "content": "e"},
    {"type": "mcp_approval_response", "approval_request_id": "a", "approve": True},
    {
        "type": "function_call_output",
        "call_id": "c3",
        "output": [{"type": "input_text", "text": "t"}, {"type": "y"}],
    },
]


def _by_decoder(payload: dict[str, Any]) -> dict[Coord, Coord]:
    recorder = Notes("drop")
    recorder.recording = True
    resp.decode_request(copy.deepcopy(payload), recorder)
    return recorder.origins


def _by_record(payload: dict[str, Any], ir: Any = None, *, again: bool = False) -> dict[Coord, Coord]:
    """Recorded by ``record_request``; ``again``: decoding again is allowed (else it fails)."""
    if ir is None:
        ir = resp.decode_request(copy.deepcopy(payload), Notes("drop"))
    recorder = Notes("drop")
    recorder.recording = True
    with pytest.MonkeyPatch.context() as patch:
        if not again:
            patch.setattr(_origins, "decode_request", _no_second_decode)
        resp.record_request(payload, ir, recorder)
    return recorder.origins


def _no_second_decode(*args: object) -> None:
    raise AssertionError("the walk did not fit: decoded again")


def _requests() -> list[dict[str, Any]]:
    out = [s.payload for s in samples("openai-responses", "request")]
    for fmt in ("openai-chat", "anthropic", "gemini", "bedrock-converse"):
        for sample in samples(fmt, "request"):
            try:
                ir = format_module(fmt).decode_request(copy.deepcopy(sample.payload), Notes("drop"))
                out.append(resp.encode_request(ir, Notes("drop")))
            except ToolwireError:
                continue
    return out


def test_every_corpus_request_is_recorded_as_the_decoder_records_it() -> None:
    requests = [p for p in _requests() if isinstance(p.get("input"), list)]
    assert len(requests) > 50
    for payload in requests:
        assert _by_record(payload) == _by_decoder(payload)


@pytest.mark.parametrize("start", range(len(_ITEMS)))
@pytest.mark.parametrize("instructions", [None, "be brief"])
def test_items_of_every_kind_are_recorded_as_the_decoder_records_them(
    start: int, instructions: str | None
) -> None:
    """Every rotation of the items: each kind next to each other, in runs and alone."""
    items = _ITEMS[start:] + _ITEMS[:start]
    payload: dict[str, Any] = {"model": "m", "input": items + items[:3]}
    if instructions is not None:
        payload["instructions"] = instructions
    assert _by_record(payload) == _by_decoder(payload)


@pytest.mark.parametrize("value", ["hello", []])
def test_a_string_or_empty_input(value: Any) -> None:
    payload = {"model": "m", "instructions": "be brief", "input": value}
    assert _by_record(payload) == _by_decoder(payload)


@pure_only
def test_an_ir_that_does_not_fit_the_items_is_recorded_by_decoding_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    payload = {"model": "m", "input": _ITEMS}
    other = resp.decode_request({"model": "m", "input": _ITEMS[:4]}, Notes("drop"))
    calls: list[object] = []
    decode = _origins.decode_request
    monkeypatch.setattr(_origins, "decode_request", lambda *args: calls.append(args) or decode(*args))
    assert _by_record(payload, other, again=True) == _by_decoder(payload)
    assert len(calls) == 1
