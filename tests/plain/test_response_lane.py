"""Response lanes (``toolwire._plain._response_lane``) write what the general path writes.

Every Chat response of the corpora (recorded fixtures and the benchmark response) goes through
both paths to every target with a writer: the same payload byte for byte, the same notes, the
same IR, the same error; hand-written one-spot changes of a plain response pin each guard of
the Chat reader: the lane takes the plain shapes and leaves every other one to the general path.
"""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Callable
from typing import Any

import orjson
import pytest
from benchmarks.bench_pairs import _responses_in_each_format

from tests.corpus import samples
from tests.plain.harness import outcome, same_bytes
from toolwire import translate_response, translate_response_bytes
from toolwire._json import dumps
from toolwire._plain._response_form import PlainResponse, distinct
from toolwire._plain._response_lane import RESPONSE_READERS, RESPONSE_WRITERS, response_lane
from toolwire.translate import Translation, _general_response

PAIRS = [(s, t) for s in RESPONSE_READERS for t in RESPONSE_WRITERS if s != t]


def same_both_ways(payload: Any, source: str, target: str, policy: str = "drop") -> bool:
    """Assert that the public API (lane or not) and the general path agree on ``payload``;
    return whether the lane took it."""
    before = copy.deepcopy(payload)
    took = response_lane(payload, source, target, policy) is not None
    general = outcome(lambda: _general_response(payload, source, target, policy, None))  # type: ignore[arg-type]
    got = outcome(lambda: translate_response(payload, source=source, target=target, policy=policy))  # type: ignore[arg-type]
    if isinstance(general, Translation):
        assert isinstance(got, Translation), got
        same_bytes(dumps(got.payload), dumps(general.payload))
        assert got.notes == general.notes
        assert got.ir == general.ir
        assert got == general
    else:
        assert got == general
        assert not took  # an error always comes from the general path
    if type(payload) is dict:
        raw = json.dumps(payload).encode()
        for notes in (None, []):
            via = outcome(
                lambda notes=notes: translate_response_bytes(  # type: ignore[misc]
                    raw,
                    source=source,  # type: ignore[arg-type]
                    target=target,  # type: ignore[arg-type]
                    policy=policy,  # type: ignore[arg-type]
                    notes=notes,
                )
            )
            if isinstance(general, Translation):
                same_bytes(via, dumps(general.payload))
                assert notes is None or notes == list(general.notes)
            else:
                assert via == general
    assert payload == before  # neither path changes the caller's payload
    return took


def _corpus(fmt: str) -> list[Any]:
    return [
        *(s.payload for s in samples(fmt, "response")),
        orjson.loads(_responses_in_each_format()[fmt]),
    ]


@pytest.mark.parametrize(("source", "target"), PAIRS)
def test_every_corpus_response_translates_the_same_both_ways(source: str, target: str) -> None:
    corpus = _corpus(source)
    assert len(corpus) > 20
    taken = [same_both_ways(payload, source, target) for payload in corpus]
    assert taken[-1]  # the benchmark response takes the lane
    assert sum(taken) >= 5
    for policy in ("warn", "strict"):  # other policies: the general path, which logs or raises
        assert not same_both_ways(corpus[-1], source, target, policy)


def plain() -> dict[str, Any]:
    """A Chat response of every shape the lane takes."""
    return {
        "id": "chatcmpl-9",
        "object": "chat.completion",
        "created": 1700000000,
        "model": "gpt-4o",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": "Checking.",
                    "tool_calls": [
                        {"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"a": 1}'}},
                        {"id": "c2", "type": "function", "function": {"name": "g", "arguments": "{}"}},
                    ],
                    "refusal": None,
                },
                "finish_reason": "tool_calls",
                "logprobs": None,
            }
        ],
        "usage": {
            "prompt_tokens": 10,
            "completion_tokens": 5,
            "total_tokens": 15,
            "prompt_tokens_details": {"cached_tokens": 2},
            "completion_tokens_details": {"reasoning_tokens": 1},
        },
    }


def _at(*path: Any) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def where(p: dict[str, Any]) -> dict[str, Any]:
        for key in path:
            p = p[key]
        return p

    return where


_DETAILS = ("prompt_tokens_details", "completion_tokens_details")
_MESSAGE = _at("choices", 0, "message")
_CHOICE = _at("choices", 0)

TAKEN: dict[str, Callable[[dict[str, Any]], None]] = {
    "as it is": lambda p: None,
    "text only": lambda p: [_MESSAGE(p).pop("tool_calls"), _CHOICE(p).update(finish_reason="stop")],
    "calls only": lambda p: _MESSAGE(p).update(content=None),
    "no refusal": lambda p: _MESSAGE(p).pop("refusal"),
    "no logprobs": lambda p: _CHOICE(p).pop("logprobs"),
    "no usage": lambda p: p.pop("usage"),
    "usage without details": lambda p: [
        p["usage"].pop(k) for k in ("prompt_tokens_details", "completion_tokens_details")
    ],
    "cut at the length limit": lambda p: _CHOICE(p).update(finish_reason="length"),
    "filtered": lambda p: _CHOICE(p).update(finish_reason="content_filter"),
}

