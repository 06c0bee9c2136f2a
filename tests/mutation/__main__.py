"""``python -m tests.mutation``: sample mutants of each target module, run them, print a table."""

from __future__ import annotations

import argparse
import difflib
import random
import signal
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.mutation._coverage import Coverage, collect
from tests.mutation._mutants import Mutant, generate
from tests.mutation._run import EQUIVALENT, KILLED, SURVIVED, TIMEOUT, UNCOVERED, Outcome, Workers

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m tests.mutation", description=__doc__)
    p.add_argument(
        "modules", nargs="*", help="repo-relative module paths (default: tests/mutation/targets.txt)"
    )
    p.add_argument("-n", "--mutants", type=int, default=60, help="mutants sampled per module (default 60)")
    p.add_argument("--all", action="store_true", help="every mutant, no sampling")
    p.add_argument("--seed", type=int, default=22, help="sampling seed (default 22)")
    p.add_argument("-j", "--jobs", type=int, default=2, help="mutants run at once (default 2)")
    p.add_argument(
        "--timeout", type=float, default=0, help="seconds per mutant (default: 4x the baseline + 60)"
    )
    p.add_argument(
        "--equivalent", type=Path, default=HERE / "equivalent.txt", help="known-equivalent mutants"
    )
    p.add_argument(
        "--report", type=Path, default=ROOT / ".mutation-cache" / "survivors.md", help="survivor report"
    )
    p.add_argument("--fresh", action="store_true", help="collect per-test coverage again, ignoring the cache")
    p.add_argument("--only", action="append", default=[], help="run only this mutant id (repeatable)")
    p.add_argument("--list", action="store_true", help="list the sampled mutants and stop")
    p.add_argument("--no-baseline", action="store_true", help="skip the unmutated run of each module's tests")
    p.add_argument(
        "--fail-under", type=float, default=0, help="exit 1 when a module scores below this percent"
    )
    return p


def _listed() -> list[str]:
    lines = (HERE / "targets.txt").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def _targets(args: argparse.Namespace) -> list[str]:
    return [str(Path(m)) for m in args.modules] if args.modules else _listed()


def _dotted(path: str) -> str:
    return ".".join(Path(path).relative_to("src").with_suffix("").parts)


def _key(ident: str) -> str:
    module, _line, _col, op, digest = ident.strip().split(":")
    return f"{module}:{op}:{digest}"


def load_equivalent(path: Path) -> dict[str, str]:
    """Mutant key (module:operator:hash) -> the reason it is equivalent."""
    out: dict[str, str] = {}
    for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        ident, _, reason = line.partition("#")
        if not reason.strip():
            sys.exit(f"{path}:{n}: an equivalent mutant needs a reason after '#'")
        module, _line, _col, op, digest = ident.strip().split(":")
        out[f"{module}:{op}:{digest}"] = reason.strip()
    return out


def sample(mutants: list[Mutant], n: int, seed: int, module: str) -> list[Mutant]:
    """``n`` mutants picked with a fixed seed per module (all of them when there are fewer)."""
    if n <= 0 or n >= len(mutants):
        return mutants
    picked = random.Random(f"{seed}:{module}").sample(sorted(mutants, key=lambda m: m.id), n)
    return sorted(picked, key=lambda m: (m.line, m.col, m.operator, m.id))


def _covering(cov: Coverage, path: str, m: Mutant) -> set[str]:
    """The tests that run the mutated lines; for a line no test runs (an unreachable ``yield``
    that makes a function a generator, say), those that run its function; for a line run only at
    import, every test of the module."""
    tests = cov.tests_for(path, range(min(m.stmt_line, m.line), m.end_line + 1))
    if tests == set() and m.function != (0, 0):
        tests = cov.tests_for(path, range(m.function[0], m.function[1] + 1))
    return cov.module_tests(path) if tests is None else tests


def _run_module(
    path: str, args: argparse.Namespace, cov: Coverage, equivalent: dict[str, str], workers: Workers
) -> list[Outcome]:
    text = (ROOT / path).read_text(encoding="utf-8")
    mutants = sample(generate(text, _dotted(path)), 0 if args.all else args.mutants, args.seed, path)
    if args.only:
        wanted = {_key(i) for i in args.only}
        mutants = [m for m in generate(text, _dotted(path)) if m.key in wanted]
    plan = [(m, _covering(cov, path, m)) for m in mutants]
    timeout = args.timeout or 600.0
    if not args.no_baseline:
        union = set().union(*(tests for m, tests in plan if m.key not in equivalent))
        if union:
            status, seconds, tail = workers.run(path, None, union, 1800)
            if status != SURVIVED:
                sys.exit(f"{path}: the unmutated module fails its own tests ({tail}); fix that first")
            timeout = args.timeout or 4 * seconds + 60
    outcomes: list[Outcome] = []

    def one(item: tuple[Mutant, set[str]]) -> Outcome:
        m, tests = item
        if m.key in equivalent:
            return Outcome(m, EQUIVALENT, 0, 0.0, equivalent[m.key])
        if not tests:
            return Outcome(m, UNCOVERED, 0, 0.0, "no test executes this line")
        status, seconds, tail = workers.run(path, m.source, tests, timeout)
        return Outcome(m, status, len(tests), seconds, tail)

    with ThreadPoolExecutor(args.jobs) as pool:
        for outcome in pool.map(one, plan):
            outcomes.append(outcome)
            o = outcome
            print(f"  {o.status:<10} {o.mutant.id} ({o.tests} tests, {o.seconds:.1f} s)", flush=True)
    return outcomes


