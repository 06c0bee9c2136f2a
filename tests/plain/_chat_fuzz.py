"""Mutated Chat requests for the differential checks of the Chat one pass (``chat_anthropic``).

:func:`built` makes Chat requests of the message shapes the pass takes and those next to them
(content parts, refusals, names, unusual call ids, names and arguments, empty texts, results
missing, out of order or extra, consecutive assistant messages, system and developer messages);
:func:`requests` (``_responses_fuzz``'s, with this builder and the Chat corpus) then changes one
to three spots of most.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from tests.plain import _responses_fuzz

__all__ = ["SOURCE", "requests"]

SOURCE = "openai-chat"
NAMES = ("get_weather", "time", "ns.lookup", "a b", "x" * 70, "é")
IDS = ("call_1", "toolu_01", "c", "call id!", "", "x" * 80)
ARGUMENTS = ('{"x": 1}', "", "{}", "[]", "not json", '{"a":', "null")
TEXTS = ("Hi", "", " ", "Done. ", "ends in space ", "multi\nline")


def _text(rng: random.Random, odd: float, role: str) -> dict[str, Any]:
    """A text message of ``role``, or (how often: ``odd``) of another role, text or shape."""
    unusual = rng.random() < odd
    text = rng.choice(TEXTS) if unusual else f"text {rng.randrange(100)}"
    if not unusual:
        return {"role": role, "content": text}
    role = rng.choice(("user", "assistant", "system", "developer", "tool", role))
    parts = {"role": role, "content": [{"type": "text", "text": text}]}
    return rng.choice(({"role": role, "content": text}, parts, {"role": role, "content": text, "name": "n"}))


def _turn(rng: random.Random, messages: list[Any], serial: list[int], odd: float) -> None:
    """An assistant message of one to three calls (and a text, maybe), then their results."""
    calls, ids = [], []
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        serial[0] += 1
        call_id = rng.choice(IDS) if rng.random() < odd / 4 else f"call_{serial[0]}"
        name = rng.choice(NAMES) if rng.random() < odd else rng.choice(("get_weather", "time"))
        arguments = rng.choice(ARGUMENTS) if rng.random() < odd else '{"city": "Paris"}'
        ids.append(call_id)
        calls.append({"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}})
    content = rng.choice(("Let me.", "", None)) if rng.random() < 0.3 else None
    messages.append({"role": "assistant", "content": content, "tool_calls": calls})
    if rng.random() < odd:
        rng.shuffle(ids)
    for call_id in ids:
        output = rng.choice(("", "ok")) if rng.random() < odd else "sunny"
        messages.append({"role": "tool", "tool_call_id": call_id, "content": output})


def _tools(rng: random.Random) -> list[Any]:
    names = ["get_weather", "time"]
    if rng.random() < 0.2:
        names.append(rng.choice(NAMES))  # an unusual name, or a name twice
    tools: list[Any] = []
    for name in names:
        inner: dict[str, Any] = {"name": name, "description": "d", "parameters": {"type": "object"}}
        if rng.random() < 0.5:
            inner["strict"] = rng.choice((True, False))
        tools.append({"type": "function", "function": inner})
    return tools


def built(rng: random.Random) -> dict[str, Any]:
    """A Chat request of the shapes the pass takes, and some next to them."""
    messages: list[Any] = []
    serial = [0]
    odd = rng.choice((0, 0, 0.05, 0.2))  # how often a message is of an unusual shape
    if rng.random() < 0.5:
        messages.append(_text(rng, odd, rng.choice(("system", "developer"))))
    for _ in range(rng.randrange(1, 5)):  # exchanges: a question, call turns, an answer
        if rng.random() < 0.1:
            messages.append(_text(rng, odd, "system"))
        messages.append(_text(rng, odd, "user"))
        for _ in range(rng.choice((0, 1, 1, 2))):
            _turn(rng, messages, serial, odd)
        if rng.random() < 0.8:
            messages.append(_text(rng, odd, "assistant"))
    p: dict[str, Any] = {"model": rng.choice(("gpt-4o", "claude-x")), "messages": messages}
    if rng.random() < 0.6:
        p["tools"] = _tools(rng)
        if rng.random() < 0.5:
            p["tool_choice"] = rng.choice(
                ("auto", "none", "required", {"type": "function", "function": {"name": "time"}})
            )
        if rng.random() < 0.2:
            p["parallel_tool_calls"] = rng.choice((True, False))
    for key, values in (
        ("max_tokens", (1, 16, 0, 2.5)),
        ("max_completion_tokens", (1, 1024, 0)),
        ("temperature", (0, 1, 1.5, 2.5, -1)),
        ("top_p", (0, 0.5, 1.5)),
        ("stream", (True, False)),
        ("user", ("u1", "")),
        ("metadata", ({}, {"a": "b"})),
        ("n", (1,)),
    ):
        if rng.random() < 0.1:
            p[key] = rng.choice(values)
    return p


def requests(seed: int, count: int) -> Iterator[Any]:
    """``count`` Chat requests, built or from the corpus, most changed in one to three spots."""
    return _responses_fuzz.requests(seed, count, SOURCE, built)
