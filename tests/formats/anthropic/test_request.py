"""Anthropic request decoding: field mapping, hints, and malformed input."""

from __future__ import annotations

import json
from typing import Any

import pytest

from toolwire.errors import LimitError, PayloadError
from toolwire.formats.anthropic import decode_request, encode_request
from toolwire.ir import (
    FilePart,
    ImagePart,
    Message,
    Notes,
    ReasoningConfig,
    ReasoningPart,
    ResponseFormat,
    TextPart,
    ToolCall,
    ToolChoice,
    ToolResult,
)

_SCHEMA = {"type": "object", "properties": {"q": {"type": "string"}}}


def _round_trip(payload: dict[str, Any]) -> Any:
    notes = Notes("strict")
    ir = decode_request(payload, notes)
    assert encode_request(ir, notes) == payload
    return ir


def test_full_request_maps_to_ir_fields() -> None:
    payload = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "system": "Be brief.",
        "messages": [{"role": "user", "content": "Hi"}],
        "temperature": 0.5,
        "top_p": 0.9,
        "top_k": 40,
        "stop_sequences": ["```"],
        "stream": True,
        "metadata": {"user_id": "u-1"},
        "tools": [{"name": "search", "input_schema": _SCHEMA}],
        "tool_choice": {"type": "auto", "disable_parallel_tool_use": True},
        "service_tier": "auto",
        "container": None,
    }
    ir = _round_trip(payload)
    assert ir.model == "claude-sonnet-4-5"
    assert ir.max_tokens == 1024
    assert ir.messages == (
        Message(role="system", parts=(TextPart(text="Be brief."),), extra={"~system": "string"}),
        Message(role="user", parts=(TextPart(text="Hi"),), extra={"~content": "string"}),
    )
    assert (ir.temperature, ir.top_p, ir.top_k, ir.stop, ir.stream) == (0.5, 0.9, 40, ("```",), True)
    assert ir.user == "u-1"
    assert ir.metadata is None
    assert ir.tool_choice == ToolChoice(mode="auto")
    assert ir.parallel_tool_calls is False
    assert ir.extra == {"service_tier": "auto", "container": None}


def test_model_argument_used_when_body_has_none() -> None:
    ir = decode_request({"messages": []}, Notes(), model="claude-x")
    assert ir.model == "claude-x"


def test_system_blocks_with_cache_control() -> None:
    payload = {
        "model": "m",
        "max_tokens": 5,
        "system": [
            {"type": "text", "text": "A"},
            {"type": "text", "text": "B", "cache_control": {"type": "ephemeral", "ttl": "5m"}},
        ],
        "messages": [{"role": "user", "content": [{"type": "text", "text": "Q"}]}],
    }
    ir = _round_trip(payload)
    assert ir.messages[0] == Message(
        role="system",
        parts=(
            TextPart(text="A"),
            TextPart(text="B", extra={"cache_control": {"type": "ephemeral", "ttl": "5m"}}),
        ),
    )


def test_inline_system_messages_stay_in_place() -> None:
    payload = {
        "model": "m",
        "max_tokens": 5,
        "system": "Top.",
        "messages": [
            {"role": "user", "content": "Q"},
            {"role": "system", "content": [{"type": "text", "text": "Mid."}]},
        ],
    }
    ir = _round_trip(payload)
    assert [m.role for m in ir.messages] == ["system", "user", "system"]
    assert ir.messages[2].extra == {"~inline": True}


