"""Mutated Responses requests for the differential checks of the Responses one passes.

:func:`requests` makes realistic Responses requests (the corpus's, and conversations built from
the item shapes the passes take and those next to them: typed messages, reasoning items, custom
tools, namespaced and invalid names, images, empty strings, consecutive calls, results out of
order, system and developer messages, instructions), then changes one to three spots of each:
a field dropped, renamed, given a value of another type or an edge value, an extra key, an item
dropped, duplicated or moved. :func:`check` compares the one pass with the pair's reader and
writer, :func:`check_public` the public APIs with and without the one passes.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from tests.plain import harness
from toolwire import translate_request, translate_request_bytes
from toolwire._json import dumps
from toolwire._plain import NOTING_PASSES, READERS, WIRE_WRITERS, WRITERS
from toolwire.errors import ToolwireError

__all__ = ["agrees", "check", "check_public", "requests", "run"]

SOURCE = "openai-responses"
TARGETS = ("anthropic", "gemini")
NAMES = ("get_weather", "update_repository_0", "ns.lookup", "ns__lookup", "a b", "x" * 70, "é", "time")
IDS = ("call_1", "call_2", "call_3", "toolu_01", "c", "call id!", "", "x" * 80)
ARGUMENTS = ('{"x": 1}', "", "{}", "[]", "not json", '{"a": {"b": [1, 2]}}', '{"a":', "null", " {} ")
TEXTS = ("Hi", "", " ", "Done. ", "ends in space ", "multi\nline", "é" * 3)
ODD = (None, 0, 1, -1, 1.5, True, False, "", "x", [], {}, [1], {"a": 1}, 2**70)


def _text_item(rng: random.Random, odd: float, role: str) -> dict[str, Any]:
    if rng.random() < odd:
        role = rng.choice(("user", "assistant", "system", "developer", "tool"))
    text = rng.choice(TEXTS) if rng.random() < odd else f"text {rng.randrange(100)}"
    shape = rng.random()
    if shape < 1 - odd:
        return {"role": role, "content": text}
    if shape < 1 - odd / 2:
        kind = "output_text" if role == "assistant" else "input_text"
        return {"type": "message", "role": role, "content": [{"type": kind, "text": text}]}
    return {"role": "user", "content": [{"type": "input_image", "image_url": "https://x/y.png"}]}


def _call(rng: random.Random, call_id: str, odd: float) -> dict[str, Any]:
    name = rng.choice(NAMES) if rng.random() < odd else rng.choice(("get_weather", "time"))
    arguments = rng.choice(ARGUMENTS) if rng.random() < odd else '{"city": "Paris"}'
    return {"type": "function_call", "call_id": call_id, "name": name, "arguments": arguments}


def _output(rng: random.Random, call_id: str, odd: float) -> dict[str, Any]:
    output = rng.choice(("", "ok", '{"t": 20}')) if rng.random() < odd else "sunny"
    return {"type": "function_call_output", "call_id": call_id, "output": output}


def _turn(rng: random.Random, items: list[Any], serial: list[int], odd: float) -> None:
    """A turn of one to three calls (after a text, maybe), then their results (maybe shuffled)."""
    if rng.random() < 0.3:
        items.append(_text_item(rng, odd, "assistant"))
    ids = []
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        serial[0] += 1
        call_id = rng.choice(IDS) if rng.random() < odd / 4 else f"call_{serial[0]}"
        ids.append(call_id)
        items.append(_call(rng, call_id, odd))
    if rng.random() < 0.3:
        rng.shuffle(ids)
    items.extend(_output(rng, call_id, odd) for call_id in ids)


def _other_item(rng: random.Random) -> dict[str, Any]:
    return rng.choice(
        [
            {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "abc"},
            {"type": "custom_tool_call", "call_id": "ct_1", "name": "grep", "input": "x"},
            {"type": "custom_tool_call_output", "call_id": "ct_1", "output": "y"},
            {
                "type": "function_call",
                "call_id": "f_1",
                "name": "n",
                "arguments": "{}",
                "status": "completed",
            },
            {"type": "item_reference", "id": "msg_1"},
        ]
    )


def _tools(rng: random.Random) -> list[Any]:
    names = ["get_weather", "time"]
    if rng.random() < 0.2:
        names.append(rng.choice(NAMES))  # an unusual name, or a name twice
    rng.shuffle(names)
    tools: list[Any] = []
    for name in names:
        tool: dict[str, Any] = {"type": "function", "name": name, "description": "d", "parameters": {}}
        tool["strict"] = rng.choice((True, False))
        if rng.random() < 0.1:
            del tool[rng.choice(("description", "parameters", "strict"))]
        tools.append(tool)
    if rng.random() < 0.05:
        tools.append({"type": "custom", "name": "grep", "description": "g"})
    if rng.random() < 0.03:
        tools.append({"type": "namespace", "name": "ns", "tools": [tools[0]]})
    return tools


def _scrambled(rng: random.Random) -> list[Any]:
    """Items of the usual shapes in any order: texts of each role, calls, results of calls
    made (or not) before."""
    items: list[Any] = []
    ids: list[str] = []
    for _ in range(rng.randrange(1, 11)):
        kind = rng.choice("uuaasdccoo")
        if kind == "c":
            ids.append(f"call_{len(ids)}")
            items.append(_call(rng, ids[-1], 0.1))
        elif kind == "o":
            items.append(_output(rng, rng.choice(ids) if ids and rng.random() < 0.9 else "call_9", 0.1))
        else:
            role = {"u": "user", "a": "assistant", "s": "system", "d": "developer"}[kind]
            items.append({"role": role, "content": rng.choice(("text", "text", "Done. ", ""))})
    return items


def built(rng: random.Random) -> dict[str, Any]:
    """A request of the shapes the one passes take, and some next to them."""
    items: list[Any] = _scrambled(rng) if rng.random() < 0.3 else []
    serial = [0]
    odd = rng.choice((0, 0, 0.05, 0.2))  # how often an item is of an unusual shape
    for _ in range(0 if items else rng.randrange(1, 5)):  # exchanges: a question, call turns, an answer
        if rng.random() < 0.1:
            items.append(_text_item(rng, odd, rng.choice(("system", "developer"))))
        items.append(_text_item(rng, odd, "user"))
        for _ in range(rng.choice((0, 1, 1, 2))):
            _turn(rng, items, serial, odd)
            if rng.random() < odd:
                items.append(_other_item(rng))
        if rng.random() < 0.8:
            items.append(_text_item(rng, odd, "assistant"))
    model = (
        rng.choice(("gpt-4o", "gpt-4o", "claude-x", "gemini-2.5-flash"))
        if rng.random() > 0.05
        else "gemini-3-pro"
    )
    p: dict[str, Any] = {"model": model, "input": items}
    if rng.random() < 0.5:
        p["instructions"] = rng.choice(("Be brief.", "Be brief.", ""))
    if rng.random() < 0.6:
        p["tools"] = _tools(rng)
        if rng.random() < 0.5:
            p["tool_choice"] = rng.choice(
                (
                    "auto",
                    "none",
                    "required",
                    "any",
                    {"type": "function", "name": "time"},
                    {"type": "function"},
                )
            )
        if rng.random() < 0.2:
            p["parallel_tool_calls"] = rng.choice((True, False))
    for key, values in (
        ("max_output_tokens", (1, 16, 1024, 0, 10**9, 2.5)),
        ("temperature", (0, 0.2, 1, 1.5, 2, 2.5, -1)),
        ("top_p", (0, 0.5, 1, 1.5)),
        ("stream", (True, False)),
        ("user", ("u1", "")),
        ("metadata", ({}, {"a": "b"})),
        ("include", ([], ["reasoning.encrypted_content"])),
        ("store", (False,)),
    ):
        if rng.random() < 0.1:
            p[key] = rng.choice(values)
    return p


def _sites(root: Any) -> list[tuple[Any, Any]]:
    """Every (container, key) of ``root``, the first 400 in breadth-first order."""
    out: list[tuple[Any, Any]] = []
    queue = [root]
    while queue and len(out) < 400:
        node = queue.pop(0)
        keys = list(node) if type(node) is dict else range(len(node)) if type(node) is list else []
        for key in keys:
            out.append((node, key))
            queue.append(node[key])
    return out


def _mutate_once(rng: random.Random, p: Any) -> None:
    sites = _sites(p)
    if not sites:
        return
    node, key = rng.choice(sites)
    action = rng.random()
    if type(node) is dict:
        if action < 0.25:
            del node[key]
        elif action < 0.35:
            node[key + rng.choice(("_x", "s", ""))] = node.pop(key)  # renamed (or moved last)
        elif action < 0.7:
            node[key] = copy.deepcopy(rng.choice(ODD + TEXTS + IDS + NAMES + ARGUMENTS))
        else:
            node[rng.choice(("id", "status", "type", "extra", "cache_control"))] = copy.deepcopy(
                rng.choice(ODD)
            )
    elif action < 0.3:
        del node[key]
    elif action < 0.5:
        node.insert(key, copy.deepcopy(node[key]))  # duplicated
    elif action < 0.7:
        node.insert(rng.randrange(len(node) + 1), node.pop(key))  # moved
    elif action < 0.85:
        node[key] = copy.deepcopy(rng.choice(ODD))
    else:
        node[key], node[-1] = node[-1], node[key]  # swapped with the last


def requests(
    seed: int, count: int, source: str = SOURCE, build: Callable[[random.Random], Any] | None = None
) -> Iterator[Any]:
    """``count`` requests: built (by ``build``, :func:`built` by default) or from ``source``'s
    corpus, each unchanged (two fifths) or changed in one to three spots."""
    rng = random.Random(seed)
    corpus = [p for p in harness.corpus(source) if len(dumps(p)) < 200_000]
    make = built if build is None else build
    for _ in range(count):
        p = make(rng) if rng.random() < 0.8 else copy.deepcopy(rng.choice(corpus))
        if rng.random() < 0.6:
            for _ in range(rng.choice((1, 1, 2, 3))):
                _mutate_once(rng, p)
        yield p


def _lane(p: Any, target: str, wire: bool, source: str) -> tuple[dict[str, Any], bool] | None:
    plain = READERS[source](copy.deepcopy(p), None)
    out = None if plain is None else (WIRE_WRITERS if wire else WRITERS)[target](plain)
    return None if out is None or plain is None else (out, plain.noted)


def check(p: Any, source: str = SOURCE, targets: tuple[str, ...] = TARGETS) -> tuple[int, list[str]]:
    """How many of the one passes took ``p`` (each of ``targets``, dicts and Structs), and how each
    that did differs from the pair's reader and writer (payload bytes, noted) or changed ``p``."""
    taken, differences = 0, []
    before = copy.deepcopy(p)
    for target in targets:
        for wire in (False, True):
            try:
                got = NOTING_PASSES[source, target](p, wire)
            except Exception as exc:  # the pass must decline, never raise
                differences.append(f"{target} wire={wire}: raised {exc!r}")
                continue
            if p != before:
                differences.append(f"{target} wire={wire}: changed the request")
            if got is None:
                continue
            taken += 1
            expected = _lane(p, target, wire, source)
            if expected is None:
                differences.append(f"{target} wire={wire}: taken, the lane declines")
            elif dumps(got[0]) != dumps(expected[0]) or got[1] != expected[1]:
                differences.append(f"{target} wire={wire}: {got[1]} != {expected[1]} or the payloads differ")
    return taken, differences


