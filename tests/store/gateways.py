"""``toolwire serve`` as real processes for the store's multi-process tests: started on a free
port in front of an upstream, killed with SIGKILL, restarted; and the Responses turns a client
sends them."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx

from tests.redis_server import free_port


class GatewayProcess:
    """One ``toolwire serve --store URL`` in front of ``upstream_url`` (an Anthropic-format API),
    or of the upstreams and routes of a ``config`` file."""

    def __init__(self, upstream_url: str, store: str, config: str | None = None) -> None:
        self.upstream_url, self.store, self.config = upstream_url, store, config
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        argv = [sys.executable, "-m", "toolwire", "serve", "--port", str(self.port)]
        if self.config is not None:
            argv += ["--config", self.config]
        else:
            argv += ["--upstream-format", "anthropic", "--upstream-url", self.upstream_url]
        argv += ["--store", self.store, "--log-level", "warning", "--no-access-log"]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(self.proc.communicate()[1].decode())
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"toolwire serve did not answer on port {self.port}")

    def kill(self) -> None:
        """SIGKILL, by its pid: no shutdown of any kind."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.communicate(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.communicate()
            self.proc = None


TOOL = {
    "type": "function",
    "name": "get_weather",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}


def turn_body(text: str, previous: str | None, *, stream: bool) -> dict[str, Any]:
    """A Responses turn: ``text`` from the user, continuing ``previous``."""
    body: dict[str, Any] = {"model": "claude-sonnet-4-5", "input": text, "stream": stream, "store": True}
    if previous is not None:
        body["previous_response_id"] = previous
    return body


def create(http: httpx.Client, url: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST a whole-answer turn; the response object (asserting a 200)."""
    reply = http.post(f"{url}/v1/responses", json=body, timeout=30)
    assert reply.status_code == 200, reply.text
    answer: dict[str, Any] = reply.json()
    return answer


def final_event(lines: httpx.Response | Iterator[str]) -> dict[str, Any]:
    """Read an SSE stream (or the rest of its lines) up to its ``response.completed`` event;
    that event's response."""
    event = ""
    for line in lines.iter_lines() if isinstance(lines, httpx.Response) else lines:
        if line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:") and event in ("response.completed", "response.failed", "error"):
            data = json.loads(line[5:])
            assert event == "response.completed", data
            response: dict[str, Any] = data["response"]
            return response
    raise AssertionError("the stream ended without response.completed")


def user_texts(response_input: list[dict[str, Any]]) -> list[str]:
    """The user texts of an ``input_items`` list (oldest first)."""
    return [part["text"] for item in response_input if item.get("role") == "user" for part in item["content"]]
