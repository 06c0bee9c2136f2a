"""``toolwire demo``: one tool-calling conversation shown in every format, offline."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from toolwire.ir import FORMATS, Message, Notes, Request, TextPart, Tool, ToolCall, ToolResult
from toolwire.translate import format_module, translate_request

__all__ = ["add_parser", "demo_request"]


def add_parser(sub: Any) -> None:
    """Register ``demo``."""
    parser = sub.add_parser("demo", help="show one tool-calling conversation in every format")
    parser.add_argument("--quiet", action="store_true", help="print only the summary table")
    parser.set_defaults(handler=_run)


def demo_request() -> Request:
    """A small tool-calling conversation: a question, a tool call, its result, and an answer request."""
    weather = Tool(
        name="get_weather",
        description="Current weather for a city.",
        parameters={
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "City name"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            },
            "required": ["city"],
        },
    )
    return Request(
        model="demo-model",
        max_tokens=512,
        tools=(weather,),
        messages=(
            Message(role="system", parts=(TextPart(text="You are a concise assistant."),)),
            Message(role="user", parts=(TextPart(text="What's the weather in Paris?"),)),
            Message(
                role="assistant",
                parts=(ToolCall(id="call_1", name="get_weather", arguments='{"city":"Paris"}'),),
            ),
            Message(
                role="tool",
                parts=(
                    ToolResult(call_id="call_1", name="get_weather", content=(TextPart(text="18C, sunny"),)),
                ),
            ),
        ),
    )


def _run(args: argparse.Namespace) -> int:
    request = demo_request()
    out = sys.stdout
    rows: list[tuple[str, int, int]] = []
    for fmt in FORMATS:
        notes = Notes("drop")
        wire = format_module(fmt).encode_request(request, notes)
        text = json.dumps(wire, indent=2, ensure_ascii=False)
        rows.append((fmt, len(text.encode()), len(notes)))
        if not args.quiet:
            out.write(f"=== {fmt} request ===\n{text}\n\n")
    chat = format_module("openai-chat").encode_request(request, Notes("drop"))
    translated = translate_request(chat, source="openai-chat", target="anthropic", policy="drop")
    if not args.quiet:
        out.write("=== openai-chat -> anthropic (translated) ===\n")
        out.write(json.dumps(translated.payload, indent=2, ensure_ascii=False) + "\n")
        for note in translated.notes:
            out.write(f"note: {note}\n")
        out.write("\n")
    out.write(f"{'format':<18} {'bytes':>6} {'notes':>6}\n")
    for name, size, count in rows:
        out.write(f"{name:<18} {size:>6} {count:>6}\n")
    return 0
