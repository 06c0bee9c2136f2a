"""Anthropic turn rules as a user meets them: every problem of a conversation, with its locations.

Each test states the whole list of problems a request gets (code, JSON path, the API's own
location), so a rule that stops early, reports twice or points at the wrong block fails here.
"""

from __future__ import annotations

from typing import Any

from toolwire.validate import validate

_BASE = {"model": "claude-sonnet-4-5", "max_tokens": 4096}
_THINK: dict[str, Any] = {"thinking": {"type": "enabled", "budget_tokens": 1024}}
_ADAPTIVE: dict[str, Any] = {"thinking": {"type": "adaptive"}}
_ORPHAN_CALL = (
    "messages.{turn}: `tool_use` ids were found without `tool_result` blocks immediately after: {ids}. "
    "Each `tool_use` block must have a corresponding `tool_result` block in the next message."
)
_EMPTY = (
    "messages.{i}: all messages must have non-empty content except for the optional final assistant message"
)


def _user(content: Any) -> dict[str, Any]:
    return {"role": "user", "content": content}


def _assistant(content: Any) -> dict[str, Any]:
    return {"role": "assistant", "content": content}


def _use(use_id: str) -> dict[str, Any]:
    return {"type": "tool_use", "id": use_id, "name": "get_weather", "input": {"city": "Paris"}}


def _result(use_id: str) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": use_id, "content": "18C"}


def _text(text: str = "Let me check.") -> dict[str, Any]:
    return {"type": "text", "text": text}


def _thought() -> dict[str, Any]:
    return {"type": "thinking", "thinking": "The user wants weather.", "signature": "sig"}


def _found(messages: list[Any], *, beta: bool = False, **extra: Any) -> list[tuple[str, str, str | None]]:
    """(code, JSON path, API location) of each problem of a request with these messages."""
    payload = {**_BASE, **extra, "messages": messages}
    return [(p.code, p.path, p.param) for p in validate(payload, format="anthropic", beta=beta)]


def _messages(messages: list[Any], **extra: Any) -> list[str]:
    payload = {**_BASE, **extra, "messages": messages}
    return [p.message for p in validate(payload, format="anthropic")]


def test_a_valid_tool_loop_has_no_problem() -> None:
    loop = [_user("Weather?"), _assistant([_text(), _use("t1")]), _user([_result("t1"), _text("thanks")])]
    assert _found([*loop, _assistant("It is 18C.")]) == []


# -- the rest of the conversation is still checked after a message the turns cannot use --


def test_after_an_unknown_role_later_turns_are_checked() -> None:
    messages = [_user("hi"), {"role": "bot", "content": "x"}, _assistant([_use("t1")]), _user("no result")]
    assert _found(messages) == [
        ("invalid_value", "$.messages[1].role", "messages.1.role"),
        ("orphan_tool_call", "$.messages[2].content[0]", "messages.1"),
    ]
    assert _messages(messages) == [
        "messages.1.role: Input should be 'user' or 'assistant'",
        _ORPHAN_CALL.format(turn=1, ids="t1"),
    ]


def test_after_a_system_message_later_turns_are_checked() -> None:
    messages = [
        _user("hi"),
        {"role": "system", "content": "Be brief."},
        _assistant([_use("t1")]),
        _user("no result"),
        {"role": "system", "content": "Again."},
    ]
    assert _found(messages) == [
        ("invalid_role", "$.messages[1].role", "messages"),
        ("invalid_role", "$.messages[4].role", "messages"),
        ("orphan_tool_call", "$.messages[2].content[0]", "messages.1"),
    ]
    assert _messages(messages)[0] == (
        'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, '
        'not "system" as an input message role.'
    )


