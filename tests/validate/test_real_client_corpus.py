"""Every request the pinned agent CLIs really sent (``tests/data/real_clients``, recorded by
``make e2e-record``) validates clean; the only warnings are the known-ignored fields listed here.

The corpus is checked in, so this runs in the default suite without npm.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests import data
from toolwire.validate import validate

CORPUS = data.HERE / "real_clients"

EXPECTED: dict[str, tuple[str, ...]] = {
    "codex-0.169.0": ("responses-tool-loop",),
    "codex-chat-0.94.0": ("chat-tool-loop",),
    "claude-code-2.1.332": ("adaptive-thinking", "no-thinking", "thinking"),
}
"""Client directory -> its scenarios: Codex on Responses and in Chat mode, Claude Code with and
without thinking (issue 16, Deliver 1)."""

KNOWN_WARNINGS: dict[tuple[str, str], str] = {
    ("openai-chat", "$.tools[*].name"): "Codex 0.94.0 Chat mode sends each function tool's name "
    "also at the tool's top level (codex-chat-0.94.0/chat-tool-loop); Chat Completions ignores it.",
}
"""(format, path with indices as ``[*]``) -> the client that sends it and why it is only a warning."""

_INDEX = re.compile(r"\[\d+\]")


def _entries() -> list[tuple[str, dict[str, Any]]]:
    return [
        (str(path.relative_to(CORPUS)), json.loads(path.read_text(encoding="utf-8")))
        for path in sorted(CORPUS.rglob("*.json"))
    ]


def _model_calls() -> list[tuple[str, dict[str, Any]]]:
    return [(name, entry) for name, entry in _entries() if entry["format"] is not None]


def test_corpus_covers_each_client_and_scenario() -> None:
    found: dict[str, set[str]] = {}
    for name, _ in _model_calls():
        client, scenario, _ = Path(name).parts
        found.setdefault(client, set()).add(scenario)
    assert {c: tuple(sorted(s)) for c, s in found.items()} == EXPECTED


def test_every_scenario_is_a_whole_tool_loop_the_server_accepted() -> None:
    by_scenario: dict[str, list[dict[str, Any]]] = {}
    for name, entry in _model_calls():
        by_scenario.setdefault(str(Path(name).parent), []).append(entry)
    for scenario, entries in by_scenario.items():
        assert [e["status"] for e in entries] == [200, 200, 200], scenario
    for _, entry in _entries():
        assert "<redacted>" not in json.dumps(entry["body"])
        assert all(
            v == "<redacted>" for k, v in entry["headers"].items() if k in {"authorization", "x-api-key"}
        )


@pytest.mark.parametrize(("name", "entry"), _model_calls(), ids=[n for n, _ in _model_calls()])
def test_real_client_request_validates_clean(name: str, entry: dict[str, Any]) -> None:
    problems = validate(entry["body"], format=entry["format"], kind="request", beta=entry["beta"])
    assert [(p.path, p.message) for p in problems] == []
    warned = validate(
        entry["body"], format=entry["format"], kind="request", beta=entry["beta"], warnings=True
    )
    unknown = {_INDEX.sub("[*]", p.path or "$") for p in warned} - {
        path for fmt, path in KNOWN_WARNINGS if fmt == entry["format"]
    }
    assert unknown == set(), name
