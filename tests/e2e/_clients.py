"""Run the real agent CLIs (Codex, Claude Code) non-interactively against any base URL.

The CLIs come from ``e2e/package.json`` (``make e2e`` installs them with ``npm ci``). Each run gets
its own HOME and config directory under ``home``, a dummy key, the CLIs' update checks, telemetry
and non-essential traffic turned off, no retries (Codex ``request_max_retries``/``stream_max_retries``
0, ``CLAUDE_CODE_MAX_RETRIES=0``: an error shows at once; Codex still waits and reconnects on a
refused connection, until ``timeout``), every proxy variable pointed at a loopback
:class:`~tests.e2e._egress.Sinkhole`, and (unless ``trace=False``) a trace of every
``connect``/``sendto``/``sendmsg`` (see :mod:`tests.e2e._egress`). The caller asserts on the
:class:`ClientRun` (``check_ok`` adds the egress checks and the full output to the message).

========================  ===============================  =====================================
client                    base URL given as                how it is set
========================  ===============================  =====================================
Codex (``responses``)     server root, ``/v1`` appended    ``config.toml`` ``model_providers``
                                                           ``base_url``, ``wire_api``
Codex (``chat``)          server root, ``/v1`` appended    same, on ``codex-chat`` (0.94.0, the
                                                           last Codex with ``wire_api = "chat"``)
Claude Code               server root                      ``ANTHROPIC_BASE_URL``
========================  ===============================  =====================================

``OPENAI_BASE_URL`` is also set to the base URL so that Codex's built-in OpenAI calls (the model
list refresh of 0.94.0 goes to ``https://api.openai.com/v1/models`` otherwise) stay on loopback.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import pytest

from tests.e2e._egress import Sinkhole, endpoints, outside, proxy_env

__all__ = [
    "CLIENT_PACKAGES",
    "CODEX_FEATURES_OFF",
    "DUMMY_KEY",
    "E2E_DIR",
    "ClientRun",
    "WireApi",
    "check_ok",
    "client_version",
    "installed",
    "require",
    "run_claude",
    "run_codex",
]

E2E_DIR = Path(__file__).resolve().parents[2] / "e2e"
"""The npm project pinning the CLIs (``e2e/package.json``, ``e2e/package-lock.json``)."""

WireApi = Literal["responses", "chat"]

CLIENT_PACKAGES: dict[str, tuple[str, str]] = {
    "codex": ("@openai/codex", "bin/codex.js"),
    "codex-chat": ("codex-chat", "bin/codex.js"),
    "claude-code": ("@anthropic-ai/claude-code", "bin/claude.exe"),
}
"""Client name -> (package directory under ``e2e/node_modules``, entry point in it)."""

DUMMY_KEY = "sk-toolwire-e2e-dummy"
"""The API key every client is given (never a real one; the emulator accepts any key)."""

_CODEX_KEY_ENV = "TOOLWIRE_E2E_KEY"
_BASE_ENV = ("PATH", "LANG", "LC_ALL", "TZ")


def _package_dir(client: str) -> Path:
    return E2E_DIR / "node_modules" / CLIENT_PACKAGES[client][0]


def installed(client: str) -> bool:
    """Whether ``make e2e`` (``npm ci --prefix e2e``) installed ``client``."""
    package, entry = CLIENT_PACKAGES[client]
    return (E2E_DIR / "node_modules" / package / entry).is_file()


def require(client: str) -> None:
    """Fail (not skip) when the pinned CLI is missing: the ``e2e`` marker asked for it."""
    if not installed(client):
        pytest.fail(f"{client} is not installed: run `make e2e` (npm ci --prefix e2e)")


def client_version(client: str) -> str:
    """The installed version of ``client`` (from its ``package.json``)."""
    manifest = json.loads((_package_dir(client) / "package.json").read_text(encoding="utf-8"))
    return str(manifest["version"])


@dataclass(slots=True)
class ClientRun:
    """One finished CLI run: what ran, what it printed, how long, and where it tried to go."""

    client: str
    version: str
    argv: list[str]
    returncode: int | None
    stdout: str
    stderr: str
    seconds: float
    home: Path
    workdir: Path
    timed_out: bool = False
    proxied: list[str] = field(default_factory=list)
    reached: list[str] | None = None

    @property
    def outside(self) -> list[str] | None:
        """The endpoints outside loopback the client connected or sent to (None: not traced)."""
        return None if self.reached is None else outside(self.reached)

    @property
    def events(self) -> list[dict[str, Any]]:
        """The JSON objects the CLI printed one per line (Codex ``--json``, Claude stream-json)."""
        out = []
        for line in self.stdout.splitlines():
            line = line.strip()
            if line.startswith("{"):
                try:
                    out.append(json.loads(line))
                except ValueError:
                    continue
        return out

    @property
    def final_text(self) -> str | None:
        """The agent's final answer: Codex's last ``agent_message``, Claude's ``result``."""
        if self.client == "claude-code":
            results = [e for e in self.events if e.get("type") == "result"]
            return str(results[-1].get("result")) if results else None
        messages = [
            e["item"].get("text")
            for e in self.events
            if e.get("type") == "item.completed" and e.get("item", {}).get("type") == "agent_message"
        ]
        return str(messages[-1]) if messages else None

    def describe(self) -> str:
        """Everything needed to debug a failed run (full stdout and stderr)."""
        return (
            f"{self.client} {self.version}: exit {self.returncode}"
            f"{' (timed out)' if self.timed_out else ''} after {self.seconds:.1f}s\n"
            f"argv: {self.argv}\nproxied: {self.proxied}\nreached: {self.reached}\n"
            f"--- stdout ---\n{self.stdout}\n--- stderr ---\n{self.stderr}"
        )


