"""bench_pairs' targets table judges issue 18's bounds from the run's own cells (no timing here)."""

from __future__ import annotations

import gc

import pytest
from benchmarks import _targets as targets
from benchmarks import bench_pairs

RESPONSES = next(t for t in targets.TARGETS if t.section == "responses" and not t.floor)
SIZES = next(t for t in targets.TARGETS if t.section == "sizes")
INTO_CHAT = next(t for t in targets.TARGETS if t.label == "streams into Chat, Anthropic, Gemini")
INTO_RESPONSES = next(t for t in targets.TARGETS if t.label == "streams into Responses")
LITELLM = next(t for t in targets.TARGETS if t.section == "requests" and t.floor and t.bound == 5.0)


def _all(section: str, value: float, suffix: str = "") -> dict[str, float]:
    return {f"{section} {s}->{t}{suffix}": value for s, t in bench_pairs.PAIRS}


def _one(ratios: dict[str, float], target: targets.Target, column: str) -> targets.Verdict:
    return next(v for v in targets.verdicts(ratios, [target]) if v.column == column)


def test_the_issue_pairs_are_the_twelve_of_the_four_formats_not_bedrock() -> None:
    assert len(targets.ISSUE_PAIRS) == 12
    assert set(targets.ISSUE_PAIRS) == {p for p in bench_pairs.PAIRS if "bedrock-converse" not in p}


def test_the_worst_pair_decides_and_bedrock_is_not_judged() -> None:
    ratios = _all("responses", 2.0) | _all("responses", 1.5, " bytes")
    ratios["responses gemini->openai-responses"] = 3.2
    ratios["responses bedrock-converse->openai-chat"] = 9.0  # issue 21's pair: in the table only
    verdict = _one(ratios, RESPONSES, "dict API")
    assert (verdict.worst, verdict.pair, verdict.cells, verdict.met) == (
        3.2,
        ("gemini", "openai-responses"),
        12,
        False,
    )
    assert _one(ratios, RESPONSES, "bytes API").met is True


def test_a_cell_at_the_bound_meets_it() -> None:
    ratios = _all("responses", 3.0) | _all("responses", 3.0001, " bytes")
    assert _one(ratios, RESPONSES, "dict API").met is True
    assert _one(ratios, RESPONSES, "bytes API").met is False


def test_the_size_target_reads_the_thousand_message_cells_only() -> None:
    ratios = (
        _all("sizes", 9.0, " 10m/5t")
        | _all("sizes", 2.5, " 1000m/5t")
        | _all("sizes", 3.5, " 1000m/5t bytes")
    )
    assert _one(ratios, SIZES, "dict API").worst == 2.5
    assert _one(ratios, SIZES, "bytes API").met is False


def test_a_stream_target_judges_its_targets_pairs_only() -> None:
    ratios = _all("streams", 1.9)
    ratios["streams anthropic->openai-responses"] = 2.9  # the Responses target's bound, 3x
    verdict = _one(ratios, INTO_CHAT, "feed_frames")
    assert (verdict.worst, verdict.cells, verdict.met) == (1.9, 9, True)
    verdict = _one(ratios, INTO_RESPONSES, "feed_frames")  # the issue's 3x for streams into Responses
    assert (verdict.worst, verdict.pair, verdict.cells, verdict.met) == (
        2.9,
        ("anthropic", "openai-responses"),
        3,
        True,
    )
    ratios["streams gemini->openai-responses"] = 3.1
    assert _one(ratios, INTO_RESPONSES, "feed_frames").met is False


def test_a_peer_bound_is_a_floor_and_its_least_pair_decides() -> None:
    ratios = {
        "requests openai-chat->anthropic litellm": 40.0,
        "requests openai-chat->openai-responses litellm": 4.9,
    }
    verdict = _one(ratios, LITELLM, "litellm")
    assert (verdict.worst, verdict.pair, verdict.cells, verdict.met) == (
        4.9,
        ("openai-chat", "openai-responses"),
        2,
        False,
    )


def test_a_peer_exactly_five_times_slower_meets_the_bound() -> None:
    assert _one({"requests openai-chat->anthropic litellm": 5.0}, LITELLM, "litellm").met is True
    assert _one({"requests openai-chat->anthropic litellm": 4.999}, LITELLM, "litellm").met is False


def test_a_section_not_run_is_said_so_not_met() -> None:
    verdict = _one({}, RESPONSES, "dict API")
    assert (verdict.worst, verdict.met) == (None, None)
    lines = targets.summary({})
    assert all(line.endswith("not run") for line in lines[2:])
    assert len(lines) == 2 + sum(len(t.apis) for t in targets.TARGETS)


def test_the_summary_line_names_the_worst_pair_and_the_verdict() -> None:
    ratios = _all("responses", 2.0)
    ratios["responses anthropic->openai-responses"] = 3.25
    line = next(x for x in targets.summary(ratios) if x.startswith("  responses, small") and "dict API" in x)
    assert line.split()[-8:] == ["3.25x", "anthropic", "->", "responses", "12", "pairs", "NOT", "met"]
    ratios["responses anthropic->openai-responses"] = 2.5
    line = next(x for x in targets.summary(ratios) if x.startswith("  responses, small") and "dict API" in x)
    assert line.split()[-7:] == ["2.50x", "anthropic", "->", "responses", "12", "pairs", "met"]


def test_a_run_records_the_cells_the_targets_read(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The keys ``bench_pairs.run`` returns are the ones the verdicts look up (one pair, timed
    once: the cells' values are not judged here, only that they are found)."""
    monkeypatch.setattr(bench_pairs, "PAIRS", [("anthropic", "openai-responses")])
    monkeypatch.setattr(bench_pairs, "_peers", lambda: None)
    try:
        ratios = bench_pairs.run(["responses", "streams"], repeat=1)
    finally:
        gc.unfreeze()  # run() freezes what exists, as a server after start-up: not for the tests after it
    found = {(v.target.label, v.column): v.cells for v in targets.verdicts(ratios)}
    assert found[("responses, small", "dict API")] == 1
    assert found[("responses, small", "bytes API")] == 1
    assert found[("streams into Responses", "feed_frames")] == 1
    assert found[("requests, about 9 KB", "dict API")] == 0
    printed = capsys.readouterr().out
    assert "issue 18 targets" in printed and "anthropic -> responses" in printed.split("issue 18 targets")[1]
