"""Request and response translation of a realistic 6-turn tool-calling conversation.

Each conversion is measured from JSON bytes to JSON bytes (parse, decode to IR, encode,
serialize) against the floor of ``orjson.loads`` + ``orjson.dumps`` of the same source
payload (target: at most 3x the floor). When LiteLLM is importable, the same run measures
LiteLLM's own transformation of the same payload (parameter mapping plus request/response
transformation, no network) and prints our speed-up (target: at least 5x).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import orjson

from benchmarks._conversation import anthropic_response, chat_request
from benchmarks._timing import median_seconds_each, report_row
from toolwire.ir.notes import Notes
from toolwire.translate import format_module

__all__ = ["run"]

_Convert = Callable[[], bytes]


def _request(raw: bytes, source: str, target: str) -> _Convert:
    src, dst = format_module(source), format_module(target)

    def convert() -> bytes:
        notes = Notes("drop")
        return orjson.dumps(dst.encode_request(src.decode_request(orjson.loads(raw), notes), notes))

    return convert


def _response(raw: bytes, source: str, target: str) -> _Convert:
    src, dst = format_module(source), format_module(target)

    def convert() -> bytes:
        notes = Notes("drop")
        return orjson.dumps(dst.encode_response(src.decode_response(orjson.loads(raw), notes), notes))

    return convert


def _cases() -> list[tuple[str, bytes, _Convert]]:
    chat = chat_request()
    chat_raw = orjson.dumps(chat)
    notes = Notes("drop")
    responses = format_module("openai-responses").encode_request(
        format_module("openai-chat").decode_request(chat, notes), notes
    )
    responses_raw = orjson.dumps(responses)
    tool_name = chat["tools"][2]["function"]["name"]
    message_raw = orjson.dumps(anthropic_response(tool_name))
    return [
        ("chat -> anthropic (request)", chat_raw, _request(chat_raw, "openai-chat", "anthropic")),
        ("chat -> gemini (request)", chat_raw, _request(chat_raw, "openai-chat", "gemini")),
        ("chat -> bedrock (request)", chat_raw, _request(chat_raw, "openai-chat", "bedrock-converse")),
        (
            "responses -> chat (request)",
            responses_raw,
            _request(responses_raw, "openai-responses", "openai-chat"),
        ),
        ("anthropic -> chat (response)", message_raw, _response(message_raw, "anthropic", "openai-chat")),
        (
            "anthropic -> bedrock (response)",
            message_raw,
            _response(message_raw, "anthropic", "bedrock-converse"),
        ),
    ]


def run() -> dict[str, float]:
    """Run the benchmark, print one line per conversion, return ratios to the orjson floor."""
    chat = chat_request()
    print(
        f"convert: {len(chat['messages'])} messages (6 turns after the system prompt), "
        f"{len(chat['tools'])} tools, 2 tool calls"
    )
    baseline = _litellm_cases()
    if baseline is None:
        print("  litellm is not installed: no comparison (pip install litellm to measure it)")
    ratios: dict[str, float] = {}
    for label, raw, convert in _cases():
        contenders: dict[str, Callable[[], object]] = {
            "floor": lambda raw=raw: orjson.dumps(orjson.loads(raw)),
            "toolwire": convert,
        }
        if baseline and label in baseline:
            contenders["litellm"] = baseline[label]
        times = median_seconds_each(contenders)  # interleaved: fair ratios on a busy machine
        floor, seconds = times["floor"], times["toolwire"]
        ratios[label] = seconds / floor
        print(f"  {label} ({len(raw)} bytes)")
        print(report_row("floor: orjson loads+dumps", floor, floor))
        print(report_row("toolwire", seconds, floor))
        if "litellm" in times:
            other = times["litellm"]
            print(report_row("litellm", other, floor) + f"   toolwire {other / seconds:.1f}x faster")
    return ratios


def _litellm_cases() -> dict[str, _Convert] | None:
    """LiteLLM's transformations of the same payloads, or ``None`` when LiteLLM is missing."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # never fetch over the network
    try:
        from benchmarks import _litellm
    except ImportError:
        return None
    chat = chat_request()
    notes = Notes("drop")
    responses: dict[str, Any] = format_module("openai-responses").encode_request(
        format_module("openai-chat").decode_request(chat, notes), notes
    )
    tool_name = chat["tools"][2]["function"]["name"]
    try:
        return _litellm.cases(chat, responses, anthropic_response(tool_name))
    except Exception as exc:  # a LiteLLM release with another internal API: report, don't fail
        print(f"  litellm is installed but its transformation API differs: {exc!r}")
        return {}


if __name__ == "__main__":
    run()