def check_ok(run: ClientRun, base_url: str | None = None) -> None:
    """Assert the run exited 0 in time and reached nothing outside loopback; with ``base_url``,
    also that the trace saw the client connect to it (so the audit watched the client's sockets)."""
    assert not run.timed_out and run.returncode == 0, run.describe()
    if base_url is not None and run.reached is not None:
        port = base_url.rstrip("/").rsplit(":", 1)[1]
        assert any(e.endswith(f":{port}") for e in run.reached), (
            f"the trace missed {base_url}\n{run.describe()}"
        )
    assert run.proxied == [], f"non-loopback requests sent to the proxy sinkhole\n{run.describe()}"
    assert not run.outside, f"connections outside loopback\n{run.describe()}"


def _base_env(home: Path, hole: Sinkhole) -> dict[str, str]:
    env = {k: os.environ[k] for k in _BASE_ENV if k in os.environ}
    env.update(HOME=str(home), TMPDIR=str(home / "tmp"), TERM="dumb", NO_COLOR="1", CI="1")
    env.update(proxy_env(hole))
    (home / "tmp").mkdir(parents=True, exist_ok=True)
    return env


CODEX_FEATURES_OFF: tuple[str, ...] = ("plugins", "remote_plugin", "plugin_sharing", "apps", "in_app_updates")
"""Features of the current Codex turned off: each fetches from GitHub or chatgpt.com at startup
(the curated-plugin sync tries ``github.com/openai/plugins`` and ``chatgpt.com/backend-api``)."""


def _codex_config(base_url: str, wire_api: WireApi, model: str) -> str:
    features = ["[features]", *(f"{name} = false" for name in CODEX_FEATURES_OFF)]
    return "\n".join(
        [
            f'model = "{model}"',
            'model_provider = "toolwire"',
            "check_for_update_on_startup = false",
            "[analytics]",
            "enabled = false",
            "[model_providers.toolwire]",
            'name = "toolwire"',
            f'base_url = "{base_url.rstrip("/")}/v1"',
            f'env_key = "{_CODEX_KEY_ENV}"',
            f'wire_api = "{wire_api}"',
            "request_max_retries = 0",
            "stream_max_retries = 0",
            "stream_idle_timeout_ms = 60000",
            *(features if wire_api == "responses" else []),
            "",
        ]
    )


def run_codex(
    base_url: str,
    wire_api: WireApi,
    workdir: Path,
    prompt: str,
    *,
    home: Path,
    sinkhole: Sinkhole,
    model: str | None = None,
    timeout: float = 120.0,
    trace: bool = True,
) -> ClientRun:
    """Run ``codex exec --json`` in ``workdir`` against ``base_url`` speaking ``wire_api``.

    Args:
        base_url: the server root (``http://127.0.0.1:PORT``); ``/v1`` is appended, as Codex's
            provider ``base_url`` is the OpenAI SDK's.
        wire_api: ``responses`` (``@openai/codex``, pinned current) or ``chat`` (``codex-chat``,
            0.94.0, the last release that has it).
        workdir: the agent's working root (``-C``); tools run there.
        prompt: the user's instruction.
        home: an empty directory for HOME and ``CODEX_HOME``.
        sinkhole: the proxy every non-loopback request goes to.
        model: the model name; default ``gpt-5.5`` (Responses: in the pinned Codex's bundled
            catalog, so it gets the ``apply_patch`` tool) or ``gpt-5.1-codex`` (Chat, 0.94.0).
        timeout: seconds before the CLI's process group is killed.
        trace: run under ``strace`` (the egress audit; ``RuntimeError`` when it is missing).
    """
    client = "codex" if wire_api == "responses" else "codex-chat"
    model = model or ("gpt-5.5" if wire_api == "responses" else "gpt-5.1-codex")
    codex_home = home / ".codex"
    codex_home.mkdir(parents=True, exist_ok=True)
    (codex_home / "config.toml").write_text(_codex_config(base_url, wire_api, model), encoding="utf-8")
    env = _base_env(home, sinkhole)
    env.update(
        {
            "CODEX_HOME": str(codex_home),
            _CODEX_KEY_ENV: DUMMY_KEY,
            "OPENAI_BASE_URL": f"{base_url.rstrip('/')}/v1",
            "RUST_LOG": "warn",
        }
    )
    entry = _package_dir(client) / CLIENT_PACKAGES[client][1]
    argv = [
        shutil.which("node") or "node",
        str(entry),
        "exec",
        "--json",
        "--skip-git-repo-check",
        "--dangerously-bypass-approvals-and-sandbox",
        "-C",
        str(workdir),
        prompt,
    ]
    return _run(client, argv, env, workdir, home, sinkhole, timeout, trace)


