"""``toolwire emulate``: argument handling, and a real server process on 127.0.0.1."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from toolwire.cli import build_parser, main
from toolwire.cli._emulate import config_from_args


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_arguments_build_the_config(tmp_path: Path) -> None:
    script = tmp_path / "turns.json"
    script.write_text('[{"text": "hi"}]', encoding="utf-8")
    args = build_parser().parse_args(
        [
            "emulate",
            "--port",
            "9",
            "--script",
            str(script),
            "--api-key",
            "a",
            "--api-key",
            "b",
            "--faults",
            "latency=0.1",
            "--rules",
            "provider",
        ]
    )
    config = config_from_args(args)
    assert config.rules == "provider"
    assert config_from_args(build_parser().parse_args(["emulate"])).rules == "lenient"
    assert config.api_keys == ("a", "b")
    assert config.script is not None and config.script.turns[0].text == "hi"
    assert config.faults == "latency=0.1"


def test_bad_fault_spec_exits_2_and_missing_script_exits_3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["emulate", "--faults", "teapot"]) == 2  # a bad argument: usage error
    assert "toolwire: error: --faults: unknown fault 'teapot'" in capsys.readouterr().err
    assert main(["emulate", "--script", str(tmp_path / "missing.yaml")]) == 3  # a missing file: input error
    assert "toolwire: error: cannot read" in capsys.readouterr().err


def test_server_process_answers_and_checks_keys() -> None:
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    cmd = [
        sys.executable,
        "-m",
        "toolwire.cli",
        "emulate",
        "--port",
        str(port),
        "--api-key",
        "secret",
        "--log-level",
        "warning",
    ]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 15
        while True:
            try:
                reply = httpx.get(f"{base}/v1/models", timeout=1)
                break
            except httpx.TransportError:
                assert proc.poll() is None and time.monotonic() < deadline, "emulator did not start"
                time.sleep(0.05)
        assert reply.status_code == 401
        listed = httpx.get(f"{base}/v1/models", headers={"authorization": "Bearer secret"})
        assert [m["object"] for m in listed.json()["data"]][:1] == ["model"]
        body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
        assert httpx.post(f"{base}/v1/chat/completions", json=body).status_code == 401
        ok = httpx.post(f"{base}/v1/chat/completions", json=body, headers={"authorization": "Bearer secret"})
        assert ok.json()["choices"][0]["message"]["content"] == "You said: hi"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