FALLS_BACK: dict[str, Callable[[dict[str, Any]], None]] = {
    "an unknown top field": lambda p: p.update(system_fingerprint="fp"),
    "another object": lambda p: p.update(object="chat.completion.chunk"),
    "no id": lambda p: p.pop("id"),
    "an empty id": lambda p: p.update(id=""),
    "an empty model": lambda p: p.update(model=""),
    "no created": lambda p: p.pop("created"),
    "created as a string": lambda p: p.update(created="1"),
    "two choices": lambda p: p["choices"].append(copy.deepcopy(p["choices"][0])),
    "no choice": lambda p: p.update(choices=[]),
    "choice index 1": lambda p: _CHOICE(p).update(index=1),
    "an unknown choice field": lambda p: _CHOICE(p).update(extra=1),
    "logprobs given": lambda p: _CHOICE(p).update(logprobs={"content": []}),
    "an unknown finish reason": lambda p: _CHOICE(p).update(finish_reason="paused"),
    "no finish reason": lambda p: _CHOICE(p).pop("finish_reason"),
    "a null finish reason": lambda p: _CHOICE(p).update(finish_reason=None),
    "a refusal": lambda p: _MESSAGE(p).update(refusal="no"),
    "a user message": lambda p: _MESSAGE(p).update(role="user"),
    "an unknown message field": lambda p: _MESSAGE(p).update(annotations=[]),
    "no content": lambda p: _MESSAGE(p).pop("content"),
    "an empty text": lambda p: _MESSAGE(p).update(content=""),
    "content parts": lambda p: _MESSAGE(p).update(content=[{"type": "text", "text": "x"}]),
    "null content without calls": lambda p: [_MESSAGE(p).pop("tool_calls"), _MESSAGE(p).update(content=None)],
    "empty tool_calls": lambda p: _MESSAGE(p).update(tool_calls=[]),
    "a call id used twice": lambda p: _MESSAGE(p)["tool_calls"][1].update(id="c1"),
    "an empty call id": lambda p: _MESSAGE(p)["tool_calls"][0].update(id=""),
    "a custom call": lambda p: _MESSAGE(p)["tool_calls"][0].update(type="custom"),
    "an unknown call field": lambda p: _MESSAGE(p)["tool_calls"][0].update(index=0),
    "another field for the call type": lambda p: _MESSAGE(p)["tool_calls"][0].update(
        index=_MESSAGE(p)["tool_calls"][0].pop("type")
    ),
    "an unknown function field": lambda p: _MESSAGE(p)["tool_calls"][0]["function"].update(strict=True),
    "another field for the arguments": lambda p: _MESSAGE(p)["tool_calls"][0]["function"].update(
        args=_MESSAGE(p)["tool_calls"][0]["function"].pop("arguments")
    ),
    "another field for the refusal": lambda p: _MESSAGE(p).update(audio=_MESSAGE(p).pop("refusal")),
    "another field for logprobs": lambda p: _CHOICE(p).update(extra=_CHOICE(p).pop("logprobs")),
    "another field for the usage": lambda p: p.update(service_tier=p.pop("usage")),
    "an empty name": lambda p: _MESSAGE(p)["tool_calls"][0]["function"].update(name=""),
    "empty arguments": lambda p: _MESSAGE(p)["tool_calls"][0]["function"].update(arguments=""),
    "object arguments": lambda p: _MESSAGE(p)["tool_calls"][0]["function"].update(arguments={"a": 1}),
    "an unknown usage field": lambda p: p["usage"].update(queue_time=1),
    "usage as a list": lambda p: p.update(usage=[]),
    "a usage count as a string": lambda p: p["usage"].update(prompt_tokens="10"),
}


@pytest.mark.parametrize("target", [t for t in RESPONSE_WRITERS if t != "openai-chat"])
@pytest.mark.parametrize("name", TAKEN)
def test_plain_shapes_take_the_lane(name: str, target: str) -> None:
    payload = plain()
    TAKEN[name](payload)
    assert same_both_ways(payload, "openai-chat", target)


@pytest.mark.parametrize("target", [t for t in RESPONSE_WRITERS if t != "openai-chat"])
@pytest.mark.parametrize("name", FALLS_BACK)
def test_other_shapes_take_the_general_path(name: str, target: str) -> None:
    payload = plain()
    FALLS_BACK[name](payload)
    assert not same_both_ways(payload, "openai-chat", target)


def test_a_plain_response_copies_and_pickles_field_by_field() -> None:
    given = RESPONSE_READERS["openai-chat"](plain())
    assert given is not None and given.created is not None and given.text and given.calls and given.usage
    copies = (copy.copy(given), copy.deepcopy(given), pickle.loads(pickle.dumps(given)))
    for made in copies:
        assert type(made) is PlainResponse and made is not given and made == given
        assert repr(made) == repr(given)
    assert copies[0].calls is given.calls and copies[1].calls is not given.calls  # shallow, deep


def test_the_plain_response_to_responses() -> None:
    out = translate_response(plain(), source="openai-chat", target="openai-responses", policy="drop")
    assert [item["type"] for item in out.payload["output"]] == ["message", "function_call", "function_call"]
    assert [item["id"][:3] for item in out.payload["output"]] == ["msg", "fc_", "fc_"]
    assert out.payload["usage"]["output_tokens_details"] == {"reasoning_tokens": 1}
    assert out.payload["created_at"] == 1700000000
    assert any(note.kind == "synthesized" for note in out.notes)


def test_distinct_call_ids() -> None:
    """The readers' one check of their calls' ids, after the loop (two calls or more)."""
    assert distinct([("a", "f", "{}"), ("b", "f", "{}")])
    assert not distinct([("a", "f", "{}"), ("b", "g", "{}"), ("a", "g", "{}")])
    assert distinct([("a", "f", "{}")]) and distinct([])
