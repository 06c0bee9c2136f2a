"""The fast lanes of the Chat message encoder (``_encode_fast``) write what the general encoder writes.

Each message is encoded from another format with the lanes and without them (the table
emptied); payload and notes must be the same, the lane must take the shapes it is for and
leave (write nothing for) the others.
"""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.formats.openai_chat import _encode_messages
from toolwire.formats.openai_chat._encode_fast import FAST_LANES
from toolwire.formats.openai_chat._encode_messages import _State, encode_messages
from toolwire.ir import Notes
from toolwire.ir.content import ImagePart, Message, ReasoningPart, RefusalPart, TextPart, ToolCall, ToolResult

_HINTS = {"~msg": {"role": "assistant"}, "~string": True, "gone": None}
_CALL = ToolCall(id="c1", name="f", arguments='{"a": 1}')
_RESULT = ToolResult(call_id="c1", content=(TextPart(text="ok"),), extra={"~string": True})

_TAKEN: list[Message] = [
    Message(role="system", parts=(TextPart(text="be brief"),), extra={"~instructions": True}),
    Message(role="developer", parts=(TextPart(text="be brief"),)),
    Message(role="user", parts=(TextPart(text="hi", extra={"~string": True}),), extra={"~string": True}),
    Message(role="user", parts=(TextPart(text=""),)),
    Message(role="assistant", parts=(TextPart(text="hello", extra=_HINTS),)),
    Message(role="assistant", parts=(_CALL,)),
    Message(role="assistant", parts=(_CALL, ToolCall(id="c2", name="g", extra={"~x": 1}))),
    Message(role="assistant", parts=(TextPart(text="let me look"), _CALL)),
    Message(role="tool", parts=(_RESULT,)),
    Message(role="tool", parts=(_RESULT, ToolResult(call_id="c2", content=(TextPart(text=""),)))),
    Message(role="tool", parts=()),
]

_LEFT: list[Message] = [
    Message(role="user", parts=(TextPart(text="a"), TextPart(text="b"))),
    Message(role="user", parts=(ImagePart(url="u"),)),
    Message(role="user", parts=(TextPart(text="a", extra={"lost": 1}),)),
    Message(role="user", parts=(TextPart(text="a", thought_signature="s"),)),
    Message(role="user", parts=(TextPart(text="a"),), name="ann"),
    Message(role="user", parts=(TextPart(text="a"),), extra={"lost": 1}),
    Message(role="user", parts=(_RESULT,)),
    Message(role="system", parts=()),
    Message(role="assistant", parts=()),
    Message(role="assistant", parts=(TextPart(text="a"),), id="msg_1"),
    Message(role="assistant", parts=(_CALL, TextPart(text="after"))),
    Message(role="assistant", parts=(TextPart(text="a"), TextPart(text="b"))),
    Message(role="assistant", parts=(RefusalPart(text="no"),)),
    Message(role="assistant", parts=(ReasoningPart(text="hmm"), _CALL)),
    Message(role="assistant", parts=(ToolCall(name="f"),)),
    Message(role="assistant", parts=(ToolCall(id="c1", name="f", kind="custom"),)),
    Message(role="assistant", parts=(ToolCall(id="c1", name="web_search", kind="builtin"),)),
    Message(role="assistant", parts=(ToolCall(id="c1", name="f", item_id="fc_1"),)),
    Message(role="assistant", parts=(ToolCall(id="c1", name="f", namespace="n"),)),
    Message(role="assistant", parts=(ToolCall(id="c1", name="f", thought_signature="s"),)),
    Message(role="assistant", parts=(ToolCall(id="c1", name="f", extra={"lost": 1}),)),
    Message(role="tool", parts=(ToolResult(call_id=None, content=(TextPart(text="ok"),)),)),
    Message(role="tool", parts=(ToolResult(call_id="c1", content=(TextPart(text="ok"),), is_error=True),)),
    Message(role="tool", parts=(ToolResult(call_id="c1", content=()),)),
    Message(role="tool", parts=(ToolResult(call_id="c1", content=(ImagePart(url="u"),)),)),
    Message(role="tool", parts=(ToolResult(call_id="c1", content=(RefusalPart(text="no"),)),)),
    Message(role="tool", parts=(ToolResult(call_id="c1", kind="builtin", content=(TextPart(text="ok"),)),)),
    Message(
        role="tool", parts=(ToolResult(call_id="c1", content=(TextPart(text="ok"),), extra={"lost": 1}),)
    ),
    Message(role="tool", parts=(_RESULT,), extra={"lost": 1}),
    Message(role="tool", parts=(TextPart(text="stray"),)),
]


def _general(messages: list[Message], monkeypatch: pytest.MonkeyPatch) -> tuple[Any, ...]:
    with monkeypatch.context() as patch:
        patch.setattr(_encode_messages, "FAST_LANES", dict.fromkeys(FAST_LANES, lambda message, state: False))
        return _encoded(messages)


def _encoded(messages: list[Message]) -> tuple[Any, ...]:
    notes = Notes("drop")
    return encode_messages(messages, notes, same=False), notes.items


@pytest.mark.parametrize("message", _TAKEN)
def test_a_common_shape_takes_its_lane(message: Message, monkeypatch: pytest.MonkeyPatch) -> None:
    state = _State(Notes("drop"), False)
    assert FAST_LANES[message.role](message, state)
    assert (state.out, state.notes.items) == _general([message], monkeypatch)


@pytest.mark.parametrize("message", _LEFT)
def test_other_shapes_are_left_to_the_general_encoder(message: Message) -> None:
    state = _State(Notes("drop"), False)
    assert not FAST_LANES[message.role](message, state)
    assert state.out == []


def test_a_conversation_encodes_as_without_the_lanes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Merged assistant turns, pending call ids and content moved out of tool results around
    the lanes come out the same (payload and notes)."""
    messages = [m for pair in zip(_TAKEN, _LEFT, strict=False) for m in pair] + _TAKEN + _LEFT
    assert _encoded(messages) == _general(messages, monkeypatch)


_NO_ID = ToolResult(call_id=None, content=(TextPart(text="ok"),))


@pytest.mark.parametrize(
    "messages",
    [
        [  # a lane's assistant turn forgets the id-less calls of the turn before
            Message(role="assistant", parts=(ToolCall(name="f"),)),
            Message(role="user", parts=(TextPart(text="and?"),)),
            Message(role="assistant", parts=(_CALL,)),
            Message(role="tool", parts=(_NO_ID,)),
        ],
        [  # content moved out of a result goes before the next user turn, lane-shaped or not
            Message(role="assistant", parts=(_CALL,)),
            Message(role="tool", parts=(ToolResult(call_id="c1", content=(ImagePart(url="u"),)),)),
            Message(role="user", parts=(TextPart(text="next"),)),
            Message(role="assistant", parts=(TextPart(text="seen"),)),
        ],
    ],
)
def test_state_carried_between_turns_is_kept_by_the_lanes(
    messages: list[Message], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _encoded(messages) == _general(messages, monkeypatch)
