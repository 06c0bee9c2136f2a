"""Every recorded stream, translated to every other format (and to itself), as the target's SDK sees it.

Each case translates one recording with :class:`~toolwire.streaming.StreamTranslator` and
checks that the output obeys the target's event grammar (``check_stream``), that toolwire's
own decoder of the target reads it back without error (or with the source's error), and that
the official SDK of the target accumulates the same tool calls and text as toolwire's
accumulation of the source. Recordings with function/custom tool calls and failure recordings
go to every target; the others to one target each (rotating), which keeps the suite fast
while every recording and every ordered pair is exercised.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.corpus import FORMATS as ALL_FORMATS
from tests.corpus import NON_STREAMING, Sample, require_corpus
from tests.corpus import STREAM_FORMATS as FORMATS
from tests.streaming._matrix import (
    SYNTHESIZED,
    all_stream_samples,
    assert_same_calls,
    expected_view,
    has_client_calls,
    source,
    translate,
    wire_of,
)
from tests.streaming._oracles import sdk_view
from toolwire.formats._stream import WireEvent, iter_events
from toolwire.ir.accumulate import accumulate
from toolwire.streaming import check_stream, stream_decoder

# The raw stop reason each target reports (as toolwire's decoder of the target spells it) for a
# response stopped by a content filter or refused by the model. Responses has no refusal
# status: a refusal is a completed response.
_GEMINI_FILTERS = frozenset({"SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "OTHER"})
STOPPED: dict[str, dict[str, frozenset[str]]] = {
    "content_filter": {
        "openai-chat": frozenset({"content_filter"}),
        "openai-responses": frozenset({"incomplete:content_filter"}),
        "anthropic": frozenset({"refusal"}),
        "gemini": _GEMINI_FILTERS,
        "bedrock-converse": frozenset({"content_filtered", "guardrail_intervened"}),
    },
    "refusal": {
        "openai-chat": frozenset({"content_filter"}),
        "openai-responses": frozenset({"completed"}),
        "anthropic": frozenset({"refusal"}),
        "gemini": _GEMINI_FILTERS,
        "bedrock-converse": frozenset({"content_filtered"}),
    },
}


# Known bugs in a format's stream codec (reported to its owner), by case id.
KNOWN: dict[str, str] = {}


def _native_error(fmt: str, wire: list[WireEvent]) -> bool:
    """Whether ``wire`` carries ``fmt``'s own error event."""
    events = [e for e in wire if isinstance(e, dict)]
    if fmt in ("openai-chat", "gemini"):
        return any(isinstance(e.get("error"), dict) for e in events)
    if fmt == "anthropic":
        return any(e.get("type") == "error" for e in events)
    if fmt == "bedrock-converse":
        return any(name.endswith("Exception") for e in events for name in e)
    return any(e.get("type") in ("error", "response.failed") for e in events)


def _failed(sample: Sample) -> bool:
    resp = source(sample.id, sample.format).response
    return resp.error is not None or resp.stop_reason in ("content_filter", "refusal")


def _cases() -> list[Any]:
    cases: list[Any] = []
    for position, sample in enumerate(all_stream_samples()):
        src = source(sample.id, sample.format)
        if has_client_calls(src.response) or _failed(sample):
            targets = list(FORMATS)
        else:
            others = [f for f in FORMATS if f != sample.format]
            targets = [others[position % len(others)]]
        for dst in targets:
            case = f"{sample.format}>{dst}:{sample.id}"
            known = KNOWN.get(case)
            marks = [pytest.mark.xfail(strict=True, reason=known)] if known else []
            cases.append(pytest.param(sample, dst, id=case, marks=marks))
    return cases or [pytest.param(None, None, marks=pytest.mark.skip(reason="no corpus"), id="no-corpus")]


CASES = _cases()


@pytest.mark.parametrize("fmt", list(NON_STREAMING) or ["none"])
def test_formats_without_a_stream_codec_are_left_out_by_name(fmt: str) -> None:
    """A format without a stream codec is out of this matrix only because :data:`NON_STREAMING`
    names it, with its reason (shown as this test's skip)."""
    if fmt == "none":
        assert set(FORMATS) == set(ALL_FORMATS)
        return
    assert fmt not in FORMATS and fmt in ALL_FORMATS
    pytest.skip(f"{fmt}: {NON_STREAMING[fmt]}")


def test_every_pair_and_every_recording_is_covered() -> None:
    """The sampled matrix still covers all 16 ordered pairs and every recording."""
    require_corpus()
    pairs = {(c.values[0].format, c.values[1]) for c in CASES}
    assert pairs == {(a, b) for a in FORMATS for b in FORMATS}
    assert {c.values[0].id for c in CASES} == {s.id for s in all_stream_samples()}


@pytest.mark.filterwarnings("ignore::UserWarning")  # SDK serializer warnings on built-in items
@pytest.mark.parametrize(("sample", "dst"), CASES)
def test_translated_stream(sample: Sample, dst: str) -> None:
    """Valid target grammar; the target SDK sees the source's calls and text (or its failure)."""
    require_corpus()
    src = source(sample.id, sample.format)
    out = translate(wire_of(sample), sample.format, dst)
    assert check_stream(dst, out.wire) == []
    back = accumulate(iter_events(stream_decoder(dst), out.wire))
    if src.response.error is not None:
        assert back.error is not None, "the failure must reach the client"
        assert back.error.message == src.response.error.message
        assert _native_error(dst, out.wire), f"no {dst} error event"
        return
    assert back.error is None, back.error
    stopped = STOPPED.get(src.response.stop_reason or "")
    if stopped is not None:
        assert back.raw_stop_reason in stopped[dst]
    want = expected_view(src, dst)
    # The SDK's Chat chunk model knows only function fragments: custom ones are not validated.
    custom = any(c.kind == "custom" for c in src.response.tool_calls)
    got = sdk_view(dst, out.wire, strict=dst != sample.format and not (custom and dst == "openai-chat"))
    assert_same_calls(got.calls, want.calls, {n.kind for n in out.notes})
    if src.deltas_agree:
        assert (got.text, got.refusal) == (want.text, want.refusal)
    if any(c[0] == SYNTHESIZED for c in want.calls):  # synthesized ids are deterministic
        again = sdk_view(dst, translate(wire_of(sample), sample.format, dst).wire, strict=False)
        assert [c[0] for c in again.calls] == [c[0] for c in got.calls]
