"""The tool loops each CLI must finish, as data: the prompt, the emulator's scripted turns, and
what the run must leave behind.

The scripted tool calls are written as the *upstream* sees them, so the same scenario runs with the
CLI on the emulator directly (upstream = the CLI's own format) or through a gateway to an emulator
speaking another format. The one difference across formats: Codex's ``apply_patch`` is a
``custom`` tool (raw text input) on Responses and Chat, and a function with one ``input`` string
on Anthropic and Gemini (see the custom-tool shim in docs/architecture.md).

After the scripted turns the emulator answers tool results by quoting them
(``Results: <tool> -> <output>``), so :attr:`Scenario.quote` can only be in the final answer if
the CLI really ran the command (``echo answer=$((6*7))`` prints ``answer=42``) and sent the result
back.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.e2e._clients import ClientRun

__all__ = [
    "CUSTOM_AS_INPUT",
    "Scenario",
    "check_outcome",
    "claude_write_bash",
    "codex_chat_shell",
    "codex_patch_shell",
]

CUSTOM_AS_INPUT: frozenset[str] = frozenset({"anthropic", "gemini", "bedrock-converse"})
"""Upstream formats that see a custom tool as a function of one ``input`` string."""

_CONTENT = "hello from toolwire\n"
_QUOTE = "hello from toolwire\nanswer=42"


@dataclass(frozen=True, slots=True)
class Scenario:
    """One tool loop: ``prompt`` to the CLI, ``turns`` for the emulator's script, the file the
    tools must write (relative to the workdir) with its content, and the text the final answer
    must quote."""

    name: str
    prompt: str
    turns: list[dict[str, Any]]
    file: str
    content: str
    quote: str


def _custom(raw: str, upstream: str) -> Any:
    return {"input": raw} if upstream in CUSTOM_AS_INPUT else raw


def codex_patch_shell(upstream: str = "openai-responses") -> Scenario:
    """Codex (Responses wire): ``apply_patch`` adds ``hello.txt``, ``exec_command`` prints it."""
    patch = f"*** Begin Patch\n*** Add File: hello.txt\n+{_CONTENT.rstrip()}\n*** End Patch\n"
    turns = [
        {"tool_calls": [{"name": "apply_patch", "arguments": _custom(patch, upstream)}]},
        {
            "tool_calls": [
                {"name": "exec_command", "arguments": {"cmd": "cat hello.txt; echo answer=$((6*7))"}}
            ]
        },
    ]
    return Scenario(
        "patch-shell", "Create hello.txt saying hello, then print it.", turns, "hello.txt", _CONTENT, _QUOTE
    )


def codex_chat_shell(upstream: str = "openai-chat") -> Scenario:
    """Codex 0.94.0 (Chat wire): ``shell_command`` writes ``hello.txt``, then prints it."""
    write = "printf 'hello from toolwire\\n' > hello.txt"
    turns = [
        {"tool_calls": [{"name": "shell_command", "arguments": {"command": write}}]},
        {
            "tool_calls": [
                {"name": "shell_command", "arguments": {"command": "cat hello.txt; echo answer=$((6*7))"}}
            ]
        },
    ]
    return Scenario(
        "chat-shell", "Create hello.txt saying hello, then print it.", turns, "hello.txt", _CONTENT, _QUOTE
    )


def claude_write_bash(workdir: Path, upstream: str = "anthropic") -> Scenario:
    """Claude Code: ``Write`` creates ``note.txt`` (an absolute path, as the tool requires),
    ``Bash`` prints it."""
    del upstream  # both tools are plain functions in every format
    write = {"file_path": str(workdir / "note.txt"), "content": _CONTENT}
    show = {"command": "cat note.txt; echo answer=$((6*7))", "description": "Print the note"}
    turns = [
        {"tool_calls": [{"name": "Write", "arguments": write}]},
        {"tool_calls": [{"name": "Bash", "arguments": show}]},
    ]
    return Scenario(
        "write-bash", "Write note.txt saying hello, then print it.", turns, "note.txt", _CONTENT, _QUOTE
    )


def check_outcome(run: ClientRun, scenario: Scenario) -> None:
    """Assert the tools really ran: the file is written and the final answer quotes the output."""
    path = run.workdir / scenario.file
    assert path.is_file(), f"{scenario.file} was not written\n{run.describe()}"
    assert path.read_text(encoding="utf-8") == scenario.content
    assert run.final_text is not None and scenario.quote in run.final_text, run.describe()
