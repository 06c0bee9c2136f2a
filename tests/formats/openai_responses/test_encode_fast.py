"""The fast lanes of the request ``input`` encoder (``_encode_fast``) write what the general encoder writes.

Each message is encoded from another format with the lanes and without them (the table
emptied); items and notes must be the same, a lane must take the shapes it is for and leave
the others. Every request of the repository's corpora translates to Responses the same with
and without them.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.compiled import pure_only
from tests.formats._lane_corpus import Payload, assert_same, outcome, requests
from toolwire.formats import openai_responses as resp
from toolwire.formats.openai_responses import _messages
from toolwire.formats.openai_responses._encode_fast import FAST_LANES
from toolwire.formats.openai_responses._encode_items import Ctx
from toolwire.ir import Notes, Request
from toolwire.ir.content import (
    ImagePart,
    Message,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCall,
    ToolResult,
)

_HINTS = {"~string": True, "~content": "string", "gone": None}
_CALL = ToolCall(id="c1", name="f", arguments='{"a": 1}')
_RESULT = ToolResult(call_id="c1", content=(TextPart(text="ok"),), extra={"~content": "string"})
_TEXT = TextPart(text="a")

_TAKEN: list[Message] = [
    Message(role="system", parts=(TextPart(text="be brief"),), extra={"~content": "string"}),
    Message(role="developer", parts=(TextPart(text="be brief"),)),
    Message(role="user", parts=(TextPart(text="hi", extra=_HINTS, thought_signature="s"),), extra=_HINTS),
    Message(role="user", parts=(TextPart(text=""),)),
    Message(role="assistant", parts=(TextPart(text="hello", extra=_HINTS),), extra=_HINTS),
    Message(role="assistant", parts=(_CALL,)),
    Message(role="assistant", parts=(_CALL, ToolCall(id="c2", name="g", extra={"~x": 1, "y": None}))),
    Message(role="assistant", parts=(TextPart(text="let me look"), _CALL)),
    Message(role="assistant", parts=(_CALL,), id="msg_1"),
    Message(role="tool", parts=(_RESULT,)),
    Message(
        role="tool", parts=(_RESULT, ToolResult(call_id="c2", content=(TextPart(text=""),), is_error=False))
    ),
    Message(
        role="tool", parts=(ToolResult(call_id="c1", name="f", content=(TextPart(text="x", extra=_HINTS),)),)
    ),
    Message(role="tool", parts=(_RESULT,), id="m", extra=_HINTS),
    Message(role="tool", parts=()),
]

_LEFT: list[Message] = [
    Message(role="user", parts=(_TEXT, TextPart(text="b"))),
    Message(role="user", parts=(ImagePart(url="https://example.com/a.png"),)),
    Message(role="user", parts=(_RESULT,)),
    Message(role="user", parts=(TextPart(text="a", extra={"lost": 1}),)),
    Message(role="user", parts=(_TEXT,), name="ann"),
    Message(role="user", parts=(_TEXT,), id="msg_1"),
    Message(role="user", parts=(_TEXT,), extra={"lost": 1}),
    Message(role="system", parts=()),
    Message(role="assistant", parts=()),
    Message(role="assistant", parts=(_TEXT,), name="bot"),
    Message(role="assistant", parts=(_TEXT,), id="msg_1"),
    Message(role="assistant", parts=(_TEXT,), extra={"lost": 1}),
    Message(role="assistant", parts=(TextPart(text="a", thought_signature="s"),)),
    Message(role="assistant", parts=(TextPart(text="a", extra={"~msg": {"id": "msg_1"}}),)),
    Message(role="assistant", parts=(TextPart(text="a", extra={"lost": 1}),)),
    Message(role="assistant", parts=(_TEXT, TextPart(text="b"))),
    Message(role="assistant", parts=(_CALL, _TEXT)),
    Message(role="tool", parts=(_RESULT,), name="ann"),
    Message(role="tool", parts=(_RESULT,), extra={"lost": 1}),
    Message(role="assistant", parts=(RefusalPart(text="no"),)),
    Message(role="assistant", parts=(ReasoningPart(text="hmm"), _CALL)),
    Message(role="assistant", parts=(ToolCall(name="f"),)),
    Message(role="assistant", parts=(ToolCall(id="c1", name="f", kind="custom"),)),
    Message(role="assistant", parts=(ToolCall(id="c1", name="web_search", kind="builtin"),)),
    Message(role="assistant", parts=(ToolCall(id="c1", name="f", item_id="fc_1"),)),
    Message(role="assistant", parts=(ToolCall(id="c1", name="f", namespace="n"),)),
    Message(role="assistant", parts=(ToolCall(id="c1", name="f", thought_signature="s"),)),
    Message(role="assistant", parts=(ToolCall(id="c1", name="f", extra={"lost": 1}),)),
    Message(role="assistant", parts=(_CALL, _RESULT)),
    Message(role="tool", parts=(ToolResult(call_id=None, content=(TextPart(text="ok"),)),)),
    Message(role="tool", parts=(ToolResult(call_id="c1", content=(TextPart(text="ok"),), is_error=True),)),
    Message(role="tool", parts=(ToolResult(call_id="c1", content=()),)),
    Message(role="tool", parts=(ToolResult(call_id="c1", content=(_TEXT, _TEXT)),)),
    Message(role="tool", parts=(ToolResult(call_id="c1", content=(ImagePart(url="u"),)),)),
    Message(role="tool", parts=(ToolResult(call_id="c1", content=(RefusalPart(text="no"),)),)),
    Message(role="tool", parts=(ToolResult(call_id="c1", kind="custom", content=(_TEXT,)),)),
    Message(role="tool", parts=(ToolResult(call_id="c1", kind="builtin", content=(_TEXT,)),)),
    Message(role="tool", parts=(ToolResult(call_id="c1", content=(_TEXT,), extra={"lost": 1}),)),
    Message(role="tool", parts=(ToolResult(call_id="c1", content=(TextPart(text="a", extra={"lost": 1}),)),)),
    Message(role="tool", parts=(_TEXT,)),
]


def _encoded(messages: list[Message], same: bool = False) -> tuple[Any, ...]:
    notes = Notes("drop")
    return _messages.encode_messages(tuple(messages), Ctx(notes=notes, same=same)), notes.items


def _general(messages: list[Message], monkeypatch: pytest.MonkeyPatch, same: bool = False) -> tuple[Any, ...]:
    with monkeypatch.context() as patch:
        patch.setattr(_messages, "FAST_LANES", {})
        return _encoded(messages, same)


@pytest.mark.parametrize("message", _TAKEN)
def test_a_common_shape_takes_its_lane(message: Message, monkeypatch: pytest.MonkeyPatch) -> None:
    items = FAST_LANES[message.role](message)
    assert items is not None
    assert (items, []) == _general([message], monkeypatch)


@pytest.mark.parametrize("message", _LEFT)
def test_other_shapes_are_left_to_the_general_encoder(
    message: Message, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert FAST_LANES[message.role](message) is None
    assert _encoded([message]) == _general([message], monkeypatch)


_KEPT = {"~item": {"type": "item_reference", "id": "ref_1"}}


@pytest.mark.parametrize(
    "messages",
    [
        [m for pair in zip(_TAKEN, _LEFT, strict=False) for m in pair] + _TAKEN + _LEFT,
        [  # a synthesized call id is paired with the result that has none, around lane-shaped turns
            Message(role="assistant", parts=(ToolCall(name="f"),)),
            Message(role="assistant", parts=(_CALL,)),
            Message(role="tool", parts=(_RESULT,)),
            Message(role="tool", parts=(ToolResult(call_id=None, name="f", content=(_TEXT,)),)),
        ],
        [  # a kept Responses item is noted as dropped, its parts encoded by the general encoder
            Message(role="user", parts=(_TEXT,), extra=_KEPT),
            Message(role="user", parts=(), extra=_KEPT),
            Message(role="assistant", parts=(_TEXT,), extra=_KEPT),
        ],
    ],
)
def test_a_conversation_encodes_as_without_the_lanes(
    messages: list[Message], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _encoded(messages) == _general(messages, monkeypatch)


def test_the_same_format_takes_no_lane(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hints of a Responses source (``~typed``, kept items) are honoured by the general encoder."""
    typed = Message(role="user", parts=(_TEXT,), extra={"~typed": True})
    messages = [typed, Message(role="user", parts=(_TEXT,), extra=_KEPT)]
    assert _encoded(messages, same=True) == _general(messages, monkeypatch, same=True)
    assert _encoded(messages, same=True)[0][0]["type"] == "message"


