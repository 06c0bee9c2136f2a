"""The Anthropic -> Chat and -> Responses pairs in one pass (``toolwire._plain.anthropic_pass``).

Each must write exactly what the pair's lane (the Anthropic reader, then the target's writer)
writes, and note what it notes,
and leave to that lane every request it is not sure of: the requests it takes go the same both
ways (public API and general path) and equal the lane's payload; one-spot changes of them pin
each guard (it leaves them, and they still go the same both ways).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from benchmarks._conversation import chat_request
from benchmarks.bench_pairs import _in_each_format, sized_chat_request

from tests.plain import harness
from tests.plain.harness import drop_at as _drop
from tests.plain.harness import set_at as _set
from toolwire import translate_request, translate_request_bytes
from toolwire._json import dumps, loads
from toolwire._plain import READERS, WRITERS, anthropic_read
from toolwire._plain.anthropic_pass import to_chat, to_responses

SOURCE = "anthropic"
TARGETS = ("openai-chat", "openai-responses")


def translate(payload: dict[str, Any], target: str) -> tuple[dict[str, Any], bool] | None:
    """The one pass into ``target``: its payload and whether the lane notes something."""
    if target == "openai-chat":
        chat = to_chat(payload)
        return None if chat is None else (chat, False)
    return to_responses(payload)


def _lane(payload: dict[str, Any], target: str) -> tuple[dict[str, Any], bool] | None:
    plain = anthropic_read.read(payload, None)
    out = None if plain is None else WRITERS[target](plain)
    return None if out is None or plain is None else (out, plain.noted)


def _use(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "input": arguments}


def _result(call_id: str, output: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call_id, "content": output}]}


def request() -> dict[str, Any]:
    """A request of every shape the one pass takes: texts as strings and as blocks, a turn of a
    text and one call, of one call, their results."""
    return {
        "model": "claude-x",
        "system": "Be brief.",
        "messages": [
            {"role": "user", "content": "Q"},
            {
                "role": "assistant",
                "content": [{"type": "text", "text": "Let me."}, _use("a", "weather", {"x": 1})],
            },
            _result("a", "1"),
            {"role": "assistant", "content": "Sunny."},
            {"role": "user", "content": [{"type": "text", "text": "And?"}]},
            {"role": "user", "content": "Time?"},
            {"role": "assistant", "content": [_use("b", "time", {})]},
            _result("b", "noon"),
            {"role": "assistant", "content": [{"type": "text", "text": "Noon."}]},
        ],
        "max_tokens": 16,
        "temperature": 1,
        "top_p": 0.5,
        "stream": True,
        "tools": [
            {"name": "weather", "description": "w", "input_schema": {"type": "object"}, "strict": True},
            {"name": "time", "description": "", "input_schema": {}},
        ],
        "tool_choice": {"type": "any"},
    }


def _takes(payload: dict[str, Any], target: str) -> None:
    got = translate(copy.deepcopy(payload), target)
    assert got is not None
    expected = _lane(payload, target)
    assert expected is not None
    assert got == expected
    assert dumps(got[0]) == dumps(expected[0])
    for policy in ("warn", "drop"):
        assert harness.same_both_ways(payload, SOURCE, target, policy) == (policy == "drop" or not got[1])


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("size", [None, (2, 1), (10, 5), (100, 5)])
def test_the_benchmark_requests_are_taken(size: tuple[int, int] | None, target: str) -> None:
    chat = chat_request() if size is None else sized_chat_request(*size)
    _takes(loads(_in_each_format(chat)[SOURCE]), target)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("choice", ["auto", "any", "none"])
def test_every_shape_it_takes(choice: str, target: str) -> None:
    payload = request()
    payload["tool_choice"] = {"type": choice}
    _takes(payload, target)
    payload["tools"][1]["strict"] = False  # every tool strict: nothing noted
    _takes(payload, target)
    assert translate(payload, target) == (_lane(payload, target)[0], False)  # type: ignore[index]
    for key in ("tools", "tool_choice", "system", "max_tokens", "temperature", "top_p", "stream"):
        del payload[key]
    _takes(payload, target)


@pytest.mark.parametrize("target", TARGETS)
def test_the_pair_takes_the_one_pass(monkeypatch: pytest.MonkeyPatch, target: str) -> None:
    """With the pair's reader off, its requests of the one pass's shape still translate."""
    expected = _lane(request(), target)
    assert expected is not None
    monkeypatch.setitem(READERS, SOURCE, lambda payload, model: None)
    got = translate_request(request(), source=SOURCE, target=target, policy="drop")  # type: ignore[arg-type]
    assert got.payload == expected[0]
    body = dumps(request())
    assert translate_request_bytes(body, source=SOURCE, target=target, policy="drop") == dumps(expected[0])  # type: ignore[arg-type]


_M = ("messages",)
_TEXT_CALL = (*_M, 1, "content")
GUARDS: dict[str, Callable[[dict[str, Any]], None]] = {
    "not an object": lambda p: p.clear(),
    "metadata": _set(("metadata",), {}),
    "no model": _drop(("model",)),
    "empty model": _set(("model",), ""),
    "no messages": _set(("messages",), []),
    "system of a block": _set(("system",), [{"type": "text", "text": "S"}]),
    "empty system": _set(("system",), ""),
    "a message not an object": _set((*_M, 0), "Q"),
    "a message of three keys": _set((*_M, 0, "id"), "m"),
    "a message of two keys without content": _set((*_M, 0), {"role": "user", "text": "Q"}),
    "an unknown role": _set((*_M, 0, "role"), "system"),
    "empty user text": _set((*_M, 0, "content"), ""),
    "user content not text": _set((*_M, 0, "content"), 3),
    "empty user text block": _set((*_M, 4, "content", 0, "text"), ""),
    "user text block of another type": _set((*_M, 4, "content", 0, "type"), "image"),
    "user text block of three keys": _set((*_M, 4, "content", 0, "cache_control"), {"type": "ephemeral"}),
    "user of two blocks": lambda p: p["messages"][4]["content"].append({"type": "text", "text": "x"}),
    "user block not an object": _set((*_M, 4, "content", 0), "x"),
    "empty assistant text": _set((*_M, 3, "content"), ""),
    "assistant content not text": _set((*_M, 3, "content"), 3),
    "empty assistant content": _set((*_M, 3, "content"), []),
    "assistant block not an object": _set((*_M, 8, "content", 0), "x"),
    "assistant text block not text": _set((*_M, 8, "content", 0, "text"), 3),
    "assistant text block of another type": _set((*_M, 8, "content", 0, "type"), "thinking"),
    "two assistant messages": _set((*_M, 4), {"role": "assistant", "content": "More."}),
    "assistant of three blocks": lambda p: p["messages"][1]["content"].append({"type": "text", "text": "x"}),
    "assistant of two calls": _set((*_TEXT_CALL, 0), _use("z", "time", {})),
    "empty text before a call": _set((*_TEXT_CALL, 0, "text"), ""),
    "a call of another type": _set((*_TEXT_CALL, 1, "type"), "server_tool_use"),
    "a call of four keys without input": _set(
        (*_TEXT_CALL, 1), {"type": "tool_use", "id": "a", "name": "n", "x": 1}
    ),
    "a call not an object": _set((*_TEXT_CALL, 1), "a"),
    "empty call id": _set((*_TEXT_CALL, 1, "id"), ""),
    "call id not text": _set((*_TEXT_CALL, 1, "id"), 1),
    "an escaped call id": _set((*_TEXT_CALL, 1, "id"), "a--1"),
    "a call id used again": lambda p: [
        p["messages"][6]["content"][0].update(id="a"),
        p["messages"][7]["content"][0].update(tool_use_id="a"),
    ],
    "empty call name": _set((*_TEXT_CALL, 1, "name"), ""),
    "call name not text": _set((*_TEXT_CALL, 1, "name"), 1),
    "a name the target renames": _set((*_TEXT_CALL, 1, "name"), "a b"),
    "input not an object": _set((*_TEXT_CALL, 1, "input"), [1]),
    "a lone call of another type": _set((*_M, 6, "content", 0, "type"), "server_tool_use"),
    "a lone call of three keys": _drop((*_M, 6, "content", 0, "input")),
    "a lone call name the target renames": _set((*_M, 6, "content", 0, "name"), "a b"),
    "a call unanswered": lambda p: [p["messages"].pop(), p["messages"].pop()],
    "a text after a call": _set((*_M, 2), {"role": "user", "content": "x"}),
    "a text block after a call": _set((*_M, 2, "content", 0), {"type": "text", "text": "x"}),
    "an assistant message after a call": _set((*_M, 2), {"role": "assistant", "content": "x"}),
    "a result of another call": _set((*_M, 2, "content", 0, "tool_use_id"), "z"),
    "a result of a text block": _set((*_M, 2, "content", 0, "content"), [{"type": "text", "text": "1"}]),
    "an empty result": _set((*_M, 2, "content", 0, "content"), ""),
    "a result of four keys": _set((*_M, 2, "content", 0, "is_error"), False),
    "a result then a text": lambda p: p["messages"][2]["content"].append({"type": "text", "text": "x"}),
    "a result without a call": lambda p: p["messages"].insert(1, _result("a", "1")),
    "a result of three keys of another type": _set((*_M, 2, "content", 0, "type"), "text"),
    "tools empty": _set(("tools",), []),
    "a tool not an object": _set(("tools", 0), "t"),
    "a tool of two keys": _set(("tools", 0), {"name": "weather", "input_schema": {}}),
    "a tool of three keys without description": _set(
        ("tools", 1), {"name": "time", "input_schema": {}, "strict": True}
    ),
    "a tool description not text": _set(("tools", 1, "description"), None),
    "a tool strict not a boolean": _set(("tools", 0, "strict"), 1),
    "a tool schema not an object": _set(("tools", 0, "input_schema"), []),
    "empty tool name": _set(("tools", 0, "name"), ""),
    "a tool name the target renames": _set(("tools", 0, "name"), "a b"),
    "two tools of one name": _set(("tools", 1, "name"), "weather"),
    "a named choice": _set(("tool_choice",), {"type": "tool", "name": "time"}),
    "a choice of parallel use": _set(("tool_choice",), {"type": "auto", "disable_parallel_tool_use": True}),
    "a choice not an object": _set(("tool_choice",), "auto"),
    "an unknown choice": _set(("tool_choice",), {"type": "required"}),
    "a choice without tools": lambda p: [p.pop("tools")],
    "max_tokens 15": _set(("max_tokens",), 15),
    "max_tokens a float": _set(("max_tokens",), 16.0),
    "temperature above 1": _set(("temperature",), 1.5),
    "top_p below 0": _set(("top_p",), -0.1),
    "temperature a boolean": _set(("temperature",), True),
    "stream not a boolean": _set(("stream",), 1),
}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("change", GUARDS.values(), ids=GUARDS.keys())
def test_each_guard(change: Callable[[dict[str, Any]], None], target: str) -> None:
    payload = request()
    change(payload)
    assert translate(copy.deepcopy(payload), target) is None
    for policy in ("warn", "drop"):
        harness.same_both_ways(payload, SOURCE, target, policy)
