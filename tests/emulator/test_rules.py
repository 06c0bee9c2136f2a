"""``rules="provider"``: the replay rules real providers enforce on history, through the SDKs.

Both servers here run with ``validate=False``, so every 400 below comes from the rules mode
itself; the ``lenient`` server, answering 200 to the same history, shows the rule is the mode's.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import anthropic
import httpx
import openai
import pytest
from google.genai import errors, types

from tests.emulator import test_sdk_anthropic as anth
from tests.emulator import test_sdk_gemini as gem
from tests.emulator.tools import chat_tools, responses_tools, result_for
from toolwire.emulator import EmulatorConfig, serve

THINKING = {"type": "enabled", "budget_tokens": 1024}
GEMINI_3 = "gemini-3-pro-preview"


@pytest.fixture(scope="module")
def strict() -> Iterator[str]:
    with serve(config=EmulatorConfig(rules="provider", validate=False), log_level="critical") as base:
        yield base


@pytest.fixture(scope="module")
def loose() -> Iterator[str]:
    with serve(config=EmulatorConfig(validate=False), log_level="critical") as base:
        yield base


def reencoded(token: str) -> str:
    """The same bytes in another base64 spelling (URL-safe alphabet, or no padding)."""
    other = token.replace("+", "-").replace("/", "_") if ("+" in token or "/" in token) else token.rstrip("=")
    assert other != token
    return other


# --- Anthropic ------------------------------------------------------------------------------------


def anthropic_loop(url: str) -> list[dict[str, Any]]:
    """Two tool loops with thinking; returns the history (ends with tool results)."""
    c = anth.client(url)
    messages: list[dict[str, Any]] = [{"role": "user", "content": "weather and time"}]
    first = anth.turn(c, messages, False, thinking=THINKING)
    messages += [anth.assistant(first), anth.results(first)]
    answer = anth.turn(c, messages, True, thinking=THINKING)
    assert answer.stop_reason == "end_turn"
    messages += [anth.assistant(answer), {"role": "user", "content": "Weather again?"}]
    again = anth.turn(c, messages, True, thinking=THINKING)
    assert again.stop_reason == "tool_use"
    return [*messages, anth.assistant(again), anth.results(again)]


def test_anthropic_valid_history_passes(strict: str) -> None:
    messages = anthropic_loop(strict)
    final = anth.turn(anth.client(strict), messages, False, thinking=THINKING)
    assert final.stop_reason == "end_turn"


def anthropic_error(url: str, messages: list[dict[str, Any]]) -> str:
    with pytest.raises(anthropic.BadRequestError) as info:
        anth.turn(anth.client(url), messages, False, thinking=THINKING)
    body = info.value.body
    assert isinstance(body, dict) and body["type"] == "error"
    assert body["error"]["type"] == "invalid_request_error"
    return str(body["error"]["message"])


def test_anthropic_signature_must_be_byte_exact(strict: str, loose: str) -> None:
    messages = anthropic_loop(strict)
    messages[-2]["content"][0]["signature"] = reencoded(messages[-2]["content"][0]["signature"])
    assert anth.turn(anth.client(loose), messages, False, thinking=THINKING).stop_reason == "end_turn"
    assert (
        anthropic_error(strict, messages) == "messages.5.content.0: Invalid `signature` in `thinking` block"
    )


def test_anthropic_redacted_thinking_not_ours(strict: str) -> None:
    messages = anthropic_loop(strict)
    messages[-2]["content"][0] = {"type": "redacted_thinking", "data": "RWRpdGVk"}
    message = anthropic_error(strict, messages)
    assert message == "messages.5.content.0: Invalid `data` in `redacted_thinking` block"


def test_anthropic_last_tool_turn_starts_with_thinking(strict: str, loose: str) -> None:
    messages = anthropic_loop(strict)
    messages[1]["content"] = messages[1]["content"][1:]  # an earlier turn may drop it
    assert anth.turn(anth.client(strict), messages, False, thinking=THINKING).stop_reason == "end_turn"
    messages[-2]["content"] = messages[-2]["content"][1:]
    message = anthropic_error(strict, messages)
    assert message.startswith("messages.5.content.0.type: Expected `thinking` or `redacted_thinking`")


def test_anthropic_unique_ids_and_results_first(strict: str, loose: str) -> None:
    messages = anthropic_loop(strict)
    duplicate = json.loads(json.dumps(messages))
    first_id = duplicate[1]["content"][1]["id"]
    duplicate[-2]["content"][1]["id"] = first_id
    duplicate[-1]["content"][0]["tool_use_id"] = first_id
    assert anth.turn(anth.client(loose), duplicate, False, thinking=THINKING).stop_reason == "end_turn"
    assert anthropic_error(strict, duplicate) == "messages.5.content.1: `tool_use` ids must be unique"
    late = json.loads(json.dumps(messages))
    late[-1]["content"].insert(0, {"type": "text", "text": "here you go"})
    message = anthropic_error(strict, late)
    assert message.startswith("messages.5: `tool_use` ids were found without `tool_result` blocks")


# --- Gemini 3 -------------------------------------------------------------------------------------


def gemini_turn(url: str, contents: list[types.Content], model: str = GEMINI_3) -> types.Content:
    c = gem.client(url)  # held: a collected client closes its connection pool
    reply = c.models.generate_content(model=model, contents=contents, config=gem.config())
    assert reply.candidates and reply.candidates[0].content
    return reply.candidates[0].content


def gemini_history(url: str) -> list[types.Content]:
    contents = [gem.user("Weather?")]
    first = gemini_turn(url, contents)
    call = next(p for p in first.parts or [] if p.function_call)
    assert call.thought_signature  # Gemini 3 signs its calls without a thinking config
    return [*contents, first, gem.answers(first)]


def test_gemini3_signed_history_passes(strict: str) -> None:
    contents = gemini_history(strict)
    answer = gemini_turn(strict, contents)
    assert (answer.parts or [])[0].text == 'Results: get_weather -> {"temp_c":21,"sky":"clear"}'


def strip_signature(content: types.Content) -> None:
    for part in content.parts or []:
        part.thought_signature = None


def test_gemini3_current_turn_needs_signatures(strict: str, loose: str) -> None:
    contents = gemini_history(strict)
    strip_signature(contents[1])
    assert gemini_turn(loose, contents).parts
    with pytest.raises(errors.ClientError) as info:
        gemini_turn(strict, contents)
    assert info.value.code == 400 and info.value.status == "INVALID_ARGUMENT"
    assert "missing a thought_signature" in str(info.value.message)
    assert "function call `default_api:get_weather` , position 1" in str(info.value.message)
    assert gemini_turn(strict, contents, model="gemini-2.5-flash").parts  # the rule is Gemini 3's
    later = [*contents, gemini_turn(loose, contents), gem.user("Thanks!")]  # a new turn begins
    assert gemini_turn(strict, later).parts


@pytest.mark.parametrize(
    "placeholder", [b"skip_thought_signature_validator", b"context_engineering_is_the_way_to_go"]
)
def test_gemini3_placeholder_signature_passes(strict: str, placeholder: bytes) -> None:
    contents = gemini_history(strict)
    for part in contents[1].parts or []:
        if part.function_call:
            part.thought_signature = placeholder
    assert gemini_turn(strict, contents).parts


# --- Chat -----------------------------------------------------------------------------------------


def chat_history(url: str) -> list[dict[str, Any]]:
    c = openai.OpenAI(base_url=f"{url}/v1", api_key="k", max_retries=0)
    messages: list[dict[str, Any]] = [{"role": "user", "content": "weather and time"}]
    reply = c.chat.completions.create(model="gpt-4o", messages=messages, tools=chat_tools())  # type: ignore[arg-type]
    first = reply.choices[0].message
    calls = first.tool_calls or []
    assert len(calls) == 2
    messages.append({"role": "assistant", "content": None, "tool_calls": [tc.model_dump() for tc in calls]})
    for tc in reversed(calls):  # answered out of order: the API pairs by id
        messages.append({"role": "tool", "tool_call_id": tc.id, "content": result_for(tc.function.name)})  # type: ignore[union-attr]
    return messages


def chat_status(url: str, messages: list[dict[str, Any]]) -> tuple[int, Any]:
    reply = httpx.post(
        f"{url}/v1/chat/completions", json={"model": "gpt-4o", "messages": messages, "tools": chat_tools()}
    )
    return reply.status_code, reply.json()


def test_chat_tool_messages(strict: str, loose: str) -> None:
    messages = chat_history(strict)
    assert chat_status(strict, messages)[0] == 200
    missing = messages[:-1]
    assert chat_status(loose, missing)[0] == 200
    status, body = chat_status(strict, missing)
    assert status == 400 and body["error"]["type"] == "invalid_request_error"
    call_id = messages[1]["tool_calls"][0]["id"]
    assert body["error"]["message"] == (
        "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
        f"'tool_call_id'. The following tool_call_ids did not have response messages: {call_id}"
    )
    moved = [messages[0], messages[2], messages[1], messages[3]]
    status, body = chat_status(strict, moved)
    assert status == 400 and body["error"]["param"] == "messages.[1].role"
    assert body["error"]["message"].startswith(
        "Invalid parameter: messages with role 'tool' must be a response"
    )


# --- Responses ------------------------------------------------------------------------------------


def responses_history(url: str) -> list[Any]:
    c = openai.OpenAI(base_url=f"{url}/v1", api_key="k", max_retries=0)
    items: list[Any] = [{"role": "user", "content": "Weather?"}]
    first = c.responses.create(  # type: ignore[call-overload]
        model="gpt-5",
        input=items,
        tools=responses_tools(),
        reasoning={"effort": "low"},
        include=["reasoning.encrypted_content"],
        store=False,
    )
    items += [o.model_dump(exclude_none=True) for o in first.output]
    calls = [o for o in first.output if o.type == "function_call"]
    items += [
        {"type": "function_call_output", "call_id": o.call_id, "output": result_for(o.name)} for o in calls
    ]
    return items


def responses_status(url: str, items: list[Any]) -> tuple[int, Any]:
    body = {
        "model": "gpt-5",
        "input": items,
        "tools": responses_tools(),
        "reasoning": {"effort": "low"},
        "store": False,
    }
    reply = httpx.post(f"{url}/v1/responses", json=body)
    return reply.status_code, reply.json()


def test_responses_pairing_and_encrypted_content(strict: str, loose: str) -> None:
    items = responses_history(strict)
    assert responses_status(strict, items)[0] == 200
    orphan = [*items, {"type": "function_call_output", "call_id": "call_unknown", "output": "1"}]
    assert responses_status(loose, orphan)[0] == 200
    status, body = responses_status(strict, orphan)
    assert (status, body["error"]["param"]) == (400, "input")
    assert (
        body["error"]["message"] == "No tool call found for function call output with call_id call_unknown."
    )
    unanswered = items[:-1]
    status, body = responses_status(strict, unanswered)
    call_id = items[-1]["call_id"]
    assert (status, body["error"]["message"]) == (400, f"No tool output found for function call {call_id}.")
    reasoning = next(i for i in items if i.get("type") == "reasoning")
    reasoning["encrypted_content"] = reencoded(reasoning["encrypted_content"])
    assert responses_status(loose, items)[0] == 200
    status, body = responses_status(strict, items)
    assert (status, body["error"]["message"]) == (
        400,
        f"The encrypted content for item {reasoning['id']} could not be verified.",
    )


# --- Google's placeholder signatures (both modes) ---------------------------------------------------


@pytest.mark.parametrize(
    "placeholder", ["skip_thought_signature_validator", "context_engineering_is_the_way_to_go"]
)
def test_placeholders_accepted_by_default(url: str, placeholder: str) -> None:
    c = gem.client(url)  # held: a collected client closes its connection pool
    contents = [gem.user("Weather?")]
    first = gem.turn(c, contents, False, gem.config(thinking=True))
    for part in first.parts or []:
        if part.function_call:
            part.thought_signature = placeholder.encode()  # the SDK sends bytes base64-encoded
    second = gem.turn(c, [*contents, first, gem.answers(first)], False, gem.config(thinking=True))
    assert "".join(p.text or "" for p in second.parts or [] if not p.thought).startswith(
        "Results: get_weather"
    )
    raw = {  # as Google's REST docs write it: the placeholder text itself
        "contents": [
            {"role": "user", "parts": [{"text": "Weather?"}]},
            {
                "role": "model",
                "parts": [
                    {"functionCall": {"name": "get_weather", "args": {}}, "thoughtSignature": placeholder}
                ],
            },
            {"role": "user", "parts": [{"functionResponse": {"name": "get_weather", "response": {"t": 1}}}]},
        ],
        "generationConfig": {"thinkingConfig": {"includeThoughts": True, "thinkingBudget": 512}},
    }
    assert httpx.post(f"{url}/v1beta/models/gemini-2.5-flash:generateContent", json=raw).status_code == 200
    raw["contents"][1]["parts"][0]["thoughtSignature"] = placeholder[:-1] + "x"  # type: ignore[index]
    reply = httpx.post(f"{url}/v1beta/models/gemini-2.5-flash:generateContent", json=raw)
    assert reply.status_code == 400 and "Corrupted thought signature" in reply.json()["error"]["message"]
