"""Cross-format golden cases (hub-and-spoke): the canonical model once, each format's rendering.

For every case and format: encoding the IR gives the golden payload, decoding the golden keeps
the semantics the format can carry (``tests.translate.projection``), and the golden round-trips
losslessly to its own format. For all 12 ordered pairs A -> B: translating A's golden gives B's
golden exactly whenever A carries the whole case, and otherwise what survives both formats;
A -> B -> A keeps everything the notes do not declare lost, and every change is noted.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from tests.golden._cases import Case, cases, decode, encode
from tests.translate.projection import compact_arguments, project, semantic
from toolwire.ir import FORMATS, Notes, Request
from toolwire.translate import Translation, translate_request, translate_response

CASES = cases()


def _content(data: dict[str, Any]) -> dict[str, Any]:
    """A semantic form without what formats spell differently with no loss (no note needed):
    response metadata some formats lack, usage totals and zero details, argument spacing."""
    data = {k: v for k, v in data.items() if k not in ("created", "status")}
    compact_arguments(data)
    if isinstance(data.get("usage"), dict):  # totals and zero details: reported or not
        data["usage"] = {k: v for k, v in data["usage"].items() if k != "total_tokens" and v != 0}
    return data


def _model(case: Case) -> str | None:
    ir = case.ir()
    return ir.model if isinstance(ir, Request) else None


def _translate(case: Case, payload: dict[str, Any], source: str, target: str) -> Translation:
    if case.kind == "request":
        return translate_request(payload, source=source, target=target, policy="drop", model=_model(case))
    return translate_response(payload, source=source, target=target, policy="drop")


def _decoded(case: Case, payload: dict[str, Any], fmt: str) -> dict[str, Any]:
    """``payload`` decoded from ``fmt`` in semantic form (projected onto ``fmt``, which only
    drops ids the format synthesized)."""
    return project(decode(payload, fmt, case.kind, Notes("strict"), _model(case)), fmt)


def test_every_case_is_there() -> None:
    names = {case.name for case in CASES}
    assert names >= {
        "plain_chat",
        "single_tool_call",
        "parallel_calls",
        "tool_error",
        "multimodal_tool_result",
        "reasoning_tool_call",
        "legacy_functions",
        "custom_tool",
        "structured_output",
    }
    assert {case.kind for case in CASES} == {"request", "response"}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_encoding_the_ir_gives_the_golden(case: Case, fmt: str) -> None:
    assert encode(case.ir(), fmt, Notes("drop")) == case.golden(fmt)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_decoding_the_golden_keeps_what_the_format_carries(case: Case, fmt: str) -> None:
    assert _decoded(case, case.golden(fmt), fmt) == project(case.ir(), fmt)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_golden_round_trips_to_its_own_format(case: Case, fmt: str) -> None:
    golden = case.golden(fmt)
    notes = Notes("strict")
    assert encode(decode(golden, fmt, case.kind, notes, _model(case)), fmt, notes) == golden


_PAIRS = list(itertools.permutations(FORMATS, 2))


@pytest.mark.parametrize(("source", "target"), _PAIRS, ids=[f"{a}->{b}" for a, b in _PAIRS])
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_translation_between_formats(case: Case, source: str, target: str) -> None:
    ir = case.ir()
    out = _translate(case, case.golden(source), source, target)
    if project(ir, source, exact_ids=True) == semantic(ir, exact_ids=True):  # source carries all
        assert out.payload == case.golden(target)
    assert _decoded(case, out.payload, target) == project(ir, source, target)
    if _content(project(ir, source, target)) != _content(project(ir, source)):
        assert out.notes, "a change without a note"


@pytest.mark.parametrize(("source", "target"), _PAIRS, ids=[f"{a}->{b}" for a, b in _PAIRS])
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_round_trip_keeps_what_the_notes_do_not_declare_lost(case: Case, source: str, target: str) -> None:
    ir = case.ir()
    there = _translate(case, case.golden(source), source, target)
    back = _translate(case, there.payload, target, source)
    assert _decoded(case, back.payload, source) == project(ir, source, target, source)
    if not there.notes and not back.notes:  # nothing declared: nothing changed
        assert _content(_decoded(case, back.payload, source)) == _content(
            _decoded(case, case.golden(source), source)
        )