def test_an_inline_system_message_is_transparent_on_the_beta_surface() -> None:
    """Beta requests may carry ``system`` messages; a call and its result around one still pair."""
    system = {"role": "system", "content": "Be brief."}
    paired = [_user("hi"), system, _assistant([_use("t1")]), system, _user([_result("t1")])]
    assert _found(paired, beta=True) == []
    unpaired = [_user("hi"), system, _assistant([_use("t1")]), system, _user("no result"), system]
    assert _found(unpaired, beta=True) == [("orphan_tool_call", "$.messages[2].content[0]", "messages.1")]


def test_after_a_non_object_message_later_turns_are_checked() -> None:
    messages = [_user("hi"), 5, _assistant([_use("t1")]), _user("no result")]
    assert _found(messages) == [
        ("invalid_type", "$.messages[1]", "messages.1"),
        ("orphan_tool_call", "$.messages[2].content[0]", "messages.1"),
    ]


def test_after_a_message_without_role_later_turns_are_checked() -> None:
    messages = [_user("hi"), {"content": "x"}, _assistant([_use("t1")]), _user("no result")]
    assert _found(messages) == [
        ("missing_required_parameter", "$.messages[1].role", "messages.1.role"),
        ("orphan_tool_call", "$.messages[2].content[0]", "messages.1"),
    ]


def test_a_skipped_message_does_not_split_a_turn() -> None:
    """A result after a message with a bad role still answers the call before it."""
    messages = [
        _user("hi"),
        _assistant([_use("t1")]),
        {"role": "bot", "content": "x"},
        _user([_result("t1")]),
    ]
    assert _found(messages) == [("invalid_value", "$.messages[2].role", "messages.2.role")]


# -- only the final assistant message may be empty --


def test_only_the_final_assistant_message_may_be_empty() -> None:
    assert _found([_user("hi"), _assistant("")]) == []
    assert _found([_user("hi"), _assistant([])]) == []
    messages = [_user("hi"), _assistant(""), _user([]), _assistant("ok"), _user("")]
    assert _found(messages) == [
        ("empty_content", "$.messages[1].content", "messages.1"),
        ("empty_content", "$.messages[2].content", "messages.2"),
        ("empty_content", "$.messages[4].content", "messages.4"),
    ]
    assert _messages(messages) == [_EMPTY.format(i=i) for i in (1, 2, 4)]


def test_an_empty_first_user_message_is_reported() -> None:
    assert _found([_user(""), _assistant("ok")]) == [("empty_content", "$.messages[0].content", "messages.0")]


def test_empty_content_is_reported_after_a_bad_role() -> None:
    messages = [_user("hi"), {"role": "bot", "content": ""}, _assistant(""), _user("")]
    assert _found(messages) == [
        ("invalid_value", "$.messages[1].role", "messages.1.role"),
        ("empty_content", "$.messages[2].content", "messages.2"),
        ("empty_content", "$.messages[3].content", "messages.3"),
    ]


# -- tool_use / tool_result pairing over merged turns --


def test_results_are_located_in_the_merged_turn() -> None:
    """Consecutive user messages are one turn: a second message's block is ``content.1`` there."""
    messages = [_user("hi"), _assistant([_use("t1")]), _user([_result("t1")]), _user([_result("t9")])]
    assert _found(messages) == [("orphan_tool_result", "$.messages[3].content[0]", "messages.2.content.1")]
    assert _messages(messages) == [
        "messages.2.content.1: unexpected `tool_use_id` found in `tool_result` blocks: t9. Each "
        "`tool_result` block must have a corresponding `tool_use` block in the previous message."
    ]


def test_unanswered_calls_name_every_id_and_point_at_the_first() -> None:
    messages = [
        _user("hi"),
        _assistant([_text(), _use("t1")]),
        _assistant([_use("t2"), _use("t3")]),
        _user([_result("t2")]),
    ]
    assert _found(messages) == [("orphan_tool_call", "$.messages[1].content[1]", "messages.1")]
    assert _messages(messages) == [_ORPHAN_CALL.format(turn=1, ids="t1, t3")]


