"""The survey that lets a hop skip the passes that cannot change a history (``toolwire._survey``),
and the skips themselves: a skipped pass leaves the request as the pass would have."""

from __future__ import annotations

import pytest

from toolwire._callids import sanitize_call_id
from toolwire._renaming import rename_request
from toolwire._survey import survey
from toolwire.ir.content import Message, ReasoningPart, TextPart, ToolCall, ToolResult
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request
from toolwire.names import NameMap
from toolwire.translate import Exchange

FLAGS = ("reasoning", "escaped", "idless", "spaced", "custom", "parallel")


def _flags(*parts: object) -> dict[str, object]:
    found = survey(
        (Message(role="user", parts=(TextPart(text="hi"),)), Message(role="assistant", parts=parts))
    )  # type: ignore[arg-type]
    return {flag: getattr(found, flag) for flag in FLAGS} | {"names": list(found.names)}


NONE = dict.fromkeys(FLAGS, False)


@pytest.mark.parametrize(
    ("parts", "expected"),
    [
        ((TextPart(text="x"),), {**NONE, "names": []}),
        ((ReasoningPart(text="t"),), {**NONE, "reasoning": True, "names": []}),
        ((ToolCall(name="f", arguments="{}", id="a--b"),), {**NONE, "escaped": True, "names": ["f"]}),
        ((ToolResult(call_id="a--b", content=()),), {**NONE, "escaped": True, "names": []}),
        ((ToolResult(call_id=None, name="g", content=()),), {**NONE, "idless": True, "names": ["g"]}),
        (
            (ToolCall(name="f", arguments="{}", id="1", namespace="ns"),),
            {**NONE, "spaced": True, "names": ["f"]},
        ),
        (
            (ToolCall(name="f", arguments="x", id="1", kind="custom"),),
            {**NONE, "custom": True, "names": ["f"]},
        ),
        ((ToolResult(call_id="1", kind="custom", content=()),), {**NONE, "custom": True, "names": []}),
        # built-in calls and results name no tool of the request, and are not shimmed
        (
            (ToolCall(name="web", arguments="{}", id="a--b", kind="builtin", namespace="n"),),
            {**NONE, "escaped": True, "names": []},
        ),
        ((ToolResult(call_id="1", name="web", kind="builtin", content=()),), {**NONE, "names": []}),
        # names in order of first use, once each
        (
            (
                ToolCall(name="b", arguments="{}", id="1"),
                ToolCall(name="a", arguments="{}", id="2"),
                ToolResult(call_id="1", name="b", content=()),
                ToolResult(call_id="2", name="c", content=()),
            ),
            {**NONE, "parallel": True, "names": ["b", "a", "c"]},
        ),
        # one call and a built-in one: nothing to put in order
        (
            (
                ToolCall(name="b", arguments="{}", id="1"),
                ToolCall(name="web", arguments="{}", id="2", kind="builtin"),
            ),
            {**NONE, "names": ["b"]},
        ),
    ],
)
def test_survey_flags_what_each_pass_changes(parts: tuple[object, ...], expected: dict[str, object]) -> None:
    assert _flags(*parts) == expected


def _history(*names: str) -> Request:
    messages = [Message(role="user", parts=(TextPart(text="go"),))]
    for i, name in enumerate(names):
        messages.append(Message(role="assistant", parts=(ToolCall(name=name, arguments="{}", id=f"c{i}"),)))
        messages.append(Message(role="tool", parts=(ToolResult(call_id=f"c{i}", name=name, content=()),)))
    return Request(messages=tuple(messages))


def test_rename_with_names_walks_only_when_a_name_changes() -> None:
    ir = _history("ok", "a.b")
    walked = rename_request(ir, NameMap("anthropic").to_target, Notes("drop"))
    told = rename_request(ir, NameMap("anthropic").to_target, Notes("drop"), survey(ir.messages).names)
    assert walked == told
    assert [p.name for m in told.messages for p in m.parts if isinstance(p, (ToolCall, ToolResult))] == [
        "ok",
        "ok",
        "a_b",
        "a_b",
    ]
    plain = _history("ok", "fine")
    assert (
        rename_request(plain, NameMap("anthropic").to_target, Notes("drop"), survey(plain.messages).names)
        is plain
    )


def test_rename_with_names_registers_them_in_order_of_first_use() -> None:
    """Two names that sanitize alike: the first used keeps the plain form, as in the full walk."""
    ir = _history("a.b", "a:b")
    names = NameMap("anthropic")
    out = rename_request(ir, names.to_target, Notes("drop"), survey(ir.messages).names)
    full = NameMap("anthropic")
    rename_request(ir, full.to_target, Notes("drop"))
    assert names.renamed == full.renamed
    assert names.renamed["a.b"] == "a_b"
    assert names.renamed["a:b"].startswith("a_b_")
    assert out.messages[1].parts[0].name == "a_b"  # type: ignore[union-attr]


def test_exchange_restores_escaped_ids_and_keeps_a_plain_history() -> None:
    """An Anthropic client's escaped id is restored (the survey found it); a history with nothing
    to change reaches the encoder as the decoder made it."""
    ex = Exchange("anthropic", "openai-chat", policy="strict")
    escaped = sanitize_call_id("call.1:a")
    body = {
        "model": "m",
        "max_tokens": 10,
        "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": escaped, "name": "f", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": escaped, "content": "ok"}]},
        ],
    }
    out = ex.request(body)
    assert out["messages"][1]["tool_calls"][0]["id"] == "call.1:a"
    assert out["messages"][2]["tool_call_id"] == "call.1:a"
    plain = ex.request({**body, "messages": body["messages"][:1]})
    assert ex.last_request is not None and ex.last_request.messages[0].parts[0].text == "go"  # type: ignore[union-attr]
    assert plain["messages"] == [{"role": "user", "content": "go"}]
