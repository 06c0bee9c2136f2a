#!/usr/bin/env python3
"""Clean-venv check: the built wheel, installed with each extra into a fresh venv, works as documented.

``make clean-venvs`` (and ``.ci/run`` after ``make test``) runs ``python .ci/clean_venvs.py``. Standard
library only. It builds the wheel once (``pip wheel --no-deps``), then for each extra in
:data:`EXTRAS` (``none`` is a plain ``pip install toolwire``) creates a venv in a temporary folder,
installs the wheel with that extra from the normal index, and runs, from a folder outside the
repository (so only the installed wheel can be imported):

* ``toolwire --version``, ``toolwire --help``, and ``toolwire <command> --help`` for every command
  in :data:`COMMANDS` (a command in ``toolwire --help`` that the table lacks is a failure);
* the pure commands on small files written into the temporary folder (:data:`CHECKS`): convert a
  Chat request to Anthropic, validate the result, ``tools convert``, ``schema`` of a tool module,
  ``replay`` of a short Anthropic SSE recording; the core library (a schema tool validates its
  arguments); a response kept in a SQLite store and listed by ``toolwire store ls``; the Redis
  store's client (the ``redis`` extra); ``toolwire emulate`` answers ``/v1/models``; ``toolwire
  run`` against it; ``toolwire demo``; ``toolwire serve`` (the gateway on its embedded emulator)
  answers a Chat completion;
* in the ``all`` venv, every ```` ```python ```` snippet of README.md, except one preceded by the line
  ``<!-- snippet: skip -->``.

A check whose extras (``needs``) the venv has must succeed. Otherwise it must exit with code 6 and
print ``pip install 'toolwire[X]'`` on standard error, where installing X as well gives the command
everything it needs. Which extras each extra installs is read from pyproject.toml.

Venvs are created without pip (the outer pip installs into them with ``--python``, pip >= 22.3) and
at most two are built and checked at a time. pip's cache (``PIP_CACHE_DIR``, else pip's default)
keeps repeated runs fast. Prints one table (check x extra) and the details of each failure; exits 1
on any failure.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import tomllib
import urllib.request
import venv
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EXTRAS = ("none", "client", "server", "models", "cli", "otel", "redis", "vertex", "bedrock", "all")
"""The installs checked; ``none`` is the wheel without extras."""
COMMANDS = (
    "convert",
    "tools",
    "schema",
    "validate",
    "replay",
    "emulate",
    "serve",
    "run",
    "demo",
    "store",
    "trace",
)
"""Every ``toolwire`` subcommand (``tools`` also has ``tools convert``)."""
SKIP_MARK = "<!-- snippet: skip -->"
HINT = re.compile(r"pip install '?toolwire\[([a-z]+)\]'?")
TIMEOUT = 180.0

CHAT_REQUEST = {
    "model": "gpt-4o",
    "messages": [{"role": "user", "content": "Weather in Paris?"}],
    "tools": [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "parameters": {
                    "type": "object",
                    "properties": {"city": {"type": "string"}},
                    "required": ["city"],
                },
            },
        }
    ],
}
TOOLS_MODULE = '''from toolwire import tool


@tool
def get_weather(city: str) -> str:
    """Current weather for a city."""
    return f"sunny in {city}"
'''
_EVENTS: list[dict[str, Any]] = [
    {
        "type": "message_start",
        "message": {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 5, "output_tokens": 1},
        },
    },
    {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hello"}},
    {"type": "content_block_stop", "index": 0},
    {
        "type": "message_delta",
        "delta": {"stop_reason": "end_turn", "stop_sequence": None},
        "usage": {"output_tokens": 2},
    },
    {"type": "message_stop"},
]
SSE = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in _EVENTS)
CORE_LIBRARY = """
from toolwire.ir import ToolCall
from toolwire.runner import Toolbox, execute_sync
box = Toolbox()
box.register_schema("add", {"type": "object", "properties": {"a": {"type": "integer"}},
                            "required": ["a"]}, lambda a: a + 1)
