"""``toolwire completion bash|zsh|fish``: valid scripts that complete commands, options and values.

Each script is checked by its own shell: syntax (``bash -n``, ``zsh -n``, ``fish --no-execute``),
then real completions. zsh's completion builtins only run inside its completion system, so
the zsh test stands in ``compadd``/``_describe``/``_files`` with functions that print what they
are given; bash and fish run their real completion machinery.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.cli.helpers import toolwire

FORMATS = (
    "openai-chat openai-responses anthropic gemini bedrock-converse"
    " chat openai responses claude google bedrock"
)


def _script(shell: str, tmp_path: Path) -> Path:
    done = toolwire("completion", shell)
    assert done.returncode == 0 and done.stderr == ""
    path = tmp_path / f"toolwire.{shell}"
    path.write_text(done.stdout, encoding="utf-8")
    return path


def _need(shell: str) -> str:
    found = shutil.which(shell)
    if found is None:
        pytest.skip(f"{shell} is not installed")
    return found


def _run(argv: list[str]) -> str:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout


BASH_CASES = [
    (["toolwire", "co"], "convert completion"),
    (["toolwire", "s"], "schema serve store"),
    (["toolwire", "tools", ""], "convert"),
    (["toolwire", "convert", "--from", ""], f"auto {FORMATS}"),
    (["toolwire", "convert", "--to", "gem"], "gemini"),
    (["toolwire", "tools", "convert", "--t"], "--to"),
    (["toolwire", "convert", "--p"], "--policy"),
    (["toolwire", "convert", "--policy", ""], "strict warn drop"),
    (["toolwire", "completion", ""], "bash zsh fish"),
    (["toolwire", "store", ""], "ls show rm"),
    (["toolwire", "store", "rm", "--s"], "--store"),
    (["toolwire", "--v"], "--version"),
    (["toolwire", "convert", "-o", ""], ""),  # a file name: bash's default completion
]


def test_bash_script_is_valid_and_completes(tmp_path: Path) -> None:
    bash = _need("bash")
    script = _script("bash", tmp_path)
    _run([bash, "-n", str(script)])
    calls = "".join(
        f"COMP_WORDS=({' '.join(repr(w) for w in words)}); COMP_CWORD={len(words) - 1}; COMPREPLY=(); "
        '_toolwire; echo "${COMPREPLY[*]}"\n'
        for words, _ in BASH_CASES
    )
    out = _run([bash, "-c", f"source {script}\n{calls}complete -p toolwire"])
    assert out.splitlines() == [want for _, want in BASH_CASES] + [
        "complete -o default -F _toolwire toolwire"
    ]


def test_zsh_script_is_valid_and_completes(tmp_path: Path) -> None:
    zsh = _need("zsh")
    script = _script("zsh", tmp_path)
    _run([zsh, "-n", str(script)])
    assert script.read_text(encoding="utf-8").startswith("#compdef toolwire\n")
    stubs = (
        "compdef() { print compdef $@ }\n"
        'compadd() { [[ $1 == -- ]] && shift; print -r -- "$*" }\n'
        '_describe() { print -rl -- "${(@P)${@[-1]}}" }\n'
        "_files() { print FILES }\n"
        "_default() { print DEFAULT }\n"
    )
    commands = [
        "convert:convert a request or response between formats",
        "tools:tool definitions",
        "schema:print the tool definition of a Python function, model or schema",
        "validate:check a request or response payload against a provider's rules",
        "replay:translate a recorded stream (SSE or Gemini JSON array)",
        "run:run a tool-calling conversation with Python tools",
        "emulate:serve the OpenAI, Anthropic and Gemini APIs with a deterministic scripted model",
        "serve:run the gateway: OpenAI, Anthropic and Gemini clients in front of any upstream",
        "demo:one tool-calling conversation through every format, offline",
        "store:list, show or delete the responses a gateway kept",
        "trace:list or show the calls a gateway traced (serve --trace)",
        "completion:print a shell completion script (bash, zsh or fish)",
    ]
    cases = [
        ("toolwire ''", commands),
        ("toolwire tools ''", ["convert:convert a tools array between formats"]),
        ("toolwire convert --from ''", [f"auto {FORMATS}"]),
        ("toolwire convert --model ''", ["DEFAULT"]),
        ("toolwire convert ''", ["FILES"]),
        ("toolwire completion ''", ["bash", "zsh", "fish"]),
        (
            "toolwire schema --",
            [
                "-h:show this help message and exit",
                "--help:show this help message and exit",
                "--format:output format",
                "--name:tool name (default: the function, class or attribute name)",
                "-o:write the result to FILE instead of standard output",
                "--output:write the result to FILE instead of standard output",
            ],
        ),
    ]
    calls = "".join(f"words=({line}); CURRENT=${{#words}}; _toolwire; print @@\n" for line, _ in cases)
    out = _run([zsh, "-f", "-c", f"{stubs}source {script}\n{calls}"])
    compdef, _, rest = out.partition("\n")
    assert compdef == "compdef _toolwire toolwire"  # sourced: registers itself
    blocks = rest.split("@@\n")
    assert [b.splitlines() for b in blocks[:-1]] == [want for _, want in cases]


def test_fish_script_is_valid_and_completes(tmp_path: Path) -> None:
    fish = _need("fish")
    script = _script("fish", tmp_path)
    _run([fish, "--no-execute", str(script)])

    def complete(line: str) -> list[str]:
        out = _run([fish, "--no-config", "-c", f"source {script}; complete -C {line!r}"])
        return [row.split("\t")[0] for row in out.splitlines()]

    assert complete("toolwire co") == ["completion", "convert"]
    assert complete("toolwire tools ") == ["convert"]
    assert complete("toolwire convert --from ") == sorted(["auto", *FORMATS.split()])
    assert "--policy" in complete("toolwire tools convert --")
    assert complete("toolwire completion ") == ["bash", "fish", "zsh"]


def test_an_unknown_shell_is_a_usage_error() -> None:
    done = toolwire("completion", "bsh")
    assert done.returncode == 2
    assert done.stderr.startswith(
        "toolwire: error: argument SHELL: invalid choice 'bsh' (did you mean 'bash'?)"
    )
