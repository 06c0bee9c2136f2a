"""Shared helpers for the cross-format stream tests: translate a recording, and what must survive.

The expectations are computed from the *source* side only: the toolwire accumulation of the
source decoder's IR events, mapped by the documented rules of each target (built-in provider
calls stay with their provider, Gemini pairs calls by name so foreign ids are dropped, a custom
tool's free text becomes ``{"input": text}`` where only JSON arguments exist, refusal text
becomes plain text where the target has no refusal).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

import msgspec
from benchmarks.bench_stream import anthropic_stream

from tests.corpus import STREAM_FORMATS as FORMATS
from tests.corpus import Sample, samples
from tests.streaming._oracles import Call, SdkView
from toolwire.formats._stream import WireEvent, iter_events
from toolwire.ir.accumulate import accumulate
from toolwire.ir.content import RefusalPart, TextPart, ToolCall
from toolwire.ir.notes import Note, Notes
from toolwire.ir.response import Response
from toolwire.ir.stream import PartEnd, StreamEvent
from toolwire.streaming import StreamTranslator, stream_decoder

__all__ = [
    "OPENAI",
    "SANITIZED",
    "SYNTHESIZED",
    "TRUNCATED",
    "all_stream_samples",
    "assert_same_calls",
    "benchmark_stream_in",
    "Source",
    "Translated",
    "expected_view",
    "has_client_calls",
    "source",
    "translate",
    "wire_of",
]


def benchmark_stream_in(fmt: str, size: int = 120) -> list[WireEvent]:
    """The benchmark's stream (text, then two tool calls) as ``fmt`` events, by toolwire."""
    translator = StreamTranslator("anthropic", fmt, policy="drop")
    return [out for event in anthropic_stream(size) for out in translator.feed(event)] + translator.close()


_ANTHROPIC_ID = re.compile(r"[a-zA-Z0-9_-]+")
OPENAI = frozenset({"openai-chat", "openai-responses"})
SYNTHESIZED = "<synthesized>"
"""Expected id of a call the source sent without id: the target must invent a non-empty one."""
SANITIZED = "<sanitized>"
"""Expected id of a call whose id has characters Anthropic rejects: a valid id replaces it."""
TRUNCATED = "<truncated>"
"""Expected arguments of a call whose source argument text is not complete JSON."""


def wire_of(sample: Sample) -> list[WireEvent]:
    """The recorded wire events of a stream sample (SSE data, parsed)."""
    if sample.format == "bedrock-converse":  # an event-stream frame: keyed by its event type
        return [{item.event: item.data} if item.event else item.data for item in sample.payload]
    return [item.data for item in sample.payload]


@dataclass(frozen=True)
class Source:
    """A recording decoded by its own format's decoder."""

    sample: Sample
    events: tuple[StreamEvent, ...]
    response: Response

    @property
    def deltas_agree(self) -> bool:
        """Whether the deltas add up to the final parts the wire also sent (one synthetic
        recording streams a shorter text than its ``done`` event says; no translation can
        take streamed text back, so text is compared only when they agree)."""
        without_finals = [
            msgspec.structs.replace(e, part=None) if isinstance(e, PartEnd) else e for e in self.events
        ]
        return accumulate(without_finals).text == self.response.text


@cache
def source(sample_id: str, fmt: str) -> Source:
    """The decoded recording ``sample_id`` of format ``fmt`` (cached: the corpus is read-only)."""
    sample = next(s for s in samples(fmt, "stream") if s.id == sample_id)
    events = tuple(iter_events(stream_decoder(fmt, Notes("drop")), wire_of(sample)))
    return Source(sample, events, accumulate(list(events)))


def has_client_calls(response: Response) -> bool:
    """Whether the response has function or custom tool calls (not provider built-ins)."""
    return any(c.kind != "builtin" for c in response.tool_calls)


@dataclass(frozen=True)
class Translated:
    """A recording translated to a target: its wire events and the translator's notes."""

    wire: list[WireEvent]
    notes: tuple[Note, ...]


def translate(wire: list[WireEvent], src: str, dst: str, **options: Any) -> Translated:
    """Feed every source wire event through a :class:`StreamTranslator`, then close it."""
    translator = StreamTranslator(src, dst, policy="drop", **options)
    out: list[WireEvent] = []
    for event in wire:
        out.extend(translator.feed(event))
    out.extend(translator.close())
    return Translated(out, translator.note_items)


def _expected_id(call: ToolCall, src: str, dst: str) -> str | None:
    if dst == "anthropic" and call.id is not None and not _ANTHROPIC_ID.fullmatch(call.id):
        return SANITIZED
    if call.id is not None or src == dst:
        return call.id
    return SYNTHESIZED


def _expected_args(call: ToolCall, dst: str) -> Any:
    if call.kind == "custom":
        return call.arguments if dst in OPENAI else {"input": call.arguments}
    try:
        return json.loads(call.arguments or "{}")
    except ValueError:
        return call.arguments if dst in OPENAI else TRUNCATED


def expected_view(src: Source, dst: str) -> SdkView:
    """What a ``dst`` client must see of the source recording."""
    resp, origin = src.response, src.sample.format
    calls: list[Call] = [
        (_expected_id(c, origin, dst), c.name, _expected_args(c, dst))
        for c in resp.tool_calls
        if c.kind != "builtin"
    ]
    refusal = "".join(p.text for p in resp.parts if isinstance(p, RefusalPart))
    if dst in OPENAI:
        return SdkView(calls, resp.text, refusal)
    return SdkView(calls, _text_with_refusal(resp), "")


def _text_with_refusal(resp: Response) -> str:
    """Text where refusal parts have no form of their own and are sent as text, in order."""
    return "".join(p.text for p in resp.parts if isinstance(p, (TextPart, RefusalPart)))


def assert_same_calls(got: list[Call], want: list[Call], note_kinds: set[str]) -> None:
    """``got`` (the SDK's calls) matches ``want`` (from :func:`expected_view`), rule by rule."""
    assert [c[1] for c in got] == [c[1] for c in want], "tool names"
    for (got_id, _, got_args), (want_id, name, want_args) in zip(got, want, strict=True):
        if want_id == SYNTHESIZED:
            assert isinstance(got_id, str) and got_id, f"{name}: no id synthesized"
        elif want_id == SANITIZED:
            assert isinstance(got_id, str) and _ANTHROPIC_ID.fullmatch(got_id), f"{name}: id {got_id!r}"
        else:
            assert got_id == want_id, f"{name}: id"
        if want_args == TRUNCATED:  # cut-off JSON: an object, with the loss noted, never silent
            assert isinstance(got_args, dict), name
            assert "approximated" in note_kinds or got_args, (
                f"{name}: truncated arguments became a silent {{}}"
            )
        else:
            assert got_args == want_args, f"{name}: arguments"


def all_stream_samples() -> list[Sample]:
    """Every recorded stream of every format."""
    return [s for fmt in FORMATS for s in samples(fmt, "stream")]
