"""The fast lane of the message encoder (``_encode_fast``) writes what the general encoder writes.

Messages are encoded from another format with the lane and with it switched off; payload and
notes must be the same, the lane must take the shapes it is for and leave (add nothing for)
the others, which the general encoder then encodes.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.compiled import pure_only
from toolwire.formats.anthropic import _encode_messages
from toolwire.formats.anthropic._encode_blocks import Ctx
from toolwire.formats.anthropic._encode_fast import fast_cross
from toolwire.formats.anthropic._encode_messages import _Turns, encode_messages
from toolwire.ir import Notes
from toolwire.ir.content import ImagePart, Message, ReasoningPart, RefusalPart, TextPart, ToolCall, ToolResult

_HINTS = {"~msg": {"role": "assistant"}, "~string": True, "gone": None}
_CALL = ToolCall(id="c1", name="f", arguments='{"a": 1}')
_RESULT = ToolResult(call_id="c1", content=(TextPart(text="ok"),), extra={"~string": True})
_OK = (TextPart(text="ok"),)

_TAKEN: list[Message] = [
    Message(role="user", parts=(TextPart(text="hi", extra={"~string": True}),), extra={"~string": True}),
    Message(role="user", parts=(TextPart(text="a"), TextPart(text="b")), extra={"gone": None}),
    Message(role="user", parts=(_CALL,)),
    Message(role="assistant", parts=(TextPart(text="hello", extra=_HINTS),)),
    Message(role="assistant", parts=(_CALL,)),
    Message(role="assistant", parts=(ToolCall(id="c2", name="g", arguments="", extra=_HINTS),)),
    Message(role="assistant", parts=(TextPart(text="let me look"), _CALL, ToolCall(id="c2", name="g"))),
    Message(role="assistant", parts=(ToolCall(id="c1", name="f", item_id="fc_1", namespace="n"),)),
    Message(role="tool", parts=(_RESULT,)),
    Message(role="tool", parts=(TextPart(text="stray"),)),
    Message(
        role="tool", parts=(_RESULT, ToolResult(call_id="c2", content=(TextPart(text=""),), is_error=True))
    ),
    Message(role="tool", parts=(ToolResult(call_id="c1", content=_OK, is_error=False, extra=_HINTS),)),
    Message(
        role="user", parts=(ToolResult(call_id="c1", content=(TextPart(text="ok", thought_signature="s"),)),)
    ),
    Message(role="assistant", parts=(_RESULT,)),
]

_LEFT: list[Message] = [
    Message(role="user", parts=()),
    Message(role="user", parts=(TextPart(text=""),)),
    Message(role="user", parts=(TextPart(text="a"), TextPart(text=""))),
    Message(role="user", parts=(ImagePart(url="https://x/y.png"),)),
    Message(role="user", parts=(TextPart(text="a", extra={"lost": 1}),)),
    Message(role="user", parts=(TextPart(text="a", thought_signature="s"),)),
    Message(role="user", parts=(TextPart(text="a"),), name="ann"),
    Message(role="user", parts=(TextPart(text="a"),), extra={"lost": 1}),
    Message(role="user", parts=(TextPart(text="a"), _RESULT)),
    Message(role="user", parts=(_RESULT, TextPart(text="a"))),
    Message(role="assistant", parts=(RefusalPart(text="no"),)),
    Message(role="assistant", parts=(ReasoningPart(text="hmm", origin="anthropic"), _CALL)),
    Message(role="assistant", parts=(ToolCall(name="f"),)),
    Message(role="assistant", parts=(ToolCall(id="a.b", name="f"),)),
    Message(role="assistant", parts=(ToolCall(id="c1", name="f", arguments="[1]"),)),
    Message(role="assistant", parts=(ToolCall(id="c1", name="f", arguments="{"),)),
    Message(role="assistant", parts=(ToolCall(id="c1", name="f", kind="custom"),)),
    Message(role="assistant", parts=(ToolCall(id="c1", name="web_search", kind="builtin"),)),
    Message(role="assistant", parts=(ToolCall(id="c1", name="f", thought_signature="s"),)),
    Message(role="assistant", parts=(ToolCall(id="c1", name="f", extra={"lost": 1}),)),
    Message(role="tool", parts=(ToolResult(call_id=None, name="f", content=_OK),)),
    Message(role="tool", parts=(ToolResult(call_id="a:b", content=_OK),)),
    Message(role="tool", parts=(ToolResult(call_id="c1", content=()),)),
    Message(role="tool", parts=(ToolResult(call_id="c1", content=(TextPart(text="a"), TextPart(text="b"))),)),
    Message(role="tool", parts=(ToolResult(call_id="c1", content=(ImagePart(url="https://x/y.png"),)),)),
    Message(role="tool", parts=(ToolResult(call_id="c1", content=(TextPart(text="a", extra={"~s": 1}),)),)),
    Message(role="tool", parts=(ToolResult(call_id="c1", kind="builtin", content=_OK),)),
    Message(role="tool", parts=(ToolResult(call_id="c1", content=_OK, extra={"lost": 1}),)),
    Message(role="tool", parts=(_RESULT,), extra={"lost": 1}),
    Message(role="tool", parts=(_RESULT,), name="ann"),
]


def _general(messages: list[Message], monkeypatch: pytest.MonkeyPatch) -> tuple[Any, ...]:
    with monkeypatch.context() as patch:
        patch.setattr(_encode_messages, "fast_cross", lambda message, ctx, turns: False)
        return _encoded(messages)


def _encoded(messages: list[Message]) -> tuple[Any, ...]:
    notes = Notes("drop")
    return encode_messages(tuple(messages), notes, same=False), notes.items


def _taken(messages: list[Message], monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The indices of ``messages`` the lane encodes."""
    general: list[int] = []
    cross = _encode_messages._cross

    def counted(message: Message, ctx: Ctx, path: str, turns: _Turns) -> None:
        general.append(int(path[len("$.messages[") : -1]))
        cross(message, ctx, path, turns)

    with monkeypatch.context() as patch:
        patch.setattr(_encode_messages, "_cross", counted)
        _encoded(messages)
    hoisted = {"system", "developer"}
    return [i for i, message in enumerate(messages) if i not in general and message.role not in hoisted]


