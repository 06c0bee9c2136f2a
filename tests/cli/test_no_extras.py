"""With no extras (only msgspec): ``--help`` everywhere and the pure commands work; ``run``,
``emulate`` and ``demo`` exit 6 naming the extra to install.

The real command runs in a subprocess whose ``sys.meta_path`` blocks every package an extra
installs (:data:`tests.cli.helpers.BLOCKED`), as in a fresh ``pip install toolwire``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.helpers import blocked_env, toolwire, write_json
from tests.cli.payloads import REQUESTS, RESPONSES
from toolwire.cli import build_parser
from toolwire.cli._completion import Command, command_tree


def _tree() -> dict[tuple[str, ...], Command]:
    found: dict[tuple[str, ...], Command] = {}
    stack = [command_tree(build_parser())]
    while stack:
        cmd = stack.pop()
        found[cmd.words[1:]] = cmd
        stack.extend(cmd.commands)
    return found


def _commands() -> list[tuple[str, ...]]:
    return sorted(_tree())


def test_every_command_is_covered() -> None:
    top = [
        "completion",
        "convert",
        "demo",
        "emulate",
        "replay",
        "run",
        "schema",
        "serve",
        "store",
        "tools",
        "trace",
        "validate",
    ]
    store = [("store", "ls"), ("store", "rm"), ("store", "show"), ("trace", "ls"), ("trace", "show")]
    assert _commands() == sorted([(), *[(name,) for name in top], ("tools", "convert"), *store])


@pytest.mark.parametrize("words", _commands(), ids=lambda w: " ".join(w) or "toolwire")
def test_help_of_every_command_works_without_extras(words: tuple[str, ...], tmp_path: Path) -> None:
    done = toolwire(*words, "--help", block_dir=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"usage: {' '.join(('toolwire', *words))} ") and done.stderr == ""
    listed = " ".join(done.stdout.partition("\noptions:\n")[2].split())  # help text, unwrapped
    for option in _tree()[words].options:
        assert f"{option.flags[-1]}" in listed and " ".join(option.help.split()) in listed, option.flags


@pytest.mark.parametrize(
    ("words", "extra"),
    [
        (["run", "hi"], "client"),
        (["run", "--tools", "some_module", "hi"], "cli"),  # Python tools need pydantic too
        (["emulate"], "server"),
        (["serve"], "cli"),  # the gateway: httpx (client) and uvicorn (server)
        (["demo"], "cli"),
    ],
)
def test_commands_needing_an_extra_exit_6_naming_it(words: list[str], extra: str, tmp_path: Path) -> None:
    done = toolwire(*words, block_dir=tmp_path)
    assert (done.returncode, done.stdout) == (6, "")
    hint = f"'toolwire {words[0]}' needs the {extra} extra: pip install 'toolwire[{extra}]'"
    assert done.stderr == f"toolwire: error: {hint}\n"


def test_pure_commands_work_without_extras(tmp_path: Path) -> None:
    request = write_json(tmp_path / "req.json", REQUESTS["anthropic"])
    done = toolwire("convert", "--to", "gemini", request, block_dir=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["contents"][0]["parts"] == [{"text": "Weather in Paris?"}]
    done = toolwire(
        "convert",
        "--kind",
        "response",
        "--to",
        "anthropic",
        write_json(tmp_path / "r.json", RESPONSES["gemini"]),
        block_dir=tmp_path,
    )
    assert done.returncode == 0 and json.loads(done.stdout)["content"] == [{"type": "text", "text": "Sunny."}]
    tools = write_json(tmp_path / "tools.json", REQUESTS["openai-chat"]["tools"])
    done = toolwire("tools", "convert", "--to", "anthropic", tools, block_dir=tmp_path)
    assert done.returncode == 0 and json.loads(done.stdout)[0]["name"] == "get_weather"
    done = toolwire("validate", "--format", "anthropic", request, block_dir=tmp_path)
    assert (done.returncode, done.stdout) == (0, ""), done.stderr
    recording = tmp_path / "rec.json"
    recording.write_text(json.dumps([RESPONSES["gemini"]]), encoding="utf-8")
    done = toolwire(
        "replay", "--from", "gemini", "--to", "openai-chat", "--check", str(recording), block_dir=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith("data: [DONE]\n\n")
    done = toolwire("completion", "bash", block_dir=tmp_path)
    assert done.returncode == 0 and "complete -o default -F _toolwire toolwire" in done.stdout


def test_schema_without_pydantic_takes_a_json_schema_and_names_the_models_extra_for_functions(
    tmp_path: Path,
) -> None:
    (tmp_path / "cli_tools_mod.py").write_text(
        "ARGS = {'type': 'object', 'properties': {'city': {'type': 'string'}}}\n"
        "def get_weather(city: str) -> str:\n    return city\n",
        encoding="utf-8",
    )
    block = tmp_path / "block"
    block.mkdir()
    done = toolwire("schema", "cli_tools_mod:ARGS", "--name", "get_weather", cwd=tmp_path, block_dir=block)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["function"]["name"] == "get_weather"
    done = toolwire("schema", "cli_tools_mod:get_weather", cwd=tmp_path, block_dir=block)
    assert done.returncode == 6
    assert done.stderr == (
        "toolwire: error: building tools from Python needs the models extra: pip install 'toolwire[models]'\n"
    )


def test_a_tools_module_that_needs_an_extra_at_import_exits_6_naming_it(tmp_path: Path) -> None:
    (tmp_path / "cli_decorated_mod.py").write_text(
        "from toolwire import tool\n\n@tool\ndef get_weather(city: str) -> str:\n    return city\n",
        encoding="utf-8",
    )
    block = tmp_path / "block"
    block.mkdir()
    done = toolwire("schema", "cli_decorated_mod:get_weather", cwd=tmp_path, block_dir=block)
    assert (done.returncode, done.stdout) == (6, "")
    assert done.stderr == (
        "toolwire: error: building tools from Python needs the models extra: pip install 'toolwire[models]'\n"
    )


def test_library_shells_name_their_extra(tmp_path: Path) -> None:
    code = (
        "import toolwire\n"
        "for name in ('toolwire.client', 'toolwire.emulator'):\n"
        "    try:\n"
        "        __import__(name)\n"
        "    except toolwire.MissingDependencyError as exc:\n"
        "        print(isinstance(exc, ImportError), exc.extra, exc.missing, exc)\n"
    )
    env = {**os.environ, **blocked_env(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert out.stdout.splitlines() == [
        "True client ('httpx', 'tenacity') "
        "toolwire.client needs the client extra: pip install 'toolwire[client]'",
        "True server ('starlette',) toolwire.emulator needs the server extra: pip install 'toolwire[server]'",
    ], out.stderr