def _outcome(call: Callable[[], Any]) -> Any:
    """``call()``, or the type, message and path of the toolwire error (or ValueError) it raised."""
    try:
        return call()
    except (ToolwireError, ValueError) as exc:
        return (type(exc).__name__, str(exc), getattr(exc, "path", None))


def _outcomes(p: Any, target: Any, source: Any) -> list[Any]:
    """Every public API's outcome for ``p``, each policy: the dict API's payload bytes and
    notes, the bytes API's body (and notes, when asked for), or the error's type, message and
    path."""
    out: list[Any] = []
    raw = dumps(p)
    for policy in ("drop", "warn"):
        dict_api = partial(translate_request, copy.deepcopy(p), source=source, target=target, policy=policy)
        result = _outcome(dict_api)
        out.append(result if type(result) is tuple else (dumps(result.payload), list(result.notes)))
        for notes in (None, []):
            bytes_api = partial(
                translate_request_bytes, raw, source=source, target=target, policy=policy, notes=notes
            )
            out.append((_outcome(bytes_api), notes))
    return out


def check_public(p: Any, source: str = SOURCE, targets: tuple[str, ...] = TARGETS) -> list[str]:
    """How the public APIs' outcomes for ``p`` differ with the one passes and without them."""
    differences = []
    for target in targets:
        with_pass = _outcomes(p, target, source)
        one_pass = NOTING_PASSES.pop((source, target))
        try:
            without = _outcomes(p, target, source)
        finally:
            NOTING_PASSES[source, target] = one_pass
        if with_pass != without:
            differences.append(f"{target}: the public APIs differ")
    return differences


def run(payloads: Iterator[Any], source: str, targets: tuple[str, ...]) -> int:
    """Assert that no pass from ``source`` to ``targets`` differs for any of ``payloads`` (each
    tenth also through the public APIs); return how many times a pass took one."""
    taken = 0
    for index, payload in enumerate(payloads):
        count, differences = check(payload, source, targets)
        taken += count
        assert differences == [], payload
        if index % 10 == 0:
            assert check_public(payload, source, targets) == [], payload
    return taken


def agrees(payload: Any, source: str, target: str, declines: bool) -> None:
    """Assert that the pass from ``source`` to ``target`` declines ``payload`` (``declines``) or
    writes the lane's payload and notes what it notes (dicts and Structs), and that the public
    API and the general path agree on it (warn and drop)."""
    for wire in (False, True):
        got = NOTING_PASSES[source, target](copy.deepcopy(payload), wire)
        if declines:
            assert got is None
        else:
            expected = _lane(payload, target, wire, source)
            assert got is not None and expected is not None
            assert dumps(got[0]) == dumps(expected[0])
            assert got[1] == expected[1]
    for policy in ("warn", "drop"):
        harness.same_both_ways(payload, source, target, policy)