@pytest.mark.parametrize("message", _TAKEN)
def test_a_common_shape_takes_the_lane(message: Message, monkeypatch: pytest.MonkeyPatch) -> None:
    ctx, turns = Ctx(Notes("drop"), same=False), _Turns(Notes("drop"))
    assert fast_cross(message, ctx, turns)
    assert ((None, turns.out), ctx.notes.items + turns.notes.items) == _general([message], monkeypatch)


@pytest.mark.parametrize("message", _LEFT)
def test_other_shapes_are_left_to_the_general_encoder(message: Message) -> None:
    turns = _Turns(Notes("drop"))
    assert not fast_cross(message, Ctx(Notes("drop"), same=False), turns)
    assert turns.out == []


@pure_only
def test_a_conversation_encodes_as_without_the_lane(monkeypatch: pytest.MonkeyPatch) -> None:
    """Merged turns, results put first, renamed and paired call ids around the lane come out the same."""
    system = Message(role="system", parts=(TextPart(text="be brief"),))
    messages = [
        system,
        *(m for pair in zip(_TAKEN, _LEFT, strict=False) for m in pair),
        *_TAKEN,
        system,
        *_LEFT,
    ]
    assert _encoded(messages) == _general(messages, monkeypatch)
    # results after other content of their user turn (17, 21, 39-42) are left: the general encoder moves them
    assert _taken(messages, monkeypatch) == [1, 3, 5, 7, 9, 11, 13, 15, 19, 23, 25, 27, *range(29, 39)]


_ESCAPED = ToolCall(id="a.b", name="f")


@pure_only
@pytest.mark.parametrize(
    ("messages", "taken"),
    [
        (  # a result after other content of its user turn is moved (noted) by the general encoder
            [Message(role="user", parts=(TextPart(text="a"),)), Message(role="tool", parts=(_RESULT,))],
            [0],
        ),
        (  # but not after results only
            [Message(role="tool", parts=(_RESULT,)), Message(role="tool", parts=(_RESULT,))],
            [0, 1],
        ),
        (  # a call id renamed before is renamed again, a kept one kept by the lane
            [
                Message(role="assistant", parts=(_ESCAPED,)),
                Message(role="assistant", parts=(_CALL,)),
                Message(role="tool", parts=(ToolResult(call_id="a.b", content=_OK),)),
                Message(role="tool", parts=(_RESULT,)),
                Message(role="assistant", parts=(_CALL,)),
            ],
            [1, 3, 4],
        ),
        (  # an id-less call is paired with its result by the general encoder
            [
                Message(role="assistant", parts=(_CALL, ToolCall(name="g"))),
                Message(role="tool", parts=(_RESULT, ToolResult(call_id=None, name="g", content=_OK))),
                Message(role="user", parts=(TextPart(text="and?"),)),
            ],
            [2],
        ),
        (  # a turn the lane starts has no leading blocks yet: thinking after its text is moved
            [
                Message(role="tool", parts=(_RESULT,)),
                Message(role="assistant", parts=(TextPart(text="so"),)),
                Message(
                    role="assistant", parts=(ReasoningPart(text="hmm", origin="anthropic", signature="s"),)
                ),
            ],
            [0, 1],
        ),
        (  # an assistant turn of the lane after one of the general encoder is merged into it
            [
                Message(
                    role="assistant", parts=(ReasoningPart(text="hmm", origin="anthropic", signature="s"),)
                ),
                Message(role="assistant", parts=(TextPart(text="so"),)),
                Message(role="assistant", parts=(_CALL,)),
            ],
            [1, 2],
        ),
    ],
)
def test_state_carried_between_turns_is_kept_by_the_lane(
    messages: list[Message], taken: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _encoded(messages) == _general(messages, monkeypatch)
    assert _taken(messages, monkeypatch) == taken
