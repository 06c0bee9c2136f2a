"""``toolwire demo``: one tool-calling conversation through every format, against the emulator.

Starts the built-in emulator in-process on 127.0.0.1, runs the same conversation (a question,
two parallel tool calls, their results, the answer) with the toolwire client and runner in each
wire format, printing every request and response body as sent, then one translated pair (an
OpenAI Chat client in front of an Anthropic upstream through an :class:`~toolwire.Exchange`),
and a summary table. Offline; takes a few seconds.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Literal, TextIO

from toolwire._extras import require
from toolwire.cli._exit import ExitCode
from toolwire.cli._parser import error_line
from toolwire.ir import Message, Request, TextPart

_DemoFormat = Literal["openai-chat", "openai-responses", "anthropic", "gemini"]
_DEMO_FORMATS: tuple[_DemoFormat, ...] = (
    "openai-chat",
    "openai-responses",
    "anthropic",
    "gemini",
)
"""The formats the demo runs: those the client and the emulator speak (Bedrock's come with its
SigV4 client and ConverseStream codec)."""

__all__ = ["add_parser", "demo_request", "demo_toolbox"]

QUESTION = "What's the weather in Paris and the time there?"


def add_parser(sub: Any) -> None:
    """Register ``demo``."""
    parser = sub.add_parser("demo", help="one tool-calling conversation through every format, offline")
    parser.add_argument("--quiet", action="store_true", help="print only the summary table")
    parser.add_argument(
        "--gateway",
        action="store_true",
        help="instead: the official openai SDK through the gateway to an Anthropic upstream (needs openai)",
    )
    parser.set_defaults(handler=_run)


def get_weather(city: str, unit: str = "celsius") -> dict[str, Any]:
    """Current weather for a city.

    Args:
        city: City name.
        unit: celsius or fahrenheit.
    """
    return {"city": city, "temperature": 18 if unit == "celsius" else 64, "unit": unit, "sky": "sunny"}


def get_time(city: str) -> str:
    """Local time in a city.

    Args:
        city: City name.
    """
    return f"14:05 in {city}"


def demo_toolbox() -> Any:
    """The demo's tools: ``get_weather`` and ``get_time`` (needs pydantic, hence built on call)."""
    from toolwire.decorator import tool
    from toolwire.runner import Toolbox

    box = Toolbox()
    box.register(tool(get_weather))
    box.register(tool(get_time))
    return box


def demo_request() -> Request:
    """The conversation's first request: instructions and the user's question."""
    return Request(
        model="demo-model",
        max_tokens=512,
        messages=(
            Message(role="system", parts=(TextPart(text="You are a concise assistant."),)),
            Message(role="user", parts=(TextPart(text=QUESTION),)),
        ),
    )


@dataclass
class _Recorder:
    """Wraps a client: records each call's wire bodies for printing."""

    client: Any
    calls: list[Any] = field(default_factory=list)

    @property
    def core(self) -> Any:
        return self.client.core

    def create(self, request: Any) -> Any:
        result = self.client.create(request)
        self.calls.append(result)
        return result


def _dump(out: TextIO, title: str, body: Any) -> None:
    out.write(f"--- {title}\n{json.dumps(body, indent=2, ensure_ascii=False)}\n")


def _conversation(
    fmt: _DemoFormat, url: str, out: TextIO, quiet: bool
) -> tuple[str, int, int, int, int, float]:
    from toolwire.client import Client
    from toolwire.runner import run

    start = time.perf_counter()
    with Client(fmt, base_url=url, api_key="demo-key", model="demo-model") as client:
        recorder = _Recorder(client)
        result = run(recorder, demo_request(), demo_toolbox())
    elapsed = (time.perf_counter() - start) * 1000
    sent = sum(len(json.dumps(c.request_body)) for c in recorder.calls)
    received = sum(len(json.dumps(c.raw)) for c in recorder.calls)
    calls = sum(len(c.response.tool_calls) for c in recorder.calls)
    if not quiet:
        out.write(f"\n=== {fmt} ===\n")
        for turn, call in enumerate(recorder.calls, 1):
            _dump(out, f"turn {turn}: request sent", call.request_body)
            _dump(out, f"turn {turn}: response received", call.raw)
        out.write(f"answer: {result.text}\n")
    return fmt, result.turns, calls, sent, received, elapsed


def _translated(url: str, out: TextIO, quiet: bool) -> tuple[str, int, int, int, int, float]:
    """An OpenAI Chat client in front of an Anthropic upstream, through an Exchange."""
    import httpx

    from toolwire.ir.notes import Notes
    from toolwire.translate import Exchange, format_module

    start = time.perf_counter()
    chat_request = format_module("openai-chat").encode_request(
        Request(
            model="gpt-4o",
            messages=demo_request().messages,
            tools=demo_toolbox().tools,
        ),
        Notes("drop"),
    )
    exchange = Exchange("openai-chat", "anthropic", policy="drop", upstream_model="claude-demo")
    upstream = exchange.request(chat_request)
    answer = httpx.post(f"{url}/v1/messages", json=upstream, headers={"x-api-key": "demo-key"}).json()
    chat_response = exchange.response(answer)
    elapsed = (time.perf_counter() - start) * 1000
    if not quiet:
        out.write("\n=== translated: openai-chat client -> anthropic upstream ===\n")
        _dump(out, "client request (openai-chat)", chat_request)
        _dump(out, "sent upstream (anthropic)", upstream)
        _dump(out, "upstream answer (anthropic)", answer)
        _dump(out, "client response (openai-chat)", chat_response)
        for note in exchange.notes:
            out.write(f"note: {note}\n")
    calls = len(chat_response["choices"][0]["message"].get("tool_calls") or [])
    return "chat -> anthropic", 1, calls, len(json.dumps(upstream)), len(json.dumps(answer)), elapsed


def _gateway() -> int:
    try:
        import openai  # noqa: F401
    except ImportError:
        hint = "'toolwire demo --gateway' drives the official OpenAI SDK: pip install openai"
        sys.stderr.write(error_line(hint) + "\n")
        return ExitCode.MISSING_EXTRA
    from toolwire.cli._demo_gateway import run_gateway_demo

    run_gateway_demo(sys.stdout)
    return 0


def _run(args: argparse.Namespace) -> int:
    require("'toolwire demo'", "httpx", "tenacity", "starlette", "uvicorn", "pydantic")
    if args.gateway:
        return _gateway()
    from toolwire.emulator import EmulatorConfig, create_app, serve

    out = sys.stdout
    rows = []
    with serve(create_app(EmulatorConfig(api_keys=("demo-key",))), log_level="critical") as url:
        if not args.quiet:
            out.write(f"emulator on {url}\nquestion: {QUESTION}\n")
        rows = [_conversation(fmt, url, out, args.quiet) for fmt in _DEMO_FORMATS]
        rows.append(_translated(url, out, args.quiet))
    out.write(f"\n{'format':<20} {'turns':>5} {'calls':>5} {'sent B':>7} {'recv B':>7} {'ms':>7}\n")
    for name, turns, calls, sent, received, ms in rows:
        out.write(f"{name:<20} {turns:>5} {calls:>5} {sent:>7} {received:>7} {ms:>7.1f}\n")
    return 0
