"""The validator benchmark's inputs mean what its tables say (no timing here)."""

from __future__ import annotations

import pytest
from benchmarks import bench_validators as bench

from toolwire.errors import PayloadError
from toolwire.runner import Toolbox

CORE = next(c for c in bench.CANDIDATES if c.distribution == "jsonschema-rs")


@pytest.mark.parametrize("name", list(bench.FEATURES))
def test_the_core_validator_honors_every_keyword_checked(name: str) -> None:
    schema, good, bad = bench.FEATURES[name]
    assert bench._supports(CORE, schema, good, bad)


def test_fastjsonschema_is_reported_without_2020_12_keywords() -> None:
    fast = next(c for c in bench.CANDIDATES if c.distribution == "fastjsonschema")
    schema, good, bad = bench.FEATURES["prefixItems"]
    assert not bench._supports(fast, schema, good, bad)


def test_cases_are_valid_and_invalid_for_the_toolbox() -> None:
    cases = bench._cases()
    assert len(cases) == 128
    box = Toolbox()
    for index, (schema, _, _) in enumerate(cases):
        box.register_schema(f"t{index}", schema, dict)
    for entry, (_, valid, invalid) in zip(box, cases, strict=True):
        assert entry.validate(bench.orjson.dumps(valid).decode()) == valid
        with pytest.raises(PayloadError, match=r"^\$\.\w+: "):
            entry.validate(bench.orjson.dumps(invalid).decode())
