"""Issue 18's "Done when" lines, judged from the ratios of one ``bench_pairs`` run.

``bench_pairs.run`` returns every ratio it printed, keyed ``"<section> <source>-><target>"`` and a
suffix for the API or peer (``" bytes"``, ``" litellm"``, ``" agents"``; the size table's cells
``" 1000m/5t"`` and ``" 1000m/5t bytes"``). :func:`verdicts` reads them for the 12 ordered pairs
of the four formats the issue names and gives, per target, the worst cell of each API and
whether every pair is within the bound; :func:`summary` prints that as the run's last table,
so a claim of "met" is computed from the cells above it, never written by hand. A section that
did not run gives "not run"; Bedrock pairs (issue 21) are in the tables, not in these verdicts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["ISSUE_PAIRS", "TARGETS", "Target", "Verdict", "summary", "verdicts"]

_FORMATS = ("openai-chat", "openai-responses", "anthropic", "gemini")
ISSUE_PAIRS: tuple[tuple[str, str], ...] = tuple((s, t) for s in _FORMATS for t in _FORMATS if s != t)
"""The 12 ordered pairs of the four formats issue 18 names."""


@dataclass(frozen=True)
class Target:
    """One "Done when" bound: the cells ``"<section> <pair><suffix>"`` of the pairs whose target
    is in ``targets`` (all when empty), each at most ``bound`` (at least, when ``floor``)."""

    label: str
    section: str
    bound: float
    apis: tuple[tuple[str, str], ...]  # (column, key suffix)
    targets: tuple[str, ...] = ()
    floor: bool = False  # a peer's ratio: at least the bound


_BOTH = (("dict API", ""), ("bytes API", " bytes"))
TARGETS: tuple[Target, ...] = (
    Target("requests, about 9 KB", "requests", 2.0, _BOTH),
    Target(
        "requests, 1,000 messages",
        "sizes",
        3.0,
        (("dict API", " 1000m/5t"), ("bytes API", " 1000m/5t bytes")),
    ),
    Target("responses, small", "responses", 3.0, _BOTH),
    Target(
        "streams into Chat, Anthropic, Gemini",
        "streams",
        2.0,
        (("feed_frames", ""),),
        ("openai-chat", "anthropic", "gemini"),
    ),
    Target("streams into Responses", "streams", 3.0, (("feed_frames", ""),), ("openai-responses",)),
    Target("LiteLLM / toolwire, requests", "requests", 5.0, (("litellm", " litellm"),), floor=True),
    Target("LiteLLM / toolwire, responses", "responses", 5.0, (("litellm", " litellm"),), floor=True),
    Target("LiteLLM / toolwire, streams", "streams", 5.0, (("litellm", " litellm"),), floor=True),
    Target("Agents SDK / toolwire, requests", "requests", 1.0, (("agents", " agents"),), floor=True),
    Target("Agents SDK / toolwire, responses", "responses", 1.0, (("agents", " agents"),), floor=True),
)
"""Issue 18's bounds: toolwire ÷ the orjson floor at most ``bound``; a peer's CPU time ÷
toolwire's best API at least ``bound`` (the issue's "5x faster than LiteLLM", "faster than the
Agents SDK's converter": above 1)."""


@dataclass(frozen=True)
class Verdict:
    """A target's worst cell in one column (``None``: no cell, the section or peer did not run),
    its pair, and whether every cell of the column is within the bound."""

    target: Target
    column: str
    worst: float | None
    pair: tuple[str, str] | None
    cells: int

    @property
    def met(self) -> bool | None:
        """Every cell within the bound; ``None`` when there is none."""
        if self.worst is None:
            return None
        return self.worst >= self.target.bound if self.target.floor else self.worst <= self.target.bound


def verdicts(ratios: Mapping[str, float], targets: Sequence[Target] = TARGETS) -> list[Verdict]:
    """The verdict of each column of each target over :data:`ISSUE_PAIRS` in ``ratios``."""
    out: list[Verdict] = []
    for target in targets:
        pairs = [p for p in ISSUE_PAIRS if not target.targets or p[1] in target.targets]
        for column, suffix in target.apis:
            cells = {
                pair: ratios[key]
                for pair in pairs
                if (key := f"{target.section} {pair[0]}->{pair[1]}{suffix}") in ratios
            }
            if not cells:
                out.append(Verdict(target, column, None, None, 0))
                continue
            pick = min if target.floor else max
            pair = pick(cells, key=cells.__getitem__)
            out.append(Verdict(target, column, cells[pair], pair, len(cells)))
    return out


def _line(verdict: Verdict) -> str:
    target = verdict.target
    sign = ">=" if target.floor else "<="
    unit = "" if target.floor else "x"
    head = f"  {target.label:<36} {verdict.column:<11} {sign} {target.bound:g}{unit:<2}"
    if verdict.worst is None or verdict.pair is None:
        return head + "  not run"
    source, target_format = (
        name.removeprefix("openai-") for name in verdict.pair
    )  # bench_pairs' short names
    pair = f"{source} -> {target_format}"
    state = "met" if verdict.met else "NOT met"
    return head + f"  {verdict.worst:>6.2f}{unit:<1} {pair:<24} {verdict.cells:>2} pairs  {state}"


def summary(ratios: Mapping[str, float]) -> list[str]:
    """The lines of the run's targets table: per target and column, the worst cell of the 12
    pairs, its pair, how many pairs had a cell, and met or not."""
    lines = [
        "issue 18 targets, the 12 pairs of the four formats it names: the worst cell of this run",
        "  (a ratio to the floor at most the bound; a peer's time over toolwire's best at least it)",
    ]
    lines += [_line(v) for v in verdicts(ratios)]
    return lines