def test_content_blocks_map_to_parts() -> None:
    signature = "EqQBCkYIBxgCKkBsig+/=="
    payload = {
        "model": "m",
        "max_tokens": 5,
        "messages": [
            {
                "role": "user",
                "content": [
                    {
                        "type": "image",
                        "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo"},
                    },
                    {"type": "image", "source": {"type": "url", "url": "https://x/y.jpg"}},
                    {"type": "image", "source": {"type": "file", "file_id": "file_1"}},
                    {
                        "type": "document",
                        "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0"},
                        "title": "Report",
                        "context": "Q3",
                        "citations": {"enabled": True},
                    },
                    {
                        "type": "document",
                        "source": {"type": "text", "media_type": "text/plain", "data": "abc"},
                    },
                    {"type": "document", "source": {"type": "url", "url": "https://x/a.pdf"}, "title": None},
                ],
            },
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "hmm", "signature": signature},
                    {"type": "redacted_thinking", "data": "opaque=="},
                    {"type": "text", "text": "Calling."},
                    {"type": "tool_use", "id": "toolu_1", "name": "search", "input": {"q": "é", "n": 1.5}},
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_1", "content": "42", "is_error": False},
                    {"type": "text", "text": "thanks"},
                ],
            },
        ],
    }
    ir = _round_trip(payload)
    user, assistant, results = ir.messages
    assert user.parts == (
        ImagePart(data="iVBORw0KGgo", media_type="image/png"),
        ImagePart(url="https://x/y.jpg"),
        ImagePart(file_id="file_1"),
        FilePart(
            data="JVBERi0",
            media_type="application/pdf",
            filename="Report",
            extra={"context": "Q3", "citations": {"enabled": True}},
        ),
        FilePart(text="abc", media_type="text/plain"),
        FilePart(url="https://x/a.pdf", extra={"title": None}),
    )
    assert assistant.parts == (
        ReasoningPart(text="hmm", signature=signature, origin="anthropic"),
        ReasoningPart(redacted="opaque==", origin="anthropic"),
        TextPart(text="Calling."),
        ToolCall(id="toolu_1", name="search", arguments='{"q":"é","n":1.5}'),
    )
    assert results.parts == (
        ToolResult(
            call_id="toolu_1", content=(TextPart(text="42"),), is_error=False, extra={"~content": "string"}
        ),
        TextPart(text="thanks"),
    )


def test_tool_result_content_forms() -> None:
    blocks = [
        {"type": "tool_result", "tool_use_id": "a"},
        {"type": "tool_result", "tool_use_id": "n", "content": None},
        {"type": "tool_result", "tool_use_id": "e", "content": []},
        {
            "type": "tool_result",
            "tool_use_id": "b",
            "content": [
                {"type": "text", "text": "see image"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "/9j/"}},
                {"type": "tool_reference", "tool_name": "lookup"},
            ],
            "is_error": True,
        },
    ]
    payload = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": blocks}]}
    ir = _round_trip(payload)
    first, null, empty, second = ir.messages[0].parts
    assert first == ToolResult(call_id="a", extra={"~content": "absent"})
    assert null == ToolResult(call_id="n", extra={"content": None})
    assert empty == ToolResult(call_id="e")
    assert isinstance(second, ToolResult)
    assert second.is_error is True
    assert second.content == (TextPart(text="see image"), ImagePart(data="/9j/", media_type="image/jpeg"))
    assert second.extra == {"opaque_blocks": [[2, {"type": "tool_reference", "tool_name": "lookup"}]]}


def test_server_tool_blocks_are_builtin_parts() -> None:
    use = {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "x"}}
    result = {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []}
    compaction = {"type": "compaction", "content": "summary"}
    payload = {
        "model": "m",
        "max_tokens": 5,
        "messages": [
            {"role": "assistant", "content": [compaction, use, result, {"type": "text", "text": "ok"}]}
        ],
    }
    ir = _round_trip(payload)
    message = ir.messages[0]
    call, res, text = message.parts
    assert call == ToolCall(
        id="srvtoolu_1", name="web_search", arguments='{"query":"x"}', kind="builtin", extra=use
    )
    assert res == ToolResult(call_id="srvtoolu_1", name="web_search", kind="builtin", extra=result)
    assert text == TextPart(text="ok")
    assert message.extra == {"opaque_blocks": [[0, compaction]]}


@pytest.mark.parametrize(
    ("thinking", "reasoning"),
    [
        ({"type": "enabled", "budget_tokens": 2048}, ReasoningConfig(enabled=True, budget_tokens=2048)),
        ({"type": "disabled"}, ReasoningConfig(enabled=False)),
        ({"type": "adaptive"}, ReasoningConfig(enabled=True, extra={"~thinking": "adaptive"})),
        (
            {"type": "enabled", "budget_tokens": 1024, "display": "summarized"},
            ReasoningConfig(enabled=True, budget_tokens=1024, extra={"display": "summarized"}),
        ),
    ],
)
def test_thinking_config(thinking: dict[str, Any], reasoning: ReasoningConfig) -> None:
    payload = {"model": "m", "max_tokens": 4096, "messages": [], "thinking": thinking}
    assert _round_trip(payload).reasoning == reasoning


