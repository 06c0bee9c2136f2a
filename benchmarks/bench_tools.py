"""Tool-definition conversion: 128 realistic Chat tools to Responses, Anthropic and Gemini.

Each conversion is measured from JSON bytes to JSON bytes (parse, decode to IR, encode,
serialize), against the floor of a plain ``orjson.loads`` + ``orjson.dumps`` of the same array.
"""

from __future__ import annotations

import orjson

from benchmarks._payloads import chat_tools
from benchmarks._timing import median_seconds, report_row
from toolwire.ir.notes import Notes
from toolwire.translate import format_module

TARGETS = ("openai-responses", "anthropic", "gemini")


def run() -> dict[str, float]:
    """Run the benchmark, print one line per target, return ratios to the floor."""
    tools = chat_tools(128)
    raw = orjson.dumps(tools)
    floor = median_seconds(lambda: orjson.dumps(orjson.loads(raw)))
    source = format_module("openai-chat")
    print(f"tools: 128 Chat tools, {len(raw)} bytes")
    print(report_row("floor: orjson loads+dumps", floor, floor, 128, "tool"))
    ratios: dict[str, float] = {}
    for target_name in TARGETS:
        target = format_module(target_name)

        def convert(target: object = target) -> bytes:
            notes = Notes("drop")
            ir = source.decode_tools(orjson.loads(raw), notes, "$.tools")
            return orjson.dumps(target.encode_tools(ir, notes, "$.tools"))  # type: ignore[attr-defined]

        seconds = median_seconds(convert)
        ratios[target_name] = seconds / floor
        print(report_row(f"openai-chat -> {target_name}", seconds, floor, 128, "tool"))
    return ratios


if __name__ == "__main__":
    run()
