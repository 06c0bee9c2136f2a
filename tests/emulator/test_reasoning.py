"""Reasoning-state checks on canonical requests, per format."""

from __future__ import annotations

import base64

from toolwire.emulator.reasoning import check_reasoning
from toolwire.emulator.render import canonical_call
from toolwire.emulator.signature import sign
from toolwire.ir import Message, ReasoningConfig, ReasoningPart, Request, TextPart, ToolCall, ToolResult

SECRET = b"s"
THINK = ReasoningConfig(enabled=True, budget_tokens=1024)


def user(text: str) -> Message:
    return Message(role="user", parts=(TextPart(text=text),))


def results(call_id: str | None) -> Message:
    return Message(role="user", parts=(ToolResult(call_id=call_id, content=(TextPart(text="ok"),)),))


def thinking(text: str, signature: str | None = None) -> ReasoningPart:
    return ReasoningPart(text=text, signature=signature or sign(SECRET, text), origin="anthropic")


def test_anthropic_only_the_last_tool_turn_needs_thinking() -> None:
    call = ToolCall(name="f", arguments="{}", id="t1")
    old_turn = Message(role="assistant", parts=(call,))
    new_turn = Message(role="assistant", parts=(thinking("why"), ToolCall(name="f", arguments="{}", id="t2")))
    ok = Request(messages=(user("a"), old_turn, results("t1"), new_turn, results("t2")), reasoning=THINK)
    assert check_reasoning(ok, "anthropic", SECRET) is None
    bad = Request(messages=(user("a"), new_turn, results("t2"), old_turn, results("t1")), reasoning=THINK)
    message = check_reasoning(bad, "anthropic", SECRET)
    assert message is not None and message.startswith("messages.3.content.0.type: Expected `thinking`")
    assert check_reasoning(Request(messages=bad.messages), "anthropic", SECRET) is None  # thinking off


def test_anthropic_signature_binds_the_text() -> None:
    forged = Message(role="assistant", parts=(thinking("edited", sign(SECRET, "original")),))
    message = check_reasoning(Request(messages=(user("a"), forged)), "anthropic", SECRET)
    assert message == "messages.1.content.0: Invalid `signature` in `thinking` block"


def test_responses_reasoning_items() -> None:
    good = ReasoningPart(summary=("s",), encrypted=sign(SECRET, "s"), id="rs_1", origin="openai-responses")
    turn = Message(role="assistant", parts=(good,))
    assert check_reasoning(Request(messages=(user("a"), turn)), "openai-responses", SECRET) is None
    missing = Message(role="assistant", parts=(ReasoningPart(id="rs_2", origin="openai-responses"),))
    message = check_reasoning(Request(messages=(user("a"), missing)), "openai-responses", SECRET)
    assert message is not None and "Item with id 'rs_2' not found" in message
    forged = Message(role="assistant", parts=(ReasoningPart(id="rs_3", encrypted="Zm9v"),))
    message = check_reasoning(Request(messages=(user("a"), forged)), "openai-responses", SECRET)
    assert message == "The encrypted content for item rs_3 could not be verified."


def test_gemini_first_call_of_a_turn_needs_a_signature() -> None:
    first = ToolCall(
        name="f", arguments='{"a": 1}', thought_signature=sign(SECRET, canonical_call("f", '{"a":1}'))
    )
    second = ToolCall(name="g", arguments="{}")
    turn = Message(role="assistant", parts=(first, second))
    think = ReasoningConfig(include_thoughts=True)
    assert check_reasoning(Request(messages=(user("a"), turn), reasoning=think), "gemini", SECRET) is None
    unsigned = Message(role="assistant", parts=(second,))
    message = check_reasoning(Request(messages=(user("a"), unsigned), reasoning=think), "gemini", SECRET)
    assert message is not None and "function call `default_api:g` , position 1" in message
    moved = Message(
        role="assistant",
        parts=(ToolCall(name="f", arguments='{"a": 2}', thought_signature=first.thought_signature),),
    )
    message = check_reasoning(Request(messages=(user("a"), moved)), "gemini", SECRET)
    assert message == "Corrupted thought signature (contents[1].parts[0])."


def test_chat_has_no_reasoning_state() -> None:
    assert check_reasoning(Request(messages=(user("a"),), reasoning=THINK), "openai-chat", SECRET) is None


def test_gemini_accepts_google_placeholder_on_calls_only() -> None:
    call = ToolCall(name="f", arguments="{}", thought_signature="skip_thought_signature_validator")
    turn = Message(role="assistant", parts=(call,))
    request = Request(messages=(user("a"), turn, results(None)), reasoning=THINK)
    assert check_reasoning(request, "gemini", SECRET) is None
    dummy = TextPart(text="t", thought_signature="skip_thought_signature_validator")
    text = Message(role="assistant", parts=(dummy,))
    message = check_reasoning(Request(messages=(user("a"), text)), "gemini", SECRET)
    assert message == "Corrupted thought signature (contents[1].parts[0])."


def test_placeholders_and_byte_exact_tokens() -> None:
    from toolwire.emulator.signature import PLACEHOLDERS, exact, is_placeholder, verify

    for text in PLACEHOLDERS:
        assert is_placeholder(text) and is_placeholder(base64.b64encode(text.encode()).decode())
    assert not is_placeholder("skip_thought_signature_validatorx") and not is_placeholder(None)
    token = sign(SECRET, "why")
    assert exact(SECRET, token, "why") and not exact(SECRET, token, "other")
    respelled = token.rstrip("=") if token.endswith("=") else token.replace("+", "-").replace("/", "_")
    assert respelled != token and verify(SECRET, respelled, "why") and not exact(SECRET, respelled, "why")
    placeholder = ToolCall(name="g", arguments="{}", thought_signature=PLACEHOLDERS[1])
    turn = Message(role="assistant", parts=(placeholder,))
    think = ReasoningConfig(include_thoughts=True)
    assert check_reasoning(Request(messages=(user("a"), turn), reasoning=think), "gemini", SECRET) is None
