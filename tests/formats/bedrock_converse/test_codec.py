"""Bedrock Converse codec: what maps, what is noted, what is refused, and the hops through it."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.errors import ConversionError, InvalidRequestError, PayloadError, RateLimitError
from toolwire.formats import bedrock_converse as bedrock
from toolwire.ir import ErrorInfo, ImagePart, Notes, ReasoningPart, TextPart, ToolResult
from toolwire.translate import Exchange, translate_request, translate_response
from toolwire.validate import validate

PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}}


def _bedrock_request() -> dict[str, Any]:
    return {
        "system": [{"text": "Be brief."}, {"cachePoint": {"type": "default"}}],
        "messages": [
            {"role": "user", "content": [{"text": "Weather?"}, {"cachePoint": {"type": "default"}}]},
            {
                "role": "assistant",
                "content": [
                    {"reasoningContent": {"reasoningText": {"text": "Look it up.", "signature": "U0lH"}}},
                    {
                        "toolUse": {
                            "toolUseId": "tooluse_1",
                            "name": "get_weather",
                            "input": {"city": "Paris"},
                        }
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "toolResult": {
                            "toolUseId": "tooluse_1",
                            "content": [
                                {"json": {"sky": "grey"}},
                                {"image": {"format": "png", "source": {"bytes": PNG}}},
                                {"document": {"format": "txt", "name": "log", "source": {"text": "ok"}}},
                            ],
                            "status": "error",
                        }
                    }
                ],
            },
        ],
        "inferenceConfig": {"maxTokens": 512, "temperature": 0.3, "stopSequences": ["END"]},
        "toolConfig": {
            "tools": [
                {
                    "toolSpec": {
                        "name": "get_weather",
                        "description": "Weather.",
                        "inputSchema": {"json": SCHEMA},
                    }
                }
            ],
            "toolChoice": {"any": {}},
        },
        "additionalModelRequestFields": {"thinking": {"type": "enabled", "budget_tokens": 1024}, "top_k": 5},
    }


def test_request_maps_into_the_ir_and_back() -> None:
    payload = _bedrock_request()
    notes = Notes("strict")
    ir = bedrock.decode_request(payload, notes, model="us.anthropic.claude-sonnet-4-5-v1:0")
    assert [m.role for m in ir.messages] == ["system", "user", "assistant", "user"]
    assert ir.messages[0].parts == (TextPart(text="Be brief."),)
    assert (ir.max_tokens, ir.temperature, ir.stop, ir.top_k) == (512, 0.3, ("END",), 5)
    assert ir.reasoning is not None and (ir.reasoning.enabled, ir.reasoning.budget_tokens) == (True, 1024)
    assert ir.tool_choice is not None and ir.tool_choice.mode == "required"
    reasoning = ir.messages[2].parts[0]
    assert isinstance(reasoning, ReasoningPart)
    assert (reasoning.signature, reasoning.origin) == ("U0lH", "bedrock-converse")
    result = ir.messages[3].parts[0]
    assert isinstance(result, ToolResult) and result.is_error is True
    assert result.content[0] == TextPart(text='{"sky":"grey"}', extra={"~json": True})
    assert isinstance(result.content[1], ImagePart) and result.content[1].media_type == "image/png"
    assert bedrock.encode_request(ir, notes) == payload and not notes.items
    assert validate(payload, format="bedrock-converse") == []


def test_to_anthropic_and_back_keeps_tools_results_and_drops_bedrock_state_with_notes() -> None:
    out = translate_request(_bedrock_request(), source="bedrock-converse", target="anthropic", model="m")
    body = out.payload
    assert body["tools"] == [{"name": "get_weather", "description": "Weather.", "input_schema": SCHEMA}]
    assert body["tool_choice"] == {"type": "any"}
    result = body["messages"][2]["content"][0]
    assert result["is_error"] is True and result["tool_use_id"] == "tooluse_1"
    assert [b["type"] for b in result["content"]] == ["text", "image", "document"]
    losses = {(n.path, n.kind) for n in out.notes if n.loss}
    # paths in the Bedrock body passed in (system is IR message 0)
    assert ("$.messages[1].content[0]", "dropped") in losses  # Bedrock's signed reasoning: Bedrock only
    assert ("$.messages[0]", "dropped") in losses  # the cache point (a block the IR keeps opaque)
    with pytest.raises(ConversionError):
        translate_request(
            _bedrock_request(), source="bedrock", target="anthropic", policy="strict", model="m"
        )


def _chat_request(**extra: Any) -> dict[str, Any]:
    return {
        "model": "us.anthropic.claude-sonnet-4-5-v1:0",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Read it."},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call a/1",
                        "type": "function",
                        "function": {"name": "fs.read", "arguments": '{"p":1}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call a/1", "content": "text"},
            {"role": "user", "content": "thanks"},
        ],
        "tools": [{"type": "function", "function": {"name": "fs.read", "parameters": {"type": "object"}}}],
        **extra,
    }


def test_chat_request_becomes_a_valid_bedrock_request_with_names_and_ids_fitted() -> None:
    ex = Exchange("openai-chat", "bedrock-converse")
    body = ex.request(_chat_request(max_tokens=100, temperature=1.7))
    assert validate(body, format="bedrock-converse") == []
    assert body["system"] == [{"text": "Be brief."}]
    assert body["inferenceConfig"] == {"maxTokens": 100, "temperature": 1}
    assert body["toolConfig"]["tools"][0]["toolSpec"]["name"] == "fs_read"
    call = body["messages"][1]["content"][0]["toolUse"]
    result = body["messages"][2]["content"][0]["toolResult"]
    assert call["toolUseId"] == result["toolUseId"] != "call a/1"
    assert body["messages"][2]["content"][1] == {"text": "thanks"}  # merged after the results
    # the response's call comes back under the client's tool name
    answer = {
        "output": {
            "message": {
                "role": "assistant",
                "content": [{"toolUse": {"toolUseId": "tooluse_9", "name": "fs_read", "input": {"p": 2}}}],
            }
        },
        "stopReason": "tool_use",
        "usage": {"inputTokens": 3, "outputTokens": 4, "totalTokens": 7},
        "metrics": {"latencyMs": 10},
    }
    chat = ex.response(answer)
    calls = chat["choices"][0]["message"]["tool_calls"]
    assert [(c["id"], c["function"]["name"], c["function"]["arguments"]) for c in calls] == [
        ("tooluse_9", "fs.read", '{"p":2}')
    ]
    assert chat["choices"][0]["finish_reason"] == "tool_calls"
    assert chat["usage"]["total_tokens"] == 7


def test_escaped_call_ids_come_back_to_a_bedrock_client() -> None:
    """A Chat upstream's id outside Bedrock's charset is escaped for a Bedrock client and restored
    when that client echoes it."""
    ex = Exchange("bedrock-converse", "openai-chat")
    request = {
        "messages": [{"role": "user", "content": [{"text": "go"}]}],
        "toolConfig": {"tools": [{"toolSpec": {"name": "f", "inputSchema": {"json": {"type": "object"}}}}]},
    }
    ex.request(request, model="gpt")
    chat_answer = {
        "id": "c1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {"id": "call a/1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
                    ],
                },
                "finish_reason": "tool_calls",
            }
        ],
    }
    answer = ex.response(chat_answer)
    assert validate(answer, format="bedrock-converse", kind="response") == []
    wire_id = answer["output"]["message"]["content"][0]["toolUse"]["toolUseId"]
    assert wire_id != "call a/1"
    follow = {
        **request,
        "messages": [
            *request["messages"],
            answer["output"]["message"],
            {
                "role": "user",
                "content": [{"toolResult": {"toolUseId": wire_id, "content": [{"text": "ok"}]}}],
            },
        ],
    }
    upstream = Exchange("bedrock-converse", "openai-chat").request(follow, model="gpt")
    assert upstream["messages"][1]["tool_calls"][0]["id"] == "call a/1"
    assert upstream["messages"][2]["tool_call_id"] == "call a/1"


def test_tool_choice_none_leaves_the_tools_out_unless_the_history_needs_them() -> None:
    plain = {
        "model": "m",
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}],
        "tool_choice": "none",
    }
    out = translate_request(plain, source="openai-chat", target="bedrock-converse", policy="strict")
    assert "toolConfig" not in out.payload
    with_history = {**_chat_request(), "tool_choice": "none"}
    kept = translate_request(with_history, source="openai-chat", target="bedrock-converse")
    assert "toolChoice" not in kept.payload["toolConfig"] and kept.payload["toolConfig"]["tools"]
    assert [n.kind for n in kept.notes if n.path == "$.tool_choice" and n.loss] == ["dropped"]


def test_tool_history_without_tools_gets_stand_in_definitions_noted() -> None:
    request = {**_chat_request()}
    del request["tools"]
    out = translate_request(request, source="openai-chat", target="bedrock-converse")
    assert out.payload["toolConfig"]["tools"] == [
        {"toolSpec": {"name": "fs_read", "inputSchema": {"json": {"type": "object"}}}}
    ]
    assert validate(out.payload, format="bedrock-converse") == []
    made_up = [(n.path, n.kind) for n in out.notes if n.target == "$.toolConfig.tools" and n.loss]
    assert made_up == [("$", "synthesized")]


def test_only_system_messages_are_refused() -> None:
    with pytest.raises(ConversionError) as info:
        translate_request(
            {"model": "m", "messages": [{"role": "system", "content": "x"}]},
            source="openai-chat",
            target="bedrock-converse",
        )
    assert info.value.path == "$.messages"


def test_thinking_reaches_anthropic_models_only() -> None:
    request = {
        "model": "claude",
        "max_tokens": 4096,
        "thinking": {"type": "enabled", "budget_tokens": 2048},
        "messages": [{"role": "user", "content": "hi"}],
    }
    claude = translate_request(request, source="anthropic", target="bedrock-converse")
    assert claude.payload["additionalModelRequestFields"] == {
        "thinking": {"type": "enabled", "budget_tokens": 2048}
    }
    nova = translate_request(
        {**request, "model": "amazon.nova-pro-v1:0"}, source="anthropic", target="bedrock"
    )
    assert "additionalModelRequestFields" not in nova.payload
    assert [n.kind for n in nova.notes if n.path == "$.thinking"] == ["dropped"]  # the source's


def test_response_to_chat_and_back_to_bedrock() -> None:
    response = {
        "output": {"message": {"role": "assistant", "content": [{"text": "Sunny."}]}},
        "stopReason": "guardrail_intervened",
        "usage": {"inputTokens": 2, "outputTokens": 3, "totalTokens": 1330, "cacheReadInputTokens": 1325},
        "metrics": {"latencyMs": 99},
    }
    chat = translate_response(response, source="bedrock-converse", target="openai-chat").payload
    assert chat["choices"][0]["finish_reason"] == "content_filter"
    assert chat["usage"]["prompt_tokens"] == 1327 and chat["usage"]["total_tokens"] == 1330
    assert chat["id"].startswith("bedrock_")
    back = translate_response(chat, source="openai-chat", target="bedrock-converse")
    assert back.payload["stopReason"] == "content_filtered"
    assert back.payload["usage"]["inputTokens"] == 2 and back.payload["usage"]["cacheReadInputTokens"] == 1325
    assert back.payload["metrics"] == {"latencyMs": 0}
    assert validate(back.payload, format="bedrock-converse", kind="response") == []


def test_reasoning_signatures_travel_sealed_and_return_byte_exact() -> None:
    """Bedrock (Claude) upstream, Anthropic client: the signature rides in the thinking block's
    signature as an envelope and comes back to Bedrock byte for byte; Anthropic's own signatures
    are never sent to Bedrock."""
    ex = Exchange("anthropic", "bedrock-converse")
    request = {"model": "claude", "max_tokens": 900, "messages": [{"role": "user", "content": "hi"}]}
    ex.request(request)
    upstream = {
        "output": {
            "message": {
                "role": "assistant",
                "content": [
                    {"reasoningContent": {"reasoningText": {"text": "hmm", "signature": "RVZ2QmVk"}}},
                    {"reasoningContent": {"redactedContent": "cmVkYWN0ZWQ="}},
                    {"toolUse": {"toolUseId": "tooluse_1", "name": "f", "input": {}}},
                ],
            }
        },
        "stopReason": "tool_use",
        "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2},
        "metrics": {"latencyMs": 1},
    }
    client = ex.response(upstream)
    thinking = [b for b in client["content"] if b["type"] == "thinking"]
    assert len(thinking) == 2 and all(b["signature"].startswith("tw1.b.") for b in thinking)
    follow = {
        **request,
        "tools": [{"name": "f", "input_schema": {"type": "object"}}],
        "messages": [
            *request["messages"],
            {"role": "assistant", "content": client["content"]},
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "tooluse_1", "content": "ok"}],
            },
        ],
    }
    body = Exchange("anthropic", "bedrock-converse", policy="strict").request(follow)
    assert body["messages"][1]["content"][:2] == upstream["output"]["message"]["content"][:2]
    native = {**follow, "messages": [*follow["messages"]]}
    native["messages"][1] = {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "x", "signature": "anthropic-made"},
            {"type": "tool_use", "id": "tooluse_1", "name": "f", "input": {}},
        ],
    }
    out = translate_request(native, source="anthropic", target="bedrock-converse")
    assert "reasoningContent" not in str(out.payload)
    assert any(n.kind == "dropped" and "reasoning of anthropic" in n.message for n in out.notes)


def test_errors_take_their_type_from_the_header_or_the_body() -> None:
    notes = Notes("strict")
    header = bedrock.decode_error(
        {"message": "slow down"}, 429, notes, error_type="ThrottlingException:http://x"
    )
    assert (header.type, header.status) == ("ThrottlingException", 429)
    assert isinstance(bedrock.error_to_exception(header), RateLimitError)
    body = bedrock.decode_error({"__type": "com.amazon#ValidationException", "message": "bad"}, None, notes)
    assert (body.type, body.status) == ("ValidationException", 400)
    assert isinstance(bedrock.error_to_exception(body), InvalidRequestError)
    assert bedrock.encode_error(body, notes) == (
        400,
        {"__type": "com.amazon#ValidationException", "message": "bad"},
    )
    foreign = ErrorInfo(message="overloaded", status=529, type="overloaded_error", origin="anthropic")
    assert bedrock.encode_error(foreign, notes) == (
        529,
        {"message": "overloaded", "__type": "ServiceUnavailableException"},
    )
    with pytest.raises(PayloadError) as info:
        bedrock.decode_error({"message": 5}, 400, notes)
    assert info.value.path == "$.message"


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ({"messages": [{"role": "system", "content": []}]}, "$.messages[0].role"),
        ({"messages": [{"role": "user"}]}, "$.messages[0].content"),
        (
            {"messages": [{"role": "user", "content": [{"toolUse": {"name": "f", "input": {}}}]}]},
            "$.messages[0].content[0].toolUse.toolUseId",
        ),
        ({"messages": "hi"}, "$.messages"),
        ({"inferenceConfig": {"maxTokens": "9"}}, "$.inferenceConfig.maxTokens"),
        (
            {"toolConfig": {"tools": [{"toolSpec": {"name": "f"}}]}},
            "$.toolConfig.tools[0].toolSpec.inputSchema",
        ),
        ({"toolConfig": {"tools": [], "toolChoice": {"none": {}}}}, "$.toolConfig.toolChoice"),
    ],
)
def test_bad_requests_are_typed_errors_with_a_path(payload: dict[str, Any], path: str) -> None:
    with pytest.raises(PayloadError) as info:
        bedrock.decode_request(payload, Notes(), model="m")
    assert info.value.path == path
