"""Issue 13, third Done-when: ``strict`` refuses if and only if ``warn`` records a loss.

For every request and response of the fixture corpus and every other format: when the ``warn``
translation records a loss note, ``strict`` raises a ``ConversionError`` carrying that very note
(the first loss); when ``warn`` records none, ``strict`` gives the same payload and the same
(no-loss) notes. A refusal (``warn`` raises too) must be a refusal under ``strict`` as well.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tests.corpus import require_corpus, samples
from toolwire.errors import ConversionError
from toolwire.translate import Translation, translate_request, translate_response

from .test_valid_or_refused import PAIRS


def _translate(sample: Any, target: str, policy: str) -> Translation:
    if sample.kind == "request":
        model = {"model": sample.model} if sample.model else {}
        return translate_request(sample.payload, source=sample.format, target=target, policy=policy, **model)  # type: ignore[arg-type]
    return translate_response(sample.payload, source=sample.format, target=target, policy=policy)  # type: ignore[arg-type]


def _strict_agrees(sample: Any, target: str) -> str:
    """``"refused"``, ``"loss"`` or ``"clean"``; asserts that ``strict`` agrees with ``warn``."""
    try:
        warn = _translate(sample, target, "warn")
    except ConversionError:
        with pytest.raises(ConversionError):  # a refusal, or a loss found before it
            _translate(sample, target, "strict")
        return "refused"
    losses = [note for note in warn.notes if note.loss]
    if losses:
        with pytest.raises(ConversionError) as strict:
            _translate(sample, target, "strict")
        assert strict.value.notes == (losses[0],), sample.id
        return "loss"
    clean = _translate(sample, target, "strict")
    assert (clean.payload, clean.notes) == (warn.payload, warn.notes), sample.id
    return "clean"


@pytest.mark.parametrize(("kind", "source", "target"), PAIRS)
def test_strict_refuses_exactly_when_warn_records_a_loss(kind: str, source: str, target: str) -> None:
    require_corpus()
    found = samples(source, kind)
    if not found:
        pytest.skip(f"no {source} {kind} samples")
    tally = Counter(_strict_agrees(sample, target) for sample in found)
    assert tally["clean"] + tally["loss"] > 0, tally


def test_both_directions_occur_in_the_corpus() -> None:
    """Not vacuous: many conversions lose something, and many carry only no-loss notes."""
    require_corpus()
    tally: Counter[str] = Counter()
    for kind, source, target in PAIRS:
        for sample in samples(source, kind):
            try:
                notes = _translate(sample, target, "drop").notes
            except ConversionError:
                continue
            tally["loss" if any(n.loss for n in notes) else "noted, no loss" if notes else "exact"] += 1
    assert tally["loss"] > 1000 and tally["noted, no loss"] > 200, tally
