"""`toolwire demo --gateway` (README's main job): the OpenAI SDK through the gateway to Anthropic."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from toolwire.cli import main
from toolwire.cli._demo_gateway import run_gateway_demo


@pytest.fixture(autouse=True)
def _own_data_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The demo keeps its traces in the default store: here, a file of the test's own."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))


def _blocks(text: str) -> dict[str, list[object]]:
    """Each printed body by its title, in order."""
    found: dict[str, list[object]] = {}
    for title, body in re.findall(r"^--- ([^\n]+)\n(\{.*?^\})$", text, flags=re.M | re.S):
        found.setdefault(title, []).append(json.loads(body))
    return found


def test_demo_runs_a_cross_format_tool_loop_and_prints_both_sides() -> None:
    out = io.StringIO()
    answer = run_gateway_demo(out)
    blocks = _blocks(out.getvalue())
    sent, upstream = blocks["client sent (OpenAI Chat)"], blocks["gateway sent upstream (Anthropic Messages)"]
    answered, got = blocks["upstream answered (Anthropic Messages)"], blocks["client got back (OpenAI Chat)"]
    assert [len(sent), len(upstream), len(answered), len(got)] == [2, 2, 2, 2]
    # turn 1: the Anthropic tool_use comes back to the SDK as a Chat tool call with the same id
    use = next(b for b in answered[0]["content"] if b["type"] == "tool_use")  # type: ignore[index]
    call = got[0]["choices"][0]["message"]["tool_calls"][0]  # type: ignore[index]
    assert (call["id"], call["function"]["name"]) == (use["id"], "get_weather")
    assert json.loads(call["function"]["arguments"]) == use["input"]
    # turn 2: the Chat tool message went up as an Anthropic tool_result for that id
    result = upstream[1]["messages"][-1]["content"][0]  # type: ignore[index]
    assert (result["type"], result["tool_use_id"]) == ("tool_result", use["id"])
    assert upstream[0]["max_tokens"] >= 1 and "tools" in upstream[0]  # type: ignore[operator]
    assert '"temperature": 18' in answer and answer == got[1]["choices"][0]["message"]["content"]  # type: ignore[index]


def test_demo_gateway_flag_through_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--gateway"]) == 0
    printed = capsys.readouterr().out
    assert "=== turn 2: openai-chat client -> gateway -> anthropic upstream ===" in printed
    assert printed.rstrip().splitlines()[-1].startswith("answer: Results: get_weather -> ")


def test_demo_gateway_without_the_openai_sdk_exits_6_with_its_install_hint(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "openai", None)  # `import openai` now raises ImportError
    assert main(["demo", "--gateway"]) == 6
    assert capsys.readouterr().err == (
        "toolwire: error: 'toolwire demo --gateway' drives the official OpenAI SDK: pip install openai\n"
    )


def test_demo_leaves_its_traces_in_the_default_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--gateway"]) == 0
    printed = capsys.readouterr().out
    where = tmp_path / "toolwire" / "store.db"
    assert f"traces: 2 calls kept in sqlite:// ({where})\n  list them:   toolwire trace ls\n" in printed
    assert "  browse them: toolwire serve --trace, then open http://127.0.0.1:8080/ui\n" in printed
    assert main(["trace", "ls", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["status"], r["client_format"], r["upstream_format"]) for r in rows] == [
        (200, "openai-chat", "anthropic")
    ] * 2
    assert main(["trace", "show", rows[1]["id"]]) == 0
    shown = capsys.readouterr().out
    assert "--- upstream response (" in shown and '"stop_reason": "tool_use"' in shown


def test_demo_traces_go_to_the_store_given(tmp_path: Path) -> None:
    out = io.StringIO()
    url = f"sqlite://{tmp_path / 'elsewhere.db'}"
    run_gateway_demo(out, store=url)
    assert (
        f"traces: 2 calls kept in {url}\n  list them:   toolwire trace ls --store {url}\n" in out.getvalue()
    )
    assert not (tmp_path / "toolwire" / "store.db").exists()