def test_a_call_in_the_final_turn_is_unanswered() -> None:
    messages = [_user("hi"), _assistant([_use("t1")])]
    assert _found(messages) == [("orphan_tool_call", "$.messages[1].content[0]", "messages.1")]


def test_results_must_lead_the_next_turn() -> None:
    """A result after text in the next turn does not answer the call (the API wants them first)."""
    messages = [
        _user("hi"),
        _assistant([_use("t1"), _use("t2")]),
        _user([_result("t1"), _text(), _result("t2")]),
    ]
    assert _found(messages) == [("orphan_tool_call", "$.messages[1].content[1]", "messages.1")]
    assert _messages(messages) == [_ORPHAN_CALL.format(turn=1, ids="t2")]


def test_a_result_answers_only_the_turn_right_before() -> None:
    messages = [
        _user("hi"),
        _assistant([_use("t1")]),
        _user([_result("t1")]),
        _assistant("done"),
        _user([_result("t1")]),
    ]
    assert _found(messages) == [("orphan_tool_result", "$.messages[4].content[0]", "messages.4.content.0")]


def test_a_result_in_the_first_turn_is_an_orphan() -> None:
    assert _found([_user([_result("t1")])]) == [
        ("orphan_tool_result", "$.messages[0].content[0]", "messages.0.content.0")
    ]


def test_two_results_for_one_call() -> None:
    messages = [_user("hi"), _assistant([_use("t1")]), _user([_result("t1"), _result("t1")])]
    assert _found(messages) == [("duplicate_result", "$.messages[2].content[1]", "messages.2.content.1")]
    assert _messages(messages) == [
        "messages.2.content.1: each `tool_use` must have a single result. Found multiple `tool_result` "
        "blocks with id: t1"
    ]


def test_a_reused_tool_use_id() -> None:
    messages = [
        _user("hi"),
        _assistant([_use("t1")]),
        _user([_result("t1")]),
        _assistant([_text(), _use("t1")]),
        _user([_result("t1")]),
    ]
    assert _found(messages) == [("duplicate_call_id", "$.messages[3].content[1]", "messages.3.content.1")]
    assert _messages(messages) == ["messages.3.content.1: `tool_use` ids must be unique"]


def test_a_tool_use_in_a_user_turn() -> None:
    messages = [_user([_text(), _use("t1")]), _assistant("ok")]
    assert _found(messages) == [("call_not_assistant", "$.messages[0].content[1]", "messages.0.content.1")]
    assert _messages(messages) == [
        "messages.0.content.1: `tool_use` blocks are only allowed in `assistant` messages"
    ]


def test_blocks_without_ids_are_left_to_the_shape_checks() -> None:
    """A ``tool_use`` without a string id and a result without one pair with nothing."""
    use = {"type": "tool_use", "id": 7, "name": "f", "input": {}}
    result = {"type": "tool_result", "tool_use_id": None}
    codes = [code for code, _, _ in _found([_user("hi"), _assistant([use]), _user([result])])]
    assert "orphan_tool_call" not in codes and "orphan_tool_result" not in codes


# -- thinking placement --


def test_with_thinking_the_final_block_cannot_be_thinking() -> None:
    messages = [_user("hi"), _assistant([_text()]), _assistant([_thought()])]
    assert _found(messages, **_THINK) == [("thinking_placement", "$.messages[2].content[0]", "messages.2")]
    assert _messages(messages, **_THINK) == [
        "messages.2: The final block in an assistant message cannot be `thinking`."
    ]


def test_without_thinking_a_final_assistant_turn_cannot_hold_thinking() -> None:
    """Reported once, at the first thinking block as the request wrote it."""
    messages = [_user("hi"), _assistant([_text()]), _assistant([_text(), _thought(), _thought()])]
    assert _found(messages) == [("thinking_placement", "$.messages[2].content[1]", "messages.2.content.1")]
    assert _messages(messages) == [
        "messages.2.content.1: When thinking is disabled, an `assistant` message in the final position "
        "cannot contain `thinking`. To use thinking blocks, enable `thinking` in your request."
    ]


