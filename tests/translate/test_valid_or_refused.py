"""Issue 13, first Done-when: every translation is a payload the target accepts, or a refusal.

For every request and response of the fixture corpus and every other format, the translated
payload passes :func:`toolwire.validate` for the target with zero problems, or the translation
raised :class:`~toolwire.errors.ConversionError`. Notes never excuse an invalid payload, so the
``drop`` policy (record everything, raise nothing) is used: only a refusal may raise.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tests.corpus import FORMATS, require_corpus, samples
from toolwire import validate
from toolwire.errors import ConversionError
from toolwire.translate import translate_request, translate_response

PAIRS = [
    (kind, source, target)
    for kind in ("request", "response")
    for source in FORMATS
    for target in FORMATS
    if source != target
]


def translate(sample: Any, target: str) -> dict[str, Any]:
    """The sample translated to ``target`` under the ``drop`` policy (raises on refusal)."""
    if sample.kind == "request":
        model = {"model": sample.model} if sample.model else {}
        return translate_request(
            sample.payload, source=sample.format, target=target, policy="drop", **model
        ).payload  # type: ignore[arg-type]
    return translate_response(sample.payload, source=sample.format, target=target, policy="drop").payload  # type: ignore[arg-type]


def outcome(sample: Any, target: str) -> tuple[str, list[str]]:
    """``("valid", [])``, ``("refused", [message])`` or ``("invalid", problems)``."""
    try:
        out = translate(sample, target)
    except ConversionError as exc:
        assert str(exc), "a refusal says why"
        return "refused", [str(exc)]
    problems = validate(out, format=target, kind=sample.kind)  # type: ignore[arg-type]
    return ("invalid", [str(p) for p in problems]) if problems else ("valid", [])


@pytest.mark.parametrize(("kind", "source", "target"), PAIRS)
def test_corpus_translations_are_valid_or_refused(kind: str, source: str, target: str) -> None:
    require_corpus()
    found = samples(source, kind)
    if not found:
        pytest.skip(f"no {source} {kind} samples")
    tally: Counter[str] = Counter()
    invalid: list[str] = []
    for sample in found:
        result, details = outcome(sample, target)
        tally[result] += 1
        if result == "invalid":
            invalid.append(f"{sample.id}: {details}")
    assert not invalid, f"{len(invalid)} invalid {target} payloads:\n" + "\n".join(invalid[:20])
    assert tally["valid"] > tally["refused"], tally


def test_the_corpus_is_large_enough_to_mean_something() -> None:
    require_corpus()
    assert len(samples(kind="request")) > 500
    assert len(samples(kind="response")) > 500
