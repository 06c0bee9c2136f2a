"""``toolwire convert --explain``: every note, losses first, with the source snippet it points at."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.helpers import write_json
from toolwire._jsonpath import locate, segments
from toolwire.cli import main
from toolwire.cli._explain import explain
from toolwire.ir.notes import Note

CHAT = {
    "model": "gpt-4o",
    "messages": [{"role": "user", "content": "hi"}],
    "logit_bias": {"1": 2},
    "service_tier": None,
}


def test_explain_groups_losses_first_with_snippets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_json(tmp_path / "in.json", CHAT)
    assert main(["convert", "--from", "openai-chat", "--to", "anthropic", "--explain", path]) == 0
    err = capsys.readouterr().err
    assert err == (
        "1 losses (--policy strict refuses these):\n"
        "  $.logit_bias  dropped: field 'logit_bias' has no equivalent in the target format\n"
        '      source: {"1":2}\n'
        "1 changes that are no loss:\n"
        "  $  synthesized: max_tokens is required; sent 4096\n"
        "      in the target at $.max_tokens\n"
        "      source: the payload as a whole\n"
    )  # the null service_tier carries nothing: no note


def test_explain_says_when_a_path_is_not_in_the_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tools = [{"type": "function", "function": {"name": "get.weather", "parameters": {"type": "object"}}}]
    path = write_json(tmp_path / "in.json", {**CHAT, "logit_bias": None, "tools": tools})
    assert main(["convert", "--from", "openai-chat", "--to", "anthropic", "--explain", path]) == 0
    err = capsys.readouterr().err
    # the rename's path is the name in the source: its snippet is the name the user sent
    assert (
        "  $.tools[0].function.name  renamed: tool 'get.weather' sent as 'get_weather'\n"
        '      source: "get.weather"\n' in err
    )
    note = Note(path="$.messages[3].content", kind="dropped", message="m")
    assert explain([note], CHAT) == (
        "1 losses (--policy strict refuses these):\n"
        "  $.messages[3].content  dropped: m\n"
        '      source: not in the payload; nearest $.messages: [{"role":"user","content":"hi"}]\n'
    )


def test_explain_of_an_exact_conversion(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    request = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}
    path = write_json(tmp_path / "in.json", request)
    assert main(["convert", "--from", "anthropic", "--to", "openai-chat", "--explain", path]) == 0
    assert capsys.readouterr().err == "toolwire: exact conversion: nothing lost, nothing made up\n"


def test_long_snippets_are_cut_to_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_json(tmp_path / "in.json", {**CHAT, "logit_bias": {str(i): i for i in range(100)}})
    assert main(["convert", "--from", "openai-chat", "--to", "anthropic", "--explain", path]) == 0
    (line,) = [x for x in capsys.readouterr().err.splitlines() if x.startswith("      source: {")]
    assert len(line) == len("      source: ") + 100 and line.endswith("...")


def test_paths_are_read_as_toolwire_writes_them() -> None:
    doc = {"messages": [{"content": [1, {"a-b": 2, "x y": 3}]}]}
    assert segments('$.messages[0].content[1]["x y"]') == ["messages", 0, "content", 1, "x y"]
    # the older dotted spelling of a non-identifier key still reads; the path is written in brackets
    assert locate(doc, "$.messages[0].content[1].a-b") == ('$.messages[0].content[1]["a-b"]', 2, True)
    assert locate(doc, '$.messages[0].content[1]["x y"]')[1:] == (3, True)
    assert locate(doc, "$.messages[3].content") == ("$.messages", doc["messages"], False)
    assert locate(doc, "messages")[2] is False and segments("$.[") is None