good, bad = execute_sync([ToolCall(id="1", name="add", arguments='{"a": 1}'),
                          ToolCall(id="2", name="add", arguments='{"a": "x"}')], box)
assert good.content[0].text == "2", good
assert bad.is_error and "$.a" in bad.content[0].text, bad
print("ok")
"""
STORE_LIBRARY = """
import asyncio
from toolwire.store import ResponseRecord, open_store
async def main():
    store = await open_store("sqlite:store.db")
    await store.put_response(ResponseRecord(id="resp_clean", created_at=0, output_items=[{"id": "msg_1"}]))
    await store.aclose()
asyncio.run(main())
print("ok")
"""
REDIS_STORE = """
import sys
from toolwire.errors import MissingDependencyError
try:
    from toolwire.store import open_store
    import asyncio
    asyncio.run(open_store("redis://127.0.0.1:1/0"))
except MissingDependencyError as exc:
    print(f"toolwire: error: {exc}", file=sys.stderr)
    sys.exit(6)
except Exception as exc:  # the redis client is installed: no server on port 1, a StoreError
    print("ok" if type(exc).__name__ == "StoreError" else repr(exc))
"""
FILES = {
    "chat.json": json.dumps(CHAT_REQUEST),
    "tools.json": json.dumps(CHAT_REQUEST["tools"]),
    "tw_tools.py": TOOLS_MODULE,
    "stream.sse": SSE,
    "core_library.py": CORE_LIBRARY,
    "store_library.py": STORE_LIBRARY,
    "redis_store.py": REDIS_STORE,
}
"""Inputs written into each venv's work folder."""


@dataclass(frozen=True, slots=True)
class Check:
    """One command run in a venv: ``argv`` after ``toolwire`` (or after ``python`` when ``python``)."""

    name: str
    argv: tuple[str, ...]
    needs: frozenset[str] = frozenset()
    output: str = ""
    python: bool = False


def _help_checks() -> list[Check]:
    checks = [Check("--version", ("--version",), output="0.1.0"), Check("--help", ("--help",))]
    checks += [Check(f"{command} --help", (command, "--help")) for command in COMMANDS]
    return [*checks, Check("tools convert --help", ("tools", "convert", "--help"))]


CHECKS: list[Check] = [
    *_help_checks(),
    Check("import (from the wheel)", ("-c", "import toolwire, sys; print(toolwire.__file__)"), python=True),
    Check("core: schema tool", ("core_library.py",), output="ok", python=True),
    Check(
        "convert",
        ("convert", "--from", "openai-chat", "--to", "anthropic", "chat.json"),
        output="input_schema",
    ),
    Check("validate", ("validate", "--format", "anthropic", "anthropic.json")),
    Check(
        "tools convert",
        ("tools", "convert", "--from", "openai-chat", "--to", "openai-responses", "tools.json"),
    ),
    Check(
        "schema", ("schema", "tw_tools:get_weather", "--format", "anthropic"), frozenset({"models"}), "city"
    ),
    Check(
        "replay",
        ("replay", "--from", "anthropic", "--to", "openai-chat", "--check", "stream.sse"),
        output="[DONE]",
    ),
    Check("demo", ("demo",), frozenset({"client", "server", "models"}), "chat -> anthropic"),
    Check("store: keep a response", ("store_library.py",), output="ok", python=True),
    Check("store ls", ("store", "ls", "--store", "sqlite:store.db"), output="resp_clean"),
    Check("trace ls", ("trace", "ls", "--json", "--store", "sqlite:store.db")),
    Check("store: redis client", ("redis_store.py",), frozenset({"redis"}), "ok", python=True),
]
"""The command checks, in table order; ``emulate`` and ``run`` are :func:`_check_emulate_and_run`."""


@dataclass(slots=True)
class Outcome:
    """What one check gave in one venv."""

    ok: bool
    detail: str = ""
    mark: str = "ok"


