"""Opaque reasoning state in streams: the envelope rides in the client's stream events.

Each recorded upstream stream goes through :meth:`Exchange.stream` (and ``stream_frames``); the
client's SDK accumulates what it got and echoes it (helpers of ``test_opaque_loop``); the next
upstream request carries the upstream's own bytes.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from tests.corpus import samples
from tests.translate.test_opaque_loop import (
    SLOTTED,
    _echo_text,
    _problems,
    echo,
    first_request,
    opaque_values,
)
from toolwire import Exchange
from toolwire.ir import Notes
from toolwire.ir.accumulate import accumulate
from toolwire.opaque import open_envelope
from toolwire.streaming import stream_decoder
from toolwire.translate import format_module

STREAMED = {
    "anthropic": (
        "simonw-llm-anthropic/anthropic/test_fixed_version_tool_chain_with_thinking_display_regression.yaml#0/stream"
    ),
    "openai-responses": "vercel-ai/openai-responses/openai-reasoning-encrypted-content.1.chunks.txt",
    "gemini": "pydantic-ai/gemini/test_google_streaming_tool_call_thought_signature.yaml#0/stream",
}
"""Upstream format -> a recorded stream with opaque reasoning state."""


def streamed(fmt: str) -> list[Any]:
    found = [s for s in samples(fmt, "stream") if s.id == STREAMED[fmt]]
    assert found, STREAMED[fmt]
    return [copy.deepcopy(item.data) for item in found[0].payload]


def _accumulated(fmt: str, events: list[Any]) -> dict[str, Any]:
    """What a client SDK of ``fmt`` keeps from a stream: the whole response."""
    decoder = stream_decoder(fmt)
    ir_events = [e for event in events for e in decoder.feed(event)] + decoder.close()
    payload: dict[str, Any] = format_module(fmt).encode_response(accumulate(ir_events), Notes("drop"))
    return payload


def _client_stream(client: str, upstream: str) -> tuple[list[Any], bytes]:
    ex = Exchange(client, upstream)
    events = [out for event in streamed(upstream) for out in ex.stream(copy.deepcopy(event))]
    events += ex.stream_close()
    framed = Exchange(client, upstream)
    frames = b"".join(framed.stream_frames(copy.deepcopy(event)) for event in streamed(upstream))
    return events, frames + framed.stream_close_frames()


_STREAM_SLOTS: dict[str, Callable[[list[Any]], list[str]]] = {
    "anthropic": lambda events: [
        e["delta"]["signature"] for e in events if e.get("delta", {}).get("type") == "signature_delta"
    ],
    "openai-responses": lambda events: [
        e["item"]["encrypted_content"]
        for e in events
        if e.get("type") == "response.output_item.done" and "encrypted_content" in e["item"]
    ],
    "gemini": lambda events: [
        p["thoughtSignature"]
        for e in events
        for c in e.get("candidates", [])
        for p in c.get("content", {}).get("parts", [])
        if "thoughtSignature" in p
    ],
}
"""Client format -> the envelopes in its stream events, where its SDK reads them."""


@pytest.mark.parametrize(("client", "upstream"), [(c, u) for c in SLOTTED for u in SLOTTED if c != u])
def test_a_stream_carries_the_envelope_in_the_client_slot(client: str, upstream: str) -> None:
    events, frames = _client_stream(client, upstream)
    envelopes = _STREAM_SLOTS[client](events)
    native = [v for v in opaque_values(upstream, _accumulated(upstream, streamed(upstream))) if v]
    assert envelopes and len(envelopes) == len(native)
    for envelope in envelopes:
        found = open_envelope(envelope)
        assert found is not None and found[0] == upstream
        assert envelope.encode() in frames  # the byte path sends the same envelope
    assert not [v for v in native if v.encode() in frames]  # never the bare upstream value


@pytest.mark.parametrize(("client", "upstream"), [(c, u) for c in SLOTTED for u in SLOTTED if c != u])
def test_a_streamed_turn_comes_back_byte_exact(client: str, upstream: str) -> None:
    native = [v for v in opaque_values(upstream, _accumulated(upstream, streamed(upstream))) if v]
    events, _ = _client_stream(client, upstream)
    request = first_request(client, "get_weather")
    try:
        request = echo(client, request, _accumulated(client, events))
    except AssertionError:  # a recording without a tool call: the turn ends with text
        request = _echo_text(client, request, _accumulated(client, events))
    sent = Exchange(client, upstream, client_model="m").request(request)
    assert [v for v in opaque_values(upstream, sent) if v] == native
    assert _problems(sent, upstream) == []


def _recorded_streams() -> list[Any]:
    """Every recorded stream of a format with opaque state that has some, for each other slotted client."""
    out = []
    for upstream in SLOTTED:
        for sample in samples(upstream, "stream"):
            events = [item.data for item in sample.payload]
            if any(v for v in opaque_values(upstream, events)):
                out += [
                    pytest.param(upstream, c, sample, id=f"{c}<-{sample.id}")
                    for c in SLOTTED
                    if c != upstream
                ]
    return out


@pytest.mark.parametrize(("upstream", "client", "sample"), _recorded_streams())
def test_every_recorded_stream_comes_back_byte_exact(upstream: str, client: str, sample: Any) -> None:
    events = [copy.deepcopy(item.data) for item in sample.payload]
    native = [v for v in opaque_values(upstream, _accumulated(upstream, events)) if v]
    ex = Exchange(client, upstream)
    translated = [out for event in events for out in ex.stream(copy.deepcopy(event))] + ex.stream_close()
    answer = _accumulated(client, translated)
    request = first_request(client, "get_weather")
    try:
        request = echo(client, request, answer)
    except (AssertionError, KeyError):  # no tool call: the turn ends with text
        request = _echo_text(client, request, answer)
    sent = Exchange(client, upstream, client_model="m").request(request)
    back = [v for v in opaque_values(upstream, sent) if v]
    dropped = [n for n in ex.notes if n.kind == "dropped" and "after the turn's last text" in n.message]
    # a late signature on the turn's last text is dropped, noted; every other one comes back
    assert back == native[: len(native) - len(dropped)] and len(dropped) <= 1


_SIGNED_ANSWER = [
    {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [
                        {"text": "Checking the file.", "thought": True},
                        {"text": "Done: it says hi", "thoughtSignature": "c2lnLW9uLXRleHQ="},
                    ],
                },
                "finishReason": "STOP",
            }
        ],
        "modelVersion": "gemini-3-pro",
    }
]
"""A Gemini answer without calls whose text part carries the signature on its first chunk."""


@pytest.mark.parametrize("mode", ["stream", "response"])
def test_an_anthropic_turn_ends_with_the_signed_gemini_text(mode: str) -> None:
    ex = Exchange("anthropic", "gemini")
    if mode == "stream":
        events = [out for event in copy.deepcopy(_SIGNED_ANSWER) for out in ex.stream(event)]
        answer = _accumulated("anthropic", events + ex.stream_close())
    else:
        answer = ex.response(copy.deepcopy(_SIGNED_ANSWER[0]))
    types = [b["type"] for b in answer["content"]]
    assert types[-2:] == ["thinking", "text"] and set(types[:-1]) == {"thinking"}  # the text is last
    assert answer["content"][-1]["text"] == "Done: it says hi"
    request = _echo_text("anthropic", first_request("anthropic", "get_weather"), answer)
    sent = Exchange("anthropic", "gemini", client_model="m").request(request)
    model_parts = [p for c in sent["contents"] if c["role"] == "model" for p in c["parts"]]
    assert [p.get("text") for p in model_parts] == ["Done: it says hi"]
    assert model_parts[0]["thoughtSignature"] == "c2lnLW9uLXRleHQ="


def test_a_late_signature_on_the_last_text_is_dropped_and_noted() -> None:
    chunks = [
        {"candidates": [{"content": {"role": "model", "parts": [{"text": "Done: "}]}}]},
        {"candidates": [{"content": {"role": "model", "parts": [{"text": "it says hi"}]}}]},
        {
            "candidates": [
                {
                    "content": {"role": "model", "parts": [{"text": "", "thoughtSignature": "bGF0ZQ=="}]},
                    "finishReason": "STOP",
                }
            ]
        },
    ]
    ex = Exchange("anthropic", "gemini")
    events = [out for event in chunks for out in ex.stream(event)] + ex.stream_close()
    answer = _accumulated("anthropic", events)
    assert answer["content"] == [{"type": "text", "text": "Done: it says hi"}]
    assert [(n.path, n.kind) for n in ex.notes if "last text" in n.message] == [("$.content[0]", "dropped")]