def score(outcomes: list[Outcome]) -> tuple[dict[str, int], float]:
    """Counts per status and the score: caught (killed + timeout) / (mutants - equivalent)."""
    counts = {
        s: sum(o.status == s for o in outcomes)
        for s in (KILLED, TIMEOUT, SURVIVED, UNCOVERED, EQUIVALENT, "error")
    }
    judged = len(outcomes) - counts[EQUIVALENT]
    return counts, (100.0 * (counts[KILLED] + counts[TIMEOUT]) / judged if judged else 100.0)


def _table(results: dict[str, list[Outcome]]) -> list[str]:
    head = f"| {'module':<34} | mutants | killed | timeout | survived | uncovered | equivalent | score |"
    rows = [head, "|" + "|".join("-" * (len(c)) for c in head.split("|")[1:-1]) + "|"]
    every: list[Outcome] = []
    for path, outcomes in [*results.items(), ("total", [])]:
        if path == "total":
            outcomes = every
        else:
            every.extend(outcomes)
        c, pct = score(outcomes)
        survived = c[SURVIVED] + c["error"]
        rows.append(
            f"| {path:<34} | {len(outcomes):>7} | {c[KILLED]:>6} | {c[TIMEOUT]:>7} | {survived:>8} |"
            f" {c[UNCOVERED]:>9} | {c[EQUIVALENT]:>10} | {pct:>4.0f}% |"
        )
    return rows


def _report(path: Path, results: dict[str, list[Outcome]]) -> int:
    out = ["# Surviving mutants", ""]
    n = 0
    for module, outcomes in results.items():
        original = (ROOT / module).read_text(encoding="utf-8").splitlines(keepends=True)
        for o in outcomes:
            if o.status not in (SURVIVED, UNCOVERED, "error"):
                continue
            n += 1
            diff = difflib.unified_diff(
                original, o.mutant.source.splitlines(keepends=True), module, module, n=2
            )
            out += [
                f"## {o.mutant.id} ({o.status}, {o.tests} tests: {o.detail})",
                "",
                "```diff",
                *("".join(diff).rstrip().splitlines()),
                "```",
                "",
            ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(out), encoding="utf-8")
    return n


def main(argv: list[str] | None = None) -> int:
    """The command line."""
    args = _parser().parse_args(argv)
    targets = _targets(args)
    equivalent = load_equivalent(args.equivalent)
    if args.list:
        for path in targets:
            text = (ROOT / path).read_text(encoding="utf-8")
            for m in sample(generate(text, _dotted(path)), 0 if args.all else args.mutants, args.seed, path):
                mark = "  (equivalent)" if m.key in equivalent else ""
                print(f"{m.id}  {m.original.strip()[:50]!r} -> {m.replacement.strip()[:50]!r}{mark}")
        return 0
    started = time.monotonic()
    measured = sorted(set(_listed()) | set(targets))  # one cache serves every subset of targets.txt
    cov = collect(ROOT, measured, args.jobs, ROOT / ".mutation-cache" / "coverage.json", fresh=args.fresh)
    workers = Workers(ROOT, args.jobs)

    def interrupted(*_: object) -> None:
        workers.stop()  # kill the pytest runs in flight so the pool winds down, then clean up
        sys.exit(143)

    signal.signal(signal.SIGTERM, interrupted)
    results: dict[str, list[Outcome]] = {}
    try:
        for path in targets:
            print(f"{path}:", flush=True)
            results[path] = _run_module(path, args, cov, equivalent, workers)
    finally:
        workers.close()
    survivors = _report(args.report, results)
    print()
    print(
        f"mutation score (seed {args.seed}, {'all' if args.all else args.mutants} mutants per module, "
        f"{time.monotonic() - started:.0f} s); score = (killed + timeout) / (mutants - equivalent)"
    )
    print("\n".join(_table(results)))
    print(f"{survivors} surviving mutants with diffs: {args.report}")
    low = [p for p, o in results.items() if score(o)[1] < args.fail_under]
    return 1 if low else 0


if __name__ == "__main__":
    sys.exit(main())