@dataclass(slots=True)
class Venv:
    """One fresh install: its extra, folders, and the outcome of each check."""

    extra: str
    home: Path
    has: frozenset[str]
    outcomes: dict[str, Outcome] = field(default_factory=dict)

    @property
    def bin(self) -> Path:
        return self.home / "venv" / "bin"

    @property
    def work(self) -> Path:
        return self.home / "work"


def shells(pyproject: dict[str, object]) -> dict[str, frozenset[str]]:
    """Extra -> the single-shell extras it installs (self-references like ``toolwire[a,b]`` expanded)."""
    table: dict[str, list[str]] = pyproject["project"]["optional-dependencies"]  # type: ignore[index]

    def expand(extra: str) -> frozenset[str]:
        inner = [m.group(1) for r in table[extra] if (m := re.match(r"toolwire\[([^\]]+)\]", r))]
        if not inner:
            return frozenset({extra})
        return frozenset().union(*(expand(e.strip()) for name in inner for e in name.split(",")))

    return {"none": frozenset(), **{extra: expand(extra) for extra in table if extra != "dev"}}


SHELLS = shells(tomllib.loads((ROOT / "pyproject.toml").read_text()))
"""Extra -> the single-shell extras (client, server, models, otel, redis, vertex, bedrock) it installs."""


def _env(venv_: Venv) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env.update(PATH=f"{venv_.bin}{os.pathsep}{env.get('PATH', '')}", NO_COLOR="1", PYTHONPATH=str(venv_.work))
    return env


def _run(venv_: Venv, argv: list[str], timeout: float = TIMEOUT) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            argv,
            cwd=venv_.work,
            env=_env(venv_),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        return subprocess.CompletedProcess(argv, -9, str(exc.stdout or ""), f"timed out after {timeout:g} s")


def judge(venv_: Venv, needs: frozenset[str], proc: subprocess.CompletedProcess[str], output: str) -> Outcome:
    """Success when the venv has ``needs``; else exit 6 with a hint whose extra completes the install."""
    said = f"exit {proc.returncode}; stderr: " + " | ".join(proc.stderr.strip().splitlines()[-3:])
    if needs <= venv_.has:
        if proc.returncode != 0:
            return Outcome(False, said, "FAIL")
        if output not in proc.stdout:
            return Outcome(False, f"{output!r} not in stdout: {proc.stdout.strip()[-300:]}", "FAIL")
        return Outcome(True)
    hint = HINT.search(proc.stderr)
    if proc.returncode != 6 or hint is None:
        return Outcome(False, f"expected exit 6 and a pip install hint; {said}", "FAIL")
    named = hint.group(1)
    if not needs <= venv_.has | SHELLS.get(named, frozenset()):
        return Outcome(False, f"hint names [{named}], which does not provide {sorted(needs)}", "FAIL")
    return Outcome(True, mark=f"6[{named}]")


