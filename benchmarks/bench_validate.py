"""Validation cost: a typical tool-calling request of each format, against a plain JSON parse+dump.

The validator runs before every client call and in the emulator for every request, so it must stay
well under a millisecond for a typical request.
"""

from __future__ import annotations

import orjson
from tests.validate import cases_anthropic, cases_gemini, cases_openai

from benchmarks._timing import median_seconds_each, report_row
from toolwire.validate import validate

BASES = {
    "openai-chat": cases_openai.CHAT_BASE,
    "openai-responses": cases_openai.RESPONSES_BASE,
    "anthropic": cases_anthropic.BASE,
    "gemini": cases_gemini.BASE,
}


def run() -> dict[str, float]:
    """Run the benchmark, print one line per format, return µs per validation."""
    print("validate: a typical tool-calling request per format")
    out: dict[str, float] = {}
    for fmt, base in BASES.items():
        raw = orjson.dumps(base)
        times = median_seconds_each(
            {
                "floor": lambda raw=raw: orjson.dumps(orjson.loads(raw)),
                fmt: lambda b=base, f=fmt: validate(b, format=f),
            }
        )
        out[fmt] = times[fmt] * 1e6
        print(report_row(f"{fmt} ({len(raw)} bytes)", times[fmt], times["floor"]))
    return out


if __name__ == "__main__":
    run()
