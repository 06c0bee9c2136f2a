"""The Anthropic writer of the pair lanes (``toolwire._plain.anthropic_write``), shape by shape.

Hand-written one-spot changes of a Chat request whose :class:`Plain` has every shape the writer
takes: each shape it writes must match the Anthropic encoder (``writer_agrees_from``), and each
guard must leave the request to the general path. The corpora, mutated and generated requests
go through the writer in ``test_anthropic``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.plain._ir_plain import plain_of_ir
from tests.plain.harness import set_at as _set
from tests.plain.test_anthropic import ANTHROPIC, _insert, _pop, writer_agrees_from
from toolwire._plain._form import ASSISTANT, RESULTS, SYSTEM, USER, Plain
from toolwire._plain.anthropic_write import write
from toolwire.ir.notes import Notes
from toolwire.translate import _general_request, format_module

# ---------------------------------------------------------------- hand-written shapes: the writer


def chat() -> dict[str, Any]:
    """A Chat request whose :class:`Plain` has every shape the writer takes, noted by none."""
    calls = [
        {"id": "c1", "type": "function", "function": {"name": "weather", "arguments": '{"city": "Oslo"}'}},
        {"id": "c2", "type": "function", "function": {"name": "time", "arguments": ""}},
    ]
    return {
        "model": "gpt-4o",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "developer", "content": "Use tools."},
            {"role": "user", "content": "Weather?"},
            {"role": "assistant", "content": "Looking.", "tool_calls": calls},
            {"role": "tool", "tool_call_id": "c2", "content": "noon"},
            {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
            {"role": "user", "content": "And?"},
            {"role": "user", "content": "Quick."},
            {"role": "assistant", "content": "Sunny at noon. "},
            {"role": "user", "content": "Thanks."},
        ],
        "tools": [
            {"type": "function", "function": {"name": "weather", "description": "w", "parameters": {}}},
            {"type": "function", "function": {"name": "time", "strict": True}},
        ],
        "tool_choice": "required",
        "parallel_tool_calls": True,
        "max_completion_tokens": 100,
        "temperature": 0.5,
        "top_p": 1,
        "stream": False,
        "user": "u-1",
    }


def _plain_of(payload: dict[str, Any]) -> Plain:
    ir = _general_request(payload, "openai-chat", ANTHROPIC, "drop", None, None, None).ir  # type: ignore[arg-type]
    plain = plain_of_ir(ir)
    assert plain is not None
    return plain


def test_the_plain_chat_request_is_written() -> None:
    assert writer_agrees_from(chat(), "openai-chat")
    out = write(_plain_of(chat()))
    assert out is not None
    assert list(out) == [
        *("model", "system", "messages", "max_tokens", "temperature", "top_p", "stream", "metadata"),
        *("tools", "tool_choice"),
    ]
    assert out["system"] == [{"type": "text", "text": "Be brief."}, {"type": "text", "text": "Use tools."}]
    assert [m["role"] for m in out["messages"]] == ["user", "assistant", "user", "assistant", "user"]
    assert [b["type"] for b in out["messages"][2]["content"]] == [
        "tool_result",
        "tool_result",
        "text",
        "text",
    ]
    assert out["tool_choice"] == {"type": "any", "disable_parallel_tool_use": False}


WRITTEN: dict[str, Callable[[dict[str, Any]], None]] = {
    "one system message": lambda p: p["messages"].pop(1),
    "no system message": lambda p: [p["messages"].pop(0), p["messages"].pop(0)],
    "no max tokens (noted)": _pop("max_completion_tokens"),
    "a system message late (noted)": _insert(8, {"role": "system", "content": "Late."}),
    "metadata (noted)": _set(("metadata",), {"session": "s"}),
    "empty metadata": _set(("metadata",), {}),
    "no user": _pop("user"),
    "parallel off without a choice (noted)": lambda p: [
        p.pop("tool_choice"),
        _set(("parallel_tool_calls",), False)(p),
    ],
    "parallel on without a choice": lambda p: [
        p.pop("tool_choice"),
        _set(("parallel_tool_calls",), True)(p),
    ],
    "choice none": _set(("tool_choice",), "none"),
    "choice auto, no parallel switch": lambda p: [
        p.pop("parallel_tool_calls"),
        _set(("tool_choice",), "auto")(p),
    ],
    "named choice": _set(("tool_choice",), {"type": "function", "function": {"name": "time"}}),
    "no tools": _pop("tools", "tool_choice", "parallel_tool_calls"),
    "temperature 1": _set(("temperature",), 1),
    "an assistant turn last": lambda p: [
        p["messages"].pop(),
        _set(("messages", 8, "content"), "Sunny.")(p),
    ],
}
"""One-spot changes of :func:`chat` whose :class:`Plain` the writer writes."""


@pytest.mark.parametrize("change", WRITTEN.values(), ids=WRITTEN.keys())
def test_each_shape_the_writer_writes(change: Callable[[dict[str, Any]], None]) -> None:
    payload = chat()
    change(payload)
    assert writer_agrees_from(payload, "openai-chat")


NOT_WRITTEN: dict[str, Callable[[dict[str, Any]], None]] = {
    "a call id to escape": lambda p: [
        _set(("messages", 3, "tool_calls", 0, "id"), "c.1")(p),
        _set(("messages", 5, "tool_call_id"), "c.1")(p),
    ],
    "a call name to rename": lambda p: [
        _set(("messages", 3, "tool_calls", 0, "function", "name"), "get.weather")(p),
        _set(("tools", 0, "function", "name"), "get.weather")(p),
    ],
    "a tool name to rename": _set(("tools", 1, "function", "name"), "x" * 129),
    "arguments not an object": _set(("messages", 3, "tool_calls", 0, "function", "arguments"), "[1]"),
    "arguments not JSON": _set(("messages", 3, "tool_calls", 0, "function", "arguments"), "{"),
    "temperature above 1": _set(("temperature",), 1.5),
    "max tokens 0": _set(("max_completion_tokens",), 0),
    "a prefill ending in whitespace": lambda p: p["messages"].pop(),
    "only system text": lambda p: p.update(messages=p["messages"][:2]),
}
"""One-spot changes of :func:`chat` whose :class:`Plain` the writer leaves to the general path."""


@pytest.mark.parametrize("change", NOT_WRITTEN.values(), ids=NOT_WRITTEN.keys())
def test_each_writer_guard_on_a_request(change: Callable[[dict[str, Any]], None]) -> None:
    payload = chat()
    change(payload)
    plain = plain_of_ir(format_module("openai-chat").decode_request(payload, Notes("drop")))
    assert plain is not None and write(plain) is None
    writer_agrees_from(payload, "openai-chat")


def _plain() -> Plain:
    return _plain_of(chat())


NOT_WRITTEN_PLAIN: dict[str, Callable[[Plain], None]] = {
    "an empty result": lambda p: p.turns.__setitem__(4, (RESULTS, (("c2", "noon"), ("c1", "")))),
    "a result id to escape": lambda p: p.turns.__setitem__(4, (RESULTS, (("c2", "noon"), ("c.1", "x")))),
    "an empty user text": lambda p: p.turns.__setitem__(2, (USER, "")),
    "an empty system text": lambda p: p.turns.__setitem__(0, (SYSTEM, "system", "")),
    "an empty assistant text": lambda p: p.turns.__setitem__(3, (ASSISTANT, "", p.turns[3][2])),
    "an assistant turn of nothing": lambda p: p.turns.__setitem__(6, (ASSISTANT, None, ())),
    "two assistant turns in a row": lambda p: p.turns.insert(7, (ASSISTANT, "More.", ())),
    "results after a text turn": lambda p: p.turns.insert(7, (RESULTS, (("c1", "x"),))),
    "results first": lambda p: p.turns.insert(0, (RESULTS, (("c1", "x"),))),
    "no results": lambda p: p.turns.__setitem__(4, (RESULTS, ())),
    "arguments neither text nor object": lambda p: p.turns.__setitem__(
        3, (ASSISTANT, "Looking.", (("c1", "weather", 3), ("c2", "time", "")))
    ),
    "a name not a string": lambda p: p.turns.__setitem__(
        3, (ASSISTANT, "Looking.", (("c1", ["weather"], "{}"), ("c2", "time", "")))
    ),
    "empty tools": lambda p: setattr(p, "tools", []),
    "two tools of one name": lambda p: setattr(p, "tools", [*p.tools, p.tools[0]]),  # type: ignore[misc]
    "a choice naming no tool": lambda p: setattr(p, "choice", ("tool", "nope")),
    "a choice without tools": lambda p: setattr(p, "tools", None),
    "parallel without tools": lambda p: [setattr(p, "tools", None), setattr(p, "choice", None)],
    "top_p above 1": lambda p: setattr(p, "top_p", 1.5),
}
"""One-spot changes of a written :class:`Plain` the writer leaves to the general path."""


@pytest.mark.parametrize("change", NOT_WRITTEN_PLAIN.values(), ids=NOT_WRITTEN_PLAIN.keys())
def test_each_writer_guard(change: Callable[[Plain], None]) -> None:
    plain = _plain()
    assert write(plain) is not None
    plain = _plain()
    change(plain)
    assert write(plain) is None
