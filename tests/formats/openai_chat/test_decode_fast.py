"""The fast lanes of the Chat request decoder (``_decode_fast``) give exactly what the general decoder gives.

Each message (tool definition) is decoded with the lanes and by the general decoder alone (the
lanes switched off); the two must print the same (``repr`` shows every field and the order of
every extra), the lanes must take the shapes they are for (else they would be dead code) and
leave the others, including those the general decoder refuses, to the general decoder. Every
request of the repository's corpora decodes and translates the same with and without them.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests import corpus
from tests.compiled import pure_only
from tests.formats._lane_corpus import Payload, assert_same, outcome, requests
from toolwire.errors import ToolwireError
from toolwire.formats.openai_chat import _decode_messages, tools
from toolwire.formats.openai_chat._decode_fast import fast_message, fast_tool, plain_call
from toolwire.formats.openai_chat._decode_messages import decode_assistant, decode_messages
from toolwire.formats.openai_chat.response import decode_response
from toolwire.formats.openai_chat.tools import decode_tools
from toolwire.ir import Notes

_CALL = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"a": 1}'}}
_CALL2 = {"id": "c2", "type": "function", "function": {"name": "g", "arguments": ""}}
_CUSTOM = {"id": "k1", "type": "custom", "custom": {"name": "patch", "input": "x"}}
_PREFIX: list[dict[str, Any]] = [  # calls the tool messages below answer (function and custom)
    {"role": "assistant", "content": None, "tool_calls": [_CALL, _CUSTOM]},
]

_TAKEN: list[dict[str, Any]] = [
    {"role": "system", "content": "be brief"},
    {"role": "developer", "content": "be brief"},
    {"role": "user", "content": "hi"},
    {"content": "hello", "role": "assistant"},
    {"role": "assistant", "content": None, "tool_calls": [_CALL]},
    {"role": "assistant", "tool_calls": [_CALL, _CALL2], "content": None},
    {"role": "assistant", "content": "let me look", "tool_calls": [_CALL]},
    {"role": "tool", "tool_call_id": "c1", "content": "ok"},
    {"role": "tool", "content": "done", "tool_call_id": "k1"},
    {"role": "tool", "tool_call_id": "unknown", "content": "ok"},
]

_LEFT: list[Any] = [
    ["not", "a message"],
    {"role": "user"},
    {"role": "user", "content": ""},
    {"role": "user", "content": [{"type": "text", "text": "hi"}]},
    {"role": "user", "content": None},
    {"role": "robot", "content": "hi"},
    {"role": ["user"], "content": "hi"},
    {"role": "tool", "content": "hi"},
    {"role": "user", "content": "hi", "name": "ann"},
    {"role": "system", "content": "hi", "name": "ann", "x": 1},
    {"role": "assistant", "content": "hi", "refusal": None},
    {"role": "assistant", "content": None, "tool_calls": []},
    {"role": "assistant", "content": None, "tool_calls": {"0": _CALL}},
    {"role": "assistant", "content": None, "tool_calls": (_CALL,)},
    {"role": "assistant", "tool_calls": [_CALL], "name": "bot"},
    {"role": "assistant", "content": "", "tool_calls": [_CALL]},
    {"role": "assistant", "content": [{"type": "text", "text": "a"}], "tool_calls": [_CALL]},
    {"role": "assistant", "content": None, "tool_calls": [_CALL, _CUSTOM]},
    {"role": "assistant", "content": "a", "tool_calls": [_CALL, _CUSTOM]},
    {"role": "assistant", "content": None, "tool_calls": [_CALL, "call"]},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"type": "function", "function": _CALL["function"]}],
    },
    {"role": "assistant", "content": None, "tool_calls": [{**_CALL, "index": 0}]},
    {"role": "assistant", "content": None, "tool_calls": [{**_CALL, "type": "custom"}]},
    {"role": "assistant", "content": None, "tool_calls": [{**_CALL, "function": '{"name": "f"}'}]},
    {"role": "assistant", "content": None, "tool_calls": [{**_CALL, "function": {"name": "f"}}]},
    {"role": "assistant", "content": None, "tool_calls": [{**_CALL, "function": ["f", "{}"]}]},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [{**_CALL, "function": {**_CALL["function"], "x": 1}}],
    },
    {"role": "assistant", "content": None, "tool_calls": [{**_CALL, "id": None}]},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [{**_CALL, "function": {"name": 1, "arguments": ""}}],
    },
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [{**_CALL, "function": {"name": "f", "arguments": {}}}],
    },
    {"role": "tool", "tool_call_id": "c1", "content": ""},
    {"role": "tool", "tool_call_id": "c1", "content": [{"type": "text", "text": "ok"}]},
    {"role": "tool", "tool_call_id": 1, "content": "ok"},
    {"role": "tool", "tool_call_id": "c1", "name": "f"},
    {"role": "tool", "tool_call_id": "c1", "content": "ok", "name": "f"},
    {"role": "user", "tool_call_id": "c1", "content": "ok"},
    {"role": "function", "name": "f", "content": "ok"},
]

_NAMED = {"role": "assistant", "content": None, "tool_calls": [_CALL], "name": "bot"}

_FUNCTION = {"name": "f", "description": "d", "parameters": {"type": "object"}, "strict": True}
_TOOLS_TAKEN: list[dict[str, Any]] = [
    {"type": "function", "function": {"name": "f"}},
    {"type": "function", "function": _FUNCTION},
    {"function": {"strict": False, "name": "", "description": ""}, "type": "function"},
]
_TOOLS_LEFT: list[Any] = [
    "f",
    "fn",
    {"type": "custom", "function": {"name": "f"}},
    {"function": {"name": "f"}, "x": "function"},
    {"type": "function"},
    {"type": "function", "function": {"name": "f"}, "x": 1},
    {"type": "custom", "custom": {"name": "f"}},
    {"function": {"name": "f"}},
    {"type": "function", "function": "f"},
    {"type": "function", "function": {**_FUNCTION, "x": 1}},
    {"type": "function", "function": {"name": None}},
    {"type": "function", "function": {"description": "d"}},
    {"type": "function", "function": {"name": "f", "description": None}},
    {"type": "function", "function": {"name": "f", "description": 1}},
    {"type": "function", "function": {"name": "f", "strict": None}},
    {"type": "function", "function": {"name": "f", "strict": "yes"}},
    {"type": "function", "function": {"name": "f", "parameters": None}},
    {"type": "function", "function": {"name": "f", "parameters": {}}},
    {"type": "function", "function": {"name": "f", "parameters": "{}"}},
]


def _lanes_off(patch: pytest.MonkeyPatch) -> None:
    patch.setattr(_decode_messages, "fast_message", lambda item, calls: None)
    patch.setattr(_decode_messages, "plain_call", lambda item: None)
    patch.setattr(tools, "fast_tool", lambda item: None)


def _decode(messages: list[Any]) -> str:
    """What the decoder gives for ``messages`` (``repr``), or the error it raises."""
    try:
        return repr(decode_messages(copy.deepcopy(messages), Notes("drop")))
    except ToolwireError as exc:
        return f"{type(exc).__name__}: {exc}"


def _general(messages: list[Any], monkeypatch: pytest.MonkeyPatch) -> str:
    with monkeypatch.context() as patch:
        _lanes_off(patch)
        return _decode(messages)


@pure_only
@pytest.mark.parametrize("item", _TAKEN)
def test_a_common_shape_takes_the_lane(item: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    calls: dict[str, tuple[str, str]] = {"c1": ("f", "function"), "k1": ("patch", "custom")}
    fast = fast_message(copy.deepcopy(item), calls)
    assert fast is not None
    assert repr((*decode_messages(_PREFIX, Notes("drop"))[:1], fast)) == _general(
        [*_PREFIX, item], monkeypatch
    )
    assert _decode([*_PREFIX, item]) == _general([*_PREFIX, item], monkeypatch)


@pytest.mark.parametrize("item", _LEFT)
def test_other_shapes_are_left_to_the_general_decoder(item: Any) -> None:
    calls: dict[str, tuple[str, str]] = {}
    assert fast_message(copy.deepcopy(item), calls) is None
    assert calls == {}  # a call list the lane does not take records nothing


@pure_only
@pytest.mark.parametrize("item", _LEFT)
def test_other_shapes_decode_as_without_the_lanes(item: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _decode([*_PREFIX, item]) == _general([*_PREFIX, item], monkeypatch)


@pure_only
@pytest.mark.parametrize("item", _TAKEN + _LEFT)
def test_a_response_message_decodes_as_without_the_lanes(item: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """``decode_assistant`` (a response's message) takes the lane for assistant messages only."""

    def decoded() -> str:
        try:
            return repr(decode_assistant(copy.deepcopy(item), Notes("drop"), "$.choices[0].message"))
        except ToolwireError as exc:
            return f"{type(exc).__name__}: {exc}"

    with monkeypatch.context() as patch:
        _lanes_off(patch)
        general = decoded()
    assert decoded() == general


@pure_only
@pytest.mark.parametrize("item", _TOOLS_TAKEN)
def test_a_plain_function_tool_takes_the_lane(item: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    fast = fast_tool(copy.deepcopy(item))
    assert fast is not None
    with monkeypatch.context() as patch:
        _lanes_off(patch)
        general = decode_tools([copy.deepcopy(item)], Notes("drop"))
    assert repr((fast,)) == repr(general)


@pure_only
@pytest.mark.parametrize("item", _TOOLS_LEFT)
def test_other_tools_are_left_to_the_general_decoder(item: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    assert fast_tool(copy.deepcopy(item)) is None

    def decoded() -> str:
        notes = Notes("drop")
        return repr((decode_tools([copy.deepcopy(item)], notes, typeless=True), notes.items))

    with monkeypatch.context() as patch:
        _lanes_off(patch)
        general = decoded()
    assert decoded() == general


@pure_only
def test_the_decoders_take_the_lanes_for_the_common_shapes(monkeypatch: pytest.MonkeyPatch) -> None:
    general: list[str] = []
    for role, decoder in list(_decode_messages._DECODERS.items()):

        def counted(m: dict[str, Any], notes: Notes, path: str, calls: Any, decoder: Any = decoder) -> Any:
            general.append(path)
            return decoder(m, notes, path, calls)

        monkeypatch.setitem(_decode_messages._DECODERS, role, counted)
    decode_tool = tools._decode_tool
    monkeypatch.setattr(tools, "_decode_tool", lambda *a: general.append(a[2]) or decode_tool(*a))
    messages = [*_PREFIX, *_TAKEN, _NAMED, *_TAKEN]
    decode_messages(messages, Notes("drop"))
    custom = {"type": "custom", "custom": {"name": "f"}}
    decode_tools([*_TOOLS_TAKEN, custom, *_TOOLS_TAKEN], Notes("drop"))
    assert general == ["$.messages[0]", f"$.messages[{len(_TAKEN) + 1}]", f"$.tools[{len(_TOOLS_TAKEN)}]"]
    monkeypatch.setattr(_decode_messages, "_assistant", lambda *a: general.append("assistant"))
    assert decode_assistant(_TAKEN[6], Notes("drop"), "$") is not None
    assert general[3:] == []


@pure_only
def test_the_general_decoder_takes_plain_calls_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """A message the lane leaves still decodes its plain calls by :func:`plain_call`."""
    taken: list[Any] = []
    monkeypatch.setattr(_decode_messages, "plain_call", lambda item: taken.append(item) or plain_call(item))
    decoded = decode_messages([_NAMED], Notes("drop"))
    assert taken == [_CALL]
    assert decoded[0].parts == (plain_call(_CALL),)


_CHAT = requests("openai-chat")


@pure_only
@pytest.mark.parametrize("request_", _CHAT, ids=[p.id for p in _CHAT])
def test_every_chat_request_translates_as_without_the_lanes(
    request_: Payload, monkeypatch: pytest.MonkeyPatch
) -> None:
    """IR, payload to every format, notes with their paths, where the IR came from, refusals."""
    with monkeypatch.context() as patch:
        _lanes_off(patch)
        general = outcome(request_)
    assert_same(outcome(request_), general, request_)


@pure_only
def test_every_chat_response_decodes_as_without_the_lanes(monkeypatch: pytest.MonkeyPatch) -> None:
    samples = corpus.samples("openai-chat", "response", dialect=corpus.ANY_DIALECT)

    def decoded() -> list[str]:
        out = []
        for sample in samples:
            try:
                out.append(repr(decode_response(copy.deepcopy(sample.payload), Notes("drop"))))
            except ToolwireError as exc:
                out.append(f"{type(exc).__name__}: {exc}")
        return out

    with monkeypatch.context() as patch:
        _lanes_off(patch)
        general = decoded()
    assert decoded() == general