def _thinking_env(thinking: bool | int | None) -> dict[str, str]:
    if thinking is None:
        return {}
    if thinking is False:
        return {"MAX_THINKING_TOKENS": "0"}
    return {"MAX_THINKING_TOKENS": str(4096 if thinking is True else thinking)}


def run_claude(
    base_url: str,
    workdir: Path,
    prompt: str,
    *,
    home: Path,
    sinkhole: Sinkhole,
    thinking: bool | int | None = None,
    model: str = "claude-sonnet-4-5",
    tools: tuple[str, ...] = ("Bash", "Write"),
    max_turns: int = 8,
    timeout: float = 120.0,
    trace: bool = True,
) -> ClientRun:
    """Run ``claude -p --output-format stream-json`` in ``workdir`` against ``base_url``.

    Args:
        base_url: the server root, as ``ANTHROPIC_BASE_URL`` takes it (Claude Code appends
            ``/v1/messages?beta=true``).
        workdir: the working directory; tools run there.
        prompt: the user's instruction.
        home: an empty directory for HOME and ``CLAUDE_CONFIG_DIR``.
        sinkhole: the proxy every non-loopback request goes to.
        thinking: ``False`` sends ``thinking: {"type": "disabled"}`` (``MAX_THINKING_TOKENS=0``),
            ``True`` a 4096-token budget, an int that budget, ``None`` the CLI's default for
            ``model`` (a budget for 4.5 models, ``adaptive`` for 4.6 ones).
        model: ``ANTHROPIC_MODEL`` (also the small/fast model, so no request names another).
        tools: the tools allowed without a prompt (``--allowedTools``).
        max_turns: ``--max-turns``.
        timeout: seconds before the CLI's process group is killed.
        trace: run under ``strace`` (the egress audit; ``RuntimeError`` when it is missing).
    """
    config = home / ".claude"
    config.mkdir(parents=True, exist_ok=True)
    env = _base_env(home, sinkhole)
    env.update(
        {
            "CLAUDE_CONFIG_DIR": str(config),
            "ANTHROPIC_BASE_URL": base_url.rstrip("/"),
            "ANTHROPIC_API_KEY": DUMMY_KEY,
            "ANTHROPIC_MODEL": model,
            "ANTHROPIC_SMALL_FAST_MODEL": model,
            "ANTHROPIC_DEFAULT_HAIKU_MODEL": model,
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_ERROR_REPORTING": "1",
            "CLAUDE_CODE_MAX_RETRIES": "0",
            **_thinking_env(thinking),
        }
    )
    entry = _package_dir("claude-code") / CLIENT_PACKAGES["claude-code"][1]
    argv = [
        str(entry),
        "-p",
        prompt,
        "--output-format",
        "stream-json",
        "--verbose",
        "--allowedTools",
        ",".join(tools),
        "--max-turns",
        str(max_turns),
        "--no-session-persistence",
        "--strict-mcp-config",
    ]
    return _run("claude-code", argv, env, workdir, home, sinkhole, timeout, trace)


def _run(
    client: str,
    argv: list[str],
    env: dict[str, str],
    workdir: Path,
    home: Path,
    sinkhole: Sinkhole,
    timeout: float,
    trace: bool,
) -> ClientRun:
    strace = shutil.which("strace") if trace else None
    if trace and strace is None:
        raise RuntimeError("the egress audit needs strace (apt-get install strace), or pass trace=False")
    trace_file = home / "egress.strace"
    command = argv
    if strace:
        spec = "trace=connect,sendto,sendmsg"
        command = [strace, "-f", "-qq", "--seccomp-bpf", "-e", spec, "-o", str(trace_file), *argv]
    started = time.monotonic()
    proc = subprocess.Popen(
        command,
        cwd=workdir,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    timed_out = False
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(proc.pid, signal.SIGKILL)
        stdout, stderr = proc.communicate()
    run = ClientRun(
        client=client,
        version=client_version(client),
        argv=argv,
        returncode=proc.returncode,
        stdout=stdout,
        stderr=stderr,
        seconds=time.monotonic() - started,
        home=home,
        workdir=workdir,
        timed_out=timed_out,
        proxied=list(sinkhole.attempts),
    )
    if strace:
        run.reached = endpoints(trace_file.read_text(encoding="utf-8", errors="replace"))
    return run
