"""The mutation runner's mutant generator and sampling: each operator's rewrite, the skipped
regions, and ids that survive unrelated edits (so ``equivalent.txt`` keeps matching)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.mutation.__main__ import load_equivalent, sample, score
from tests.mutation._mutants import generate
from tests.mutation._run import EQUIVALENT, KILLED, SURVIVED, TIMEOUT, Outcome

SOURCE = '''"""Module docstring."""

__all__ = ["f"]
LIMIT = 3
"""An attribute docstring."""
Kind = Literal["a", "b"]


def f(a: int, b: str = "x") -> bool:
    """Docstring."""
    if a < 3 and not b:
        a += 1
    return a == 2 or b is None
'''


def _by_op(source: str) -> dict[str, list[tuple[str, str]]]:
    out: dict[str, list[tuple[str, str]]] = {}
    for m in generate(source, "pkg.mod"):
        out.setdefault(m.operator, []).append((m.original, m.replacement))
    return out


def test_each_operator_rewrites_one_spot() -> None:
    ops = _by_op(SOURCE)
    assert sorted(ops) == ["bool", "cmp", "del", "int+", "int-", "not", "ret", "str"]
    assert [r for _, r in ops["cmp"]] == [" <= ", " != ", " is not "]
    assert ops["bool"] == [
        ("a < 3 and not b", "(a < 3 or not b)"),
        ("a == 2 or b is None", "(a == 2 and b is None)"),
    ]
    assert ops["not"] == [("not b", "(b)")]
    assert ops["int+"] == [("3", "4"), ("3", "4"), ("1", "2"), ("2", "3")]  # LIMIT, then in f
    assert ops["int-"] == [("3", "2"), ("3", "2"), ("1", "0"), ("2", "1")]
    assert ops["str"] == [('"x"', '""')]
    assert ops["del"] == [("a += 1", "pass")]
    assert ops["ret"] == [("a == 2 or b is None", "None")]


def test_every_mutant_parses_and_differs_in_exactly_its_spot() -> None:
    for m in generate(SOURCE, "pkg.mod"):
        assert ast.dump(ast.parse(m.source)) != ast.dump(ast.parse(SOURCE))
        before, after = SOURCE.splitlines(), m.source.splitlines()
        assert after[: m.line - 1] == before[: m.line - 1]
        assert after[m.line :] == before[m.end_line :]
        assert m.replacement in after[m.line - 1]


def test_docstrings_annotations_all_and_pragma_lines_are_not_mutated() -> None:
    originals = {m.original.strip() for m in generate(SOURCE, "pkg.mod")}
    docs = {'"""Docstring."""', '"""Module docstring."""', '"""An attribute docstring."""'}
    assert not {*docs, '"f"', '"a"', '"b"', "int", "bool", "str"} & originals
    marked = SOURCE.replace("a += 1", "a += 1  # pragma: no mutate")
    assert "a += 1" not in {m.original for m in generate(marked, "pkg.mod")}


def test_ids_do_not_depend_on_position() -> None:
    moved = SOURCE.replace('__all__ = ["f"]\n', '__all__ = ["f"]\n\nX = None\n\n')
    before = {m.key for m in generate(SOURCE, "pkg.mod")}
    after = {m.key for m in generate(moved, "pkg.mod")}
    assert before <= after
    ids = [m.id for m in generate(SOURCE, "pkg.mod")]
    assert len(set(ids)) == len(ids)
    assert all(i.startswith("pkg.mod:") and len(i.split(":")) == 5 for i in ids)


def test_sampling_is_fixed_by_the_seed() -> None:
    mutants = generate(SOURCE, "pkg.mod")
    first = [m.id for m in sample(mutants, 4, 22, "mod.py")]
    assert first == [m.id for m in sample(list(reversed(mutants)), 4, 22, "mod.py")]
    assert len(first) == 4
    assert len(sample(mutants, 1000, 22, "mod.py")) == len(mutants)


def test_score_counts_timeouts_as_caught_and_sets_equivalents_aside() -> None:
    m = generate(SOURCE, "pkg.mod")[0]
    outcomes = [Outcome(m, s, 1, 0.0) for s in (KILLED, KILLED, TIMEOUT, SURVIVED, EQUIVALENT)]
    counts, pct = score(outcomes)
    assert (counts[KILLED], counts[TIMEOUT], counts[SURVIVED], counts[EQUIVALENT]) == (2, 1, 1, 1)
    assert pct == 75.0


def test_an_equivalent_entry_needs_a_reason(tmp_path: Path) -> None:
    good = tmp_path / "eq.txt"
    good.write_text("# comment\npkg.mod:9:4:del:abcdef12  # only a cache\n", encoding="utf-8")
    assert load_equivalent(good) == {"pkg.mod:del:abcdef12": "only a cache"}
    bad = tmp_path / "bad.txt"
    bad.write_text("pkg.mod:9:4:del:abcdef12\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="needs a reason"):
        load_equivalent(bad)