@pure_only
def test_the_encoder_takes_the_lanes_for_the_common_shapes(monkeypatch: pytest.MonkeyPatch) -> None:
    general: list[str] = []
    for name in ("_input_message", "_assistant_message", "_tool_message"):
        encode = getattr(_messages, name)

        def counted(message: Message, ctx: Ctx, path: str, encode: Any = encode) -> Any:
            general.append(path)
            return encode(message, ctx, path)

        monkeypatch.setattr(_messages, name, counted)
    _encoded([*_TAKEN, _LEFT[4], *_TAKEN])
    assert general == [f"$.messages[{len(_TAKEN)}]"]
    request = Request(messages=(_TAKEN[0], _TAKEN[2], _LEFT[4]), model="m", origin="openai-chat")
    assert resp.encode_request(request, Notes("drop"))["input"][0] == {"role": "user", "content": "hi"}
    assert general[1:] == ["$.messages[2]"]


_ALL = requests()


@pytest.mark.parametrize("request_", _ALL, ids=[p.id for p in _ALL])
def test_every_request_translates_to_responses_as_without_the_lanes(
    request_: Payload, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Payload, notes with their paths, refusals: the same with and without the lanes."""
    with monkeypatch.context() as patch:
        patch.setattr(_messages, "FAST_LANES", {})
        general = outcome(request_, ("openai-responses",))
    assert_same(outcome(request_, ("openai-responses",)), general, request_)


def test_a_tool_message_s_own_fields_are_noted_as_dropped() -> None:
    """A tool message's results become items of their own: its participant name and extra fields
    have nowhere to go, and the notes say so (they used to vanish silently)."""
    message = Message(role="tool", parts=(_RESULT,), name="ann", extra={"lost": 1})
    items, notes = _encoded([message])
    assert [item["type"] for item in items] == ["function_call_output"]
    assert [(n.path, n.kind, n.loss) for n in notes] == [
        ("$.messages[0]", "dropped", True),
        ("$.messages[0].lost", "dropped", True),
    ]
    assert "'ann'" in notes[0].message
