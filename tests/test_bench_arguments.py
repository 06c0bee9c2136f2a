"""The arguments benchmark's shapes and readers mean what its table says (no timing bounds here:
``tests/streaming/test_partial_parser.py`` holds those)."""

from __future__ import annotations

import orjson
import pytest
from benchmarks import bench_arguments as bench

SIZE = 3_000


@pytest.mark.parametrize("label", list(bench.SHAPES))
def test_every_reader_ends_at_the_value_of_the_whole_text(label: str) -> None:
    text = bench.SHAPES[label](SIZE)
    events = bench.stream_events(text)
    assert "".join(event.arguments for event in events) == text
    assert {len(event.arguments) for event in events[:-1]} == {bench.DELTA}
    expected = orjson.loads(text)
    assert bench.follow(events) == bench.follow_end(events) == expected
    assert bench.follow_every(events, 7) == bench.follow_every(events, 10**6) == expected
    assert bench.follow_noop(events) is None


def test_run_prints_a_row_per_shape_and_returns_the_at_end_ratios(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ratios = bench.run(size=SIZE, rounds=1)
    out = capsys.readouterr().out
    assert set(ratios) == set(bench.SHAPES) and all(ratio > 0 for ratio in ratios.values())
    assert "target: at end < 5x" in out
    assert f"of {len(bench.SHAPES)} shapes" in out
    for label in bench.SHAPES:
        assert label in out