def test_output_config_effort_format_and_rest() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": False}
    payload = {
        "model": "m",
        "max_tokens": 5,
        "messages": [],
        "thinking": {"type": "adaptive"},
        "output_config": {
            "effort": "high",
            "format": {"type": "json_schema", "schema": schema},
            "task_budget": {"type": "tokens", "total": 20000},
        },
    }
    ir = _round_trip(payload)
    assert ir.reasoning == ReasoningConfig(enabled=True, effort="high", extra={"~thinking": "adaptive"})
    assert ir.response_format == ResponseFormat(type="json_schema", schema=schema)
    assert ir.extra == {"output_config": {"task_budget": {"type": "tokens", "total": 20000}}}


def test_deprecated_output_format_is_remembered() -> None:
    payload = {
        "model": "m",
        "max_tokens": 5,
        "messages": [],
        "output_format": {"type": "json_schema", "schema": {"type": "object"}},
    }
    ir = _round_trip(payload)
    assert ir.response_format is not None
    assert ir.response_format.extra == {"~field": "output_format"}


def test_effort_without_thinking() -> None:
    payload = {"model": "m", "max_tokens": 5, "messages": [], "output_config": {"effort": "low"}}
    assert _round_trip(payload).reasoning == ReasoningConfig(effort="low")


def test_count_tokens_body_without_max_tokens_round_trips() -> None:
    payload = {"model": "m", "messages": [{"role": "user", "content": "x"}]}
    assert _round_trip(payload).max_tokens is None


@pytest.mark.parametrize(
    "payload",
    [
        {"model": "m", "max_tokens": 5, "messages": [], "metadata": {"user_id": None}},
        {"model": "m", "max_tokens": 5, "messages": [], "metadata": {}},
        {"model": "m", "max_tokens": 5, "messages": [], "metadata": {"user_id": "u", "tier": "x"}},
        {"model": None, "max_tokens": None, "messages": [], "system": None, "stream": None},
        {"model": "m", "max_tokens": 5, "messages": [], "system": []},
        {"model": "m", "max_tokens": 5, "messages": [], "tools": [], "tool_choice": {"type": "future"}},
        {"model": "m", "max_tokens": 5, "messages": [], "tools": None, "tool_choice": None},
        {"model": "m", "max_tokens": 5, "messages": [], "thinking": None, "output_config": None},
        {"model": "m", "max_tokens": 5, "messages": [], "thinking": {"type": "future"}, "output_config": {}},
        {
            "model": "m",
            "max_tokens": 5,
            "messages": [],
            "tool_choice": {"type": "none", "disable_parallel_tool_use": True},
        },
        {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": [], "name": "x"}]},
        {"model": "m", "max_tokens": 5, "messages": [], "tool_choice": {"type": "auto", "name": "f"}},
        {
            "model": "m",
            "max_tokens": 5,
            "messages": [
                {"role": "assistant", "content": [{"type": "thinking", "thinking": "", "signature": None}]}
            ],
        },
    ],
    ids=lambda p: json.dumps(p, sort_keys=True)[:60],
)
def test_edge_shapes_round_trip(payload: dict[str, Any]) -> None:
    _round_trip(payload)


# ---------------------------------------------------------------- malformed input


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ([], "$"),
        ({"model": "m"}, "$.messages"),
        ({"messages": {}}, "$.messages"),
        ({"messages": ["hi"]}, "$.messages[0]"),
        ({"messages": [{"content": "x"}]}, "$.messages[0].role"),
        ({"messages": [{"role": "tool", "content": "x"}]}, "$.messages[0].role"),
        ({"messages": [{"role": "user"}]}, "$.messages[0].content"),
        ({"messages": [{"role": "user", "content": 5}]}, "$.messages[0].content"),
        ({"messages": [{"role": "user", "content": [None]}]}, "$.messages[0].content[0]"),
        ({"messages": [{"role": "user", "content": [{"text": "x"}]}]}, "$.messages[0].content[0].type"),
        ({"messages": [{"role": "user", "content": [{"type": "text"}]}]}, "$.messages[0].content[0].text"),
        (
            {
                "messages": [
                    {
                        "role": "assistant",
                        "content": [{"type": "tool_use", "id": "a", "name": "f", "input": []}],
                    }
                ]
            },
            "$.messages[0].content[0].input",
        ),
        (
            {
                "messages": [
                    {"role": "assistant", "content": [{"type": "tool_use", "name": "f", "input": {}}]}
                ]
            },
            "$.messages[0].content[0].id",
        ),
        (
            {
                "messages": [
                    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a", "content": 3}]}
                ]
            },
            "$.messages[0].content[0].content",
        ),
        (
            {
                "messages": [
                    {
                        "role": "user",
                        "content": [{"type": "tool_result", "tool_use_id": "a", "is_error": "no"}],
                    }
                ]
            },
            "$.messages[0].content[0].is_error",
        ),
        (
            {
                "messages": [
                    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a", "content": [7]}]}
                ]
            },
            "$.messages[0].content[0].content[0]",
        ),
        ({"messages": [{"role": "user", "content": [{"type": "image"}]}]}, "$.messages[0].content[0].source"),
        (
            {"messages": [{"role": "user", "content": [{"type": "thinking"}]}]},
            "$.messages[0].content[0].thinking",
        ),
        (
            {
                "messages": [
                    {"role": "user", "content": [{"type": "thinking", "thinking": "", "signature": 5}]}
                ]
            },
            "$.messages[0].content[0].signature",
        ),
        ({"messages": [], "system": 3}, "$.system"),
        ({"messages": [], "system": [{"type": "text", "text": 1}]}, "$.system[0].text"),
        ({"messages": [], "max_tokens": "10"}, "$.max_tokens"),
        ({"messages": [], "temperature": "hot"}, "$.temperature"),
        ({"messages": [], "stop_sequences": "x"}, "$.stop_sequences"),
        ({"messages": [], "stop_sequences": [1]}, "$.stop_sequences[0]"),
        ({"messages": [], "stream": "yes"}, "$.stream"),
        ({"messages": [], "metadata": []}, "$.metadata"),
        ({"messages": [], "thinking": "on"}, "$.thinking"),
        (
            {"messages": [], "thinking": {"type": "enabled", "budget_tokens": "many"}},
            "$.thinking.budget_tokens",
        ),
        ({"messages": [], "output_config": []}, "$.output_config"),
        ({"messages": [], "tools": {}}, "$.tools"),
        ({"messages": [], "tools": 0}, "$.tools"),
        ({"messages": [], "tool_choice": []}, "$.tool_choice"),
        ({"messages": [], "model": 5}, "$.model"),
    ],
)
def test_malformed_requests_raise_payload_errors_with_paths(payload: Any, path: str) -> None:
    with pytest.raises(PayloadError) as err:
        decode_request(payload, Notes("warn"))
    assert err.value.path == path