def test_thinking_in_earlier_turns_is_fine_without_thinking() -> None:
    messages = [_user("hi"), _assistant([_thought(), _text()]), _user("more")]
    assert _found(messages) == []


def test_a_tool_loop_with_thinking_starts_with_a_thinking_block() -> None:
    loop = [_user("hi"), _assistant("ok"), _user("weather?"), _assistant([_text(), _use("t1")])]
    messages = [*loop, _user([_result("t1")])]
    assert _found(messages, **_THINK) == [
        ("thinking_placement", "$.messages[3].content[0].type", "messages.3.content.0.type")
    ]
    assert _messages(messages, **_THINK)[0].startswith(
        "messages.3.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`. When "
        "`thinking` is enabled, a final `assistant` message must start with a thinking block"
    )
    with_thought = [*loop[:3], _assistant([_thought(), _use("t1")]), _user([_result("t1")])]
    assert _found(with_thought, **_THINK) == []
    assert _found(messages, **_ADAPTIVE) == []
    assert _found(messages) == []


def test_the_thinking_head_rule_needs_a_tool_loop() -> None:
    """Only a final user turn of tool results after a turn with calls makes the head rule apply."""
    text_reply = [_user("hi"), _assistant([_text()]), _user("thanks")]
    assert _found(text_reply, **_THINK) == []
    answered_then_text = [_user("hi"), _assistant([_text(), _use("t1")]), _user([_text(), _result("t1")])]
    codes = [code for code, _, _ in _found(answered_then_text, **_THINK)]
    assert "thinking_placement" not in codes


def test_a_conversation_may_start_with_an_assistant_turn() -> None:
    messages = [_assistant([_use("t1")]), _user([_result("t1")])]
    assert _found(messages) == []


def test_a_first_turn_result_does_not_answer_a_later_call() -> None:
    messages = [_user([_result("t1")]), _assistant([_use("t1")])]
    assert _found(messages) == [
        ("orphan_tool_result", "$.messages[0].content[0]", "messages.0.content.0"),
        ("orphan_tool_call", "$.messages[1].content[0]", "messages.1"),
    ]


def test_a_lone_turn_of_results_with_thinking() -> None:
    assert _found([_user([_result("t1")])], **_THINK) == [
        ("orphan_tool_result", "$.messages[0].content[0]", "messages.0.content.0")
    ]


def test_redacted_thinking_is_a_thinking_block() -> None:
    redacted = {"type": "redacted_thinking", "data": "opaque"}
    loop = [_user("hi"), _assistant([redacted, _use("t1")]), _user([_result("t1")])]
    assert _found(loop, **_THINK) == []
    final = [_user("hi"), _assistant([_text(), redacted])]
    assert _found(final, **_THINK) == [("thinking_placement", "$.messages[1].content[1]", "messages.1")]
    assert _messages(final, **_THINK) == [
        "messages.1: The final block in an assistant message cannot be `redacted_thinking`."
    ]
    assert _found(final) == [("thinking_placement", "$.messages[1].content[1]", "messages.1.content.1")]


def test_a_tool_loop_head_written_as_a_string() -> None:
    """A string-content message is one text block: the head rule names it ``content.0``."""
    messages = [_user("hi"), _assistant("Let me check."), _assistant([_use("t1")]), _user([_result("t1")])]
    assert _found(messages, **_THINK) == [
        ("thinking_placement", "$.messages[1].content.type", "messages.1.content.0.type")
    ]
    assert _messages(messages, **_THINK) == [
        "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`. When "
        "`thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding "
        "the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking "
        "blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our "
        "documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
    ]


def test_a_two_turn_tool_loop_with_thinking() -> None:
    messages = [_assistant([_text(), _use("t1")]), _user([_result("t1")])]
    assert _found(messages, **_THINK) == [
        ("thinking_placement", "$.messages[0].content[0].type", "messages.0.content.0.type")
    ]