def _check(venv_: Venv, check: Check) -> Outcome:
    exe = venv_.bin / ("python" if check.python else "toolwire")
    proc = _run(venv_, [str(exe), *check.argv])
    outcome = judge(venv_, check.needs, proc, check.output)
    if check.name == "import (from the wheel)" and outcome.ok and not proc.stdout.startswith(str(venv_.home)):
        return Outcome(False, f"imported {proc.stdout.strip()}, not the installed wheel", "FAIL")
    if check.name == "convert" and outcome.ok:
        (venv_.work / "anthropic.json").write_text(proc.stdout)
    return outcome


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_for(url: str, seconds: float = 30.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                return bool(response.status == 200)
        except OSError:
            time.sleep(0.2)
    return False


def _check_emulate_and_run(venv_: Venv) -> None:
    """``toolwire emulate`` serves; ``toolwire run`` completes a tool call against it (or both exit 6)."""
    port = _free_port()
    argv = [str(venv_.bin / "toolwire"), "emulate", "--port", str(port)]
    run_argv = [str(venv_.bin / "toolwire"), "run", "--provider", "anthropic", "--api-key", "test"]
    run_argv += ["--model", "claude-sonnet-4-5", "--base-url", f"http://127.0.0.1:{port}"]
    run_argv += ["--tools", "tw_tools", "Weather in Paris?"]
    run_needs = frozenset({"client", "models"})
    if not frozenset({"server"}) <= venv_.has:
        venv_.outcomes["emulate"] = judge(venv_, frozenset({"server"}), _run(venv_, argv, 60), "")
        venv_.outcomes["run"] = judge(venv_, run_needs, _run(venv_, run_argv, 60), "")
        return
    server = subprocess.Popen(
        argv, cwd=venv_.work, env=_env(venv_), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    try:
        up = _wait_for(f"http://127.0.0.1:{port}/v1/models")
        venv_.outcomes["emulate"] = Outcome(True) if up else Outcome(False, "no answer on /v1/models", "FAIL")
        venv_.outcomes["run"] = judge(venv_, run_needs, _run(venv_, run_argv), "sunny in Paris")
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _check_serve(venv_: Venv) -> None:
    """``toolwire serve`` (no config: the embedded emulator) answers a Chat completion (or exits 6)."""
    port = _free_port()
    argv = [str(venv_.bin / "toolwire"), "serve", "--port", str(port), "--no-access-log"]
    needs = frozenset({"client", "server"})
    if not needs <= venv_.has:
        venv_.outcomes["serve"] = judge(venv_, needs, _run(venv_, argv, 60), "")
        return
    server = subprocess.Popen(
        argv, cwd=venv_.work, env=_env(venv_), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    try:
        if not _wait_for(f"http://127.0.0.1:{port}/healthz"):
            venv_.outcomes["serve"] = Outcome(False, "no answer on /healthz", "FAIL")
            return
        body = json.dumps({"model": "gpt-5", "messages": [{"role": "user", "content": "ping"}]}).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/v1/chat/completions", body, {"content-type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            answer = json.loads(response.read())
        text = answer["choices"][0]["message"]["content"]
        ok = "ping" in text
        venv_.outcomes["serve"] = Outcome(True) if ok else Outcome(False, f"answer {text!r}", "FAIL")
    except (OSError, KeyError, ValueError) as exc:
        venv_.outcomes["serve"] = Outcome(False, f"{type(exc).__name__}: {exc}", "FAIL")
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def readme_snippets(text: str) -> list[tuple[int, str, bool]]:
    """``(line, code, skipped)`` for each ```` ```python ```` block of README.md."""
    out = []
    for match in re.finditer(r"^```python\n(.*?)^```", text, flags=re.M | re.S):
        line = text.count("\n", 0, match.start()) + 1
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1].strip()
        out.append((line, match.group(1), before == SKIP_MARK))
    return out


def _check_readme(venv_: Venv) -> None:
    for line, code, skipped in readme_snippets((ROOT / "README.md").read_text()):
        name = f"README.md:{line}"
        if skipped:
            venv_.outcomes[name] = Outcome(True, mark="skip")
            continue
        script = venv_.work / f"readme_{line}.py"
        script.write_text(code)
        venv_.outcomes[name] = judge(
            venv_, frozenset(), _run(venv_, [str(venv_.bin / "python"), str(script)]), ""
        )


def _check_commands_listed(venv_: Venv) -> None:
    """Every command ``toolwire --help`` lists is in :data:`COMMANDS` (so it is checked)."""
    proc = _run(venv_, [str(venv_.bin / "toolwire"), "--help"])
    listed = set(re.findall(r"^ {2,6}([a-z][a-z-]+) {2,}\S", proc.stdout, flags=re.M))
    listed |= {c for group in re.findall(r"\{([a-z,-]+)\}", proc.stdout) for c in group.split(",")}
    unknown = sorted(listed - set(COMMANDS))
    if not listed:
        outcome = Outcome(False, f"no command found in toolwire --help: {proc.stdout[-300:]}", "FAIL")
    elif unknown:
        outcome = Outcome(False, f"commands not in COMMANDS (add them, with their needs): {unknown}", "FAIL")
    else:
        outcome = Outcome(True)
    venv_.outcomes["commands listed"] = outcome


def build_wheel(out: Path) -> Path:
    """Build the wheel once, into ``out``."""
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(out), str(ROOT)],
        check=True,
    )
    [wheel] = out.glob("toolwire-*.whl")
    return wheel