def test_deep_nesting_raises_toolwire_errors_only() -> None:
    deep: Any = {}
    node = deep
    for _ in range(5000):
        node["a"] = {}
        node = node["a"]
    payload = {
        "messages": [
            {"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "f", "input": deep}]}
        ]
    }
    with pytest.raises(LimitError) as err:
        decode_request(payload, Notes())
    assert (err.value.path, err.value.message) == (
        "$.messages[0].content[0].input",
        "value nested too deeply to serialize",
    )


@pytest.mark.parametrize(
    ("junk", "where", "message"),
    [
        (None, "", "expected an object, got null"),
        (0, "", "expected an object, got integer"),
        ("x", "", "expected an object, got string"),
        ([], "", "expected an object, got array"),
        ([[]], "", "expected an object, got array"),
        ({}, ".type", "expected a string"),
        ({"type": None}, ".type", "expected a string"),
        ({"type": "text", "text": None}, ".text", "expected a string, got null"),
        ({"type": "tool_result"}, ".tool_use_id", "missing required field 'tool_use_id'"),
    ],
)
def test_junk_blocks_are_refused_at_their_path(junk: Any, where: str, message: str) -> None:
    """A junk block in ``system`` or in a message is a PayloadError naming it (``system`` is read first)."""
    with pytest.raises(PayloadError) as system_error:
        decode_request({"messages": [{"role": "user", "content": [junk]}], "system": [junk]}, Notes())
    assert (system_error.value.path, system_error.value.message) == (f"$.system[0]{where}", message)
    with pytest.raises(PayloadError) as message_error:
        decode_request({"messages": [{"role": "user", "content": [junk]}]}, Notes())
    assert (message_error.value.path, message_error.value.message) == (
        f"$.messages[0].content[0]{where}",
        message,
    )
