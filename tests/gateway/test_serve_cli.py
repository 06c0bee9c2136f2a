"""``toolwire serve``: option conflicts (exit 2), a bad config (one line naming the file and the
path, exit 3), and the embedded default, started as a real process on a free port."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from toolwire.cli import main
from toolwire.gateway import Transport
from toolwire.gateway._embedded import EmbeddedEmulator

CONFLICTS = [
    (
        ["--config", "gw.toml", "--upstream-url", "http://x"],
        "--config and the --upstream-*/--model-map options",
    ),
    (
        ["--config", "gw.toml", "--upstream-format", "gemini"],
        "--config and the --upstream-*/--model-map options",
    ),
    (["--config", "gw.toml", "--upstream-key-env", "K"], "--config and the --upstream-*/--model-map options"),
    (["--config", "gw.toml", "--model-map", "a=b"], "--config and the --upstream-*/--model-map options"),
    (["--upstream-key-env", "K"], "need --upstream-url"),
    (["--model-map", "a=b"], "need --upstream-url"),
    (["--upstream-url", "http://x", "--model-map", "gpt-*"], "expected PATTERN=MODEL"),
    (["--upstream-format", "cohere"], "invalid choice 'cohere'"),
    (["--port", "eighty"], "invalid int value"),
]


@pytest.mark.parametrize(("args", "words"), CONFLICTS)
def test_conflicting_or_bad_options_exit_2(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", *args]) == 2
    err = capsys.readouterr().err
    assert words in err, err


BAD_CONFIGS = [
    (
        "gw.toml",
        '[upstreams.u]\nformat = "anthropic"\nbase_url = "x"\n[[routes]]\nmatch = "a"\nupstream = "v"\n',
        "routes[0].upstream: unknown upstream 'v'",
    ),
    (
        "gw.yaml",
        "upstreams:\n  u: {format: gemini}\n",
        "upstreams.u: an upstream needs 'format' and 'base_url'",
    ),
    ("gw.toml", "upstreams = 3", "$.upstreams: expected a table, got int"),
    ("missing.toml", None, "cannot read the config"),
]


@pytest.mark.parametrize(("name", "text", "words"), BAD_CONFIGS)
def test_a_bad_config_is_one_line_with_its_path(
    tmp_path: Path, name: str, text: str | None, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / name
    if text is not None:
        path.write_text(text, encoding="utf-8")
    assert main(["serve", "--config", str(path)]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert str(path) in err and words in err, err


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_healthy(url: str, proc: subprocess.Popen[bytes], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()[1].decode()
        try:
            if httpx.get(f"{url}/healthz", timeout=1).json() == {"status": "ok"}:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    pytest.fail("toolwire serve did not answer /healthz")


ASK = {"role": "user", "content": "What is the weather in Paris?"}
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
    }
]


def test_serve_with_no_config_fronts_the_embedded_emulator() -> None:
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "toolwire", "serve", "--port", str(port), "--log-level", "warning"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        _wait_healthy(url, proc)
        chat = httpx.post(
            f"{url}/v1/chat/completions",
            json={"model": "gpt-5", "messages": [ASK], "tools": TOOLS},
            timeout=10,
        )
        messages = httpx.post(
            f"{url}/v1/messages",
            json={"model": "claude-x", "max_tokens": 50, "messages": [{"role": "user", "content": "hello"}]},
            headers={"anthropic-version": "2023-06-01"},
            timeout=10,
        )
        metrics = httpx.get(f"{url}/metrics", timeout=5).text
    finally:
        proc.send_signal(signal.SIGINT)  # by its PID; uvicorn shuts down gracefully
        try:
            _, err_bytes = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err_bytes = proc.communicate()
    assert chat.status_code == 200, chat.text
    call = chat.json()["choices"][0]["message"]["tool_calls"][0]["function"]
    assert call["name"] == "get_weather" and json.loads(call["arguments"])["city"] == "Paris"
    assert messages.status_code == 200 and messages.json()["content"][0]["type"] == "text"
    assert "toolwire_" in metrics
    err = err_bytes.decode()
    assert f"toolwire gateway on http://127.0.0.1:{port} -> the built-in emulator (anthropic)" in err
    lines = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
    chat_line = next(line for line in lines if line["path"] == "/v1/chat/completions")
    assert (chat_line["client_format"], chat_line["upstream_format"], chat_line["status"]) == (
        "openai-chat",
        "anthropic",
        200,
    )
    assert chat_line["model"] == "gpt-5" and chat_line["input_tokens"] > 0
    assert proc.returncode == 0


@pytest.mark.parametrize("fmt", ["chat", "openai-responses", "anthropic", "gemini"])
def test_the_embedded_emulator_answers_in_each_upstream_format(fmt: str) -> None:
    with EmbeddedEmulator(fmt) as embedded, httpx.Client(transport=Transport(embedded.config)) as http:
        reply = http.post(
            "http://gw/v1/chat/completions", json={"model": "m", "messages": [ASK], "tools": TOOLS}
        )
    assert reply.status_code == 200, reply.text
    assert reply.json()["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "get_weather"