def check_install(extra: str, wheel: Path, base: Path) -> Venv:
    """Create the venv, install the wheel with ``extra``, run every check; returns the outcomes."""
    venv_ = Venv(extra, base / extra, SHELLS[extra])
    try:
        _install_and_check(venv_, wheel)
    except Exception as exc:  # a broken step is reported with the rest, not a traceback mid-table
        venv_.outcomes["crashed"] = Outcome(False, f"{type(exc).__name__}: {exc}", "FAIL")
    return venv_


def _install_and_check(venv_: Venv, wheel: Path) -> None:
    extra = venv_.extra
    venv.create(venv_.home / "venv", with_pip=False)
    venv_.work.mkdir(parents=True)
    for name, text in FILES.items():
        (venv_.work / name).write_text(text)
    target = str(wheel) if extra == "none" else f"{wheel}[{extra}]"
    started = time.monotonic()
    pip = [sys.executable, "-m", "pip", "--python", str(venv_.bin / "python"), "install", "--quiet", target]
    proc = subprocess.run(pip, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        venv_.outcomes["install"] = Outcome(False, proc.stderr.strip()[-800:], "FAIL")
        return
    venv_.outcomes["install"] = Outcome(True, mark=f"{time.monotonic() - started:.0f}s")
    steps: list[Callable[[Venv], None]] = [_check_commands_listed, _check_emulate_and_run, _check_serve]
    for check in CHECKS:
        venv_.outcomes[check.name] = _check(venv_, check)
    for step in steps:
        step(venv_)
    if extra == "all":
        _check_readme(venv_)


def report(venvs: list[Venv]) -> bool:
    """Print the table and the failures; True when everything passed."""
    rows = list(dict.fromkeys(name for v in venvs for name in v.outcomes))
    width = max(len(row) for row in rows) + 2
    print("".ljust(width) + "".join(v.extra.rjust(11) for v in venvs))
    for row in rows:
        cells = [v.outcomes[row].mark if row in v.outcomes else "-" for v in venvs]
        print(row.ljust(width) + "".join(cell.rjust(11) for cell in cells))
    failures = [(v, name, o) for v in venvs for name, o in v.outcomes.items() if not o.ok]
    for v, name, outcome in failures:
        print(f"\nFAIL [{v.extra}] {name}: {outcome.detail}")
    return not failures


def main(argv: list[str] | None = None) -> int:
    """Build, install and check every extra; exit 1 on any failure."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--extras", default=",".join(EXTRAS), help="comma-separated (default: all of them)")
    parser.add_argument("--workers", type=int, default=2, help="venvs checked at once (at most 2)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args(argv)
    extras = [e for e in args.extras.split(",") if e]
    unknown = sorted(set(extras) - set(SHELLS))
    if unknown:
        parser.error(f"unknown extras {unknown}; known: {sorted(SHELLS)}")
    base = Path(tempfile.mkdtemp(prefix="toolwire-venvs-"))
    try:
        started = time.monotonic()
        wheel = build_wheel(base / "dist")
        print(f"built {wheel.name} in {time.monotonic() - started:.0f}s; checking {', '.join(extras)}")
        with ThreadPoolExecutor(max_workers=max(1, min(args.workers, 2))) as pool:
            venvs = list(pool.map(lambda extra: check_install(extra, wheel, base), extras))
        ok = report(venvs)
        passed = sum(o.ok for v in venvs for o in v.outcomes.values())
        failed = sum(not o.ok for v in venvs for o in v.outcomes.values())
        print(f"\ntook {time.monotonic() - started:.0f}s")
        print(f"clean-venvs: {passed} passed, {failed} failed")
        return 0 if ok else 1
    finally:
        if args.keep:
            print(f"kept {base}")
        else:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
