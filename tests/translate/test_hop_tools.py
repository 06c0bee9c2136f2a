"""Each approximation of a hop, and its undoing, as case tables: client payload -> upstream
payload, upstream response -> client payload, upstream stream -> client stream.

The client is Codex-like (Responses): a freeform ``apply_patch`` custom tool and two
``namespace`` tools that each hold a tool named ``read``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from toolwire.errors import ConversionError
from toolwire.formats._stream import WireEvent
from toolwire.names import is_valid_name
from toolwire.streaming import WireReader, check_stream
from toolwire.translate import Exchange, translate_request
from toolwire.validate import validate

_READ = {
    "type": "function",
    "name": "read",
    "parameters": {"type": "object", "properties": {}},
    "strict": False,
}
CODEX_TOOLS: list[dict[str, Any]] = [
    {"type": "custom", "name": "apply_patch", "description": "Apply a patch.", "format": {"type": "text"}},
    {"type": "namespace", "name": "mcp__a", "description": "Server a.", "tools": [_READ]},
    {"type": "namespace", "name": "mcp__b", "description": "Server b.", "tools": [_READ]},
]
PATCH = '*** Begin Patch\n+say "hi"\n*** End Patch\n'
_HISTORY: list[dict[str, Any]] = [
    {"role": "user", "content": "patch it"},
    {"type": "custom_tool_call", "call_id": "call_p", "name": "apply_patch", "input": PATCH},
    {"type": "function_call", "call_id": "call_r", "name": "read", "namespace": "mcp__b", "arguments": "{}"},
    {"type": "function_call_output", "call_id": "call_r", "output": "file"},  # answered out of order
    {"type": "custom_tool_call_output", "call_id": "call_p", "output": "Done"},
]


def _codex(
    history: list[dict[str, Any]] | None = None, tools: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    return {
        "model": "gpt-5-codex",
        "max_output_tokens": 800,
        "input": history if history is not None else _HISTORY,
        "tools": tools if tools is not None else CODEX_TOOLS,
    }


# ------------------------------------------------------------------ client payload -> upstream

_PATCH_ARGS = {"input": PATCH}
_INPUT_SCHEMA = {"type": "object", "properties": {"input": {"type": "string"}}, "required": ["input"]}

REQUESTS: list[tuple[str, list[str], Any]] = [
    (
        "anthropic",
        ["apply_patch", "mcp__a__read", "mcp__b__read"],
        [
            {"role": "user", "content": [{"type": "text", "text": "patch it"}]},
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "call_p", "name": "apply_patch", "input": _PATCH_ARGS},
                    {"type": "tool_use", "id": "call_r", "name": "mcp__b__read", "input": {}},
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "call_r", "content": "file"},
                    {"type": "tool_result", "tool_use_id": "call_p", "content": "Done"},
                ],
            },
        ],
    ),
    (
        "gemini",
        ["apply_patch", "mcp__a__read", "mcp__b__read"],
        [
            {"role": "user", "parts": [{"text": "patch it"}]},
            {
                "role": "model",
                "parts": [
                    {"functionCall": {"name": "apply_patch", "args": _PATCH_ARGS, "id": "call_p"}},
                    {"functionCall": {"name": "mcp__b__read", "args": {}, "id": "call_r"}},
                ],
            },
            {
                "role": "user",
                "parts": [  # in the order of the calls: Gemini pairs by position
                    {
                        "functionResponse": {
                            "name": "apply_patch",
                            "id": "call_p",
                            "response": {"output": "Done"},
                        }
                    },
                    {
                        "functionResponse": {
                            "name": "mcp__b__read",
                            "id": "call_r",
                            "response": {"output": "file"},
                        }
                    },
                ],
            },
        ],
    ),
    (
        "openai-chat",  # Chat has custom tools of its own: only the namespaces are flattened
        ["apply_patch", "mcp__a__read", "mcp__b__read"],
        [
            {"role": "user", "content": "patch it"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "call_p", "type": "custom", "custom": {"name": "apply_patch", "input": PATCH}},
                    {
                        "id": "call_r",
                        "type": "function",
                        "function": {"name": "mcp__b__read", "arguments": "{}"},
                    },
                ],
            },
            {"role": "tool", "tool_call_id": "call_r", "content": "file"},
            {"role": "tool", "tool_call_id": "call_p", "content": "Done"},
        ],
    ),
]


def _tool_names(body: dict[str, Any], fmt: str) -> list[str]:
    if fmt == "gemini":
        return [d["name"] for t in body["tools"] for d in t.get("functionDeclarations", [])]
    if fmt == "openai-chat":
        return [t.get("function", t.get("custom"))["name"] for t in body["tools"]]
    return [t["name"] for t in body["tools"]]


def _history(body: dict[str, Any], fmt: str) -> Any:
    return body[{"gemini": "contents", "anthropic": "messages", "openai-chat": "messages"}[fmt]]


@pytest.mark.parametrize(("upstream", "names", "history"), REQUESTS, ids=[r[0] for r in REQUESTS])
def test_codex_request_upstream(upstream: str, names: list[str], history: Any) -> None:
    ex = Exchange("openai-responses", upstream, policy="strict")  # every approximation is reversible
    body = ex.request(_codex())
    assert validate(body, format=upstream) == []
    assert _tool_names(body, upstream) == names
    assert _history(body, upstream) == history
    kinds = {(n.kind, n.message) for n in ex.notes}
    assert ("renamed", "tool 'read' of namespace 'mcp__b' sent as 'mcp__b__read'") in kinds


@pytest.mark.parametrize("upstream", ["anthropic", "gemini"])
def test_custom_tool_is_a_function_with_one_input_string(upstream: str) -> None:
    body = Exchange("openai-responses", upstream).request(_codex())
    if upstream == "anthropic":
        assert body["tools"][0]["input_schema"] == _INPUT_SCHEMA
    else:
        assert body["tools"][0]["functionDeclarations"][0]["parametersJsonSchema"] == _INPUT_SCHEMA


def test_same_format_hop_passes_namespaces_and_custom_tools_through() -> None:
    body = Exchange("openai-responses", "openai-responses", policy="strict").request(_codex())
    assert body["tools"] == CODEX_TOOLS
    assert body["input"][1]["type"] == "custom_tool_call"
    assert body["input"][2]["namespace"] == "mcp__b"


# ------------------------------------------------------------------ what cannot be undone


@pytest.mark.parametrize("upstream", ["anthropic", "gemini"])
def test_a_grammar_the_upstream_cannot_enforce_is_a_loss(upstream: str) -> None:
    grammar = {"type": "grammar", "syntax": "lark", "definition": 'start: "x"'}
    tools = [{"type": "custom", "name": "apply_patch", "format": grammar}]
    with pytest.raises(ConversionError, match="grammar"):
        Exchange("openai-responses", upstream, policy="strict").request(_codex(_HISTORY[:1], tools))
    Exchange("openai-responses", "openai-chat", policy="strict").request(_codex(_HISTORY[:1], tools))


def test_a_custom_call_answered_without_input_is_a_loss() -> None:
    ex = Exchange("openai-responses", "anthropic", policy="strict")
    ex.request(_codex(_HISTORY[:1]))
    answer = _anthropic_answer(
        {"type": "tool_use", "id": "toolu_9", "name": "apply_patch", "input": {"x": 1}}
    )
    with pytest.raises(ConversionError, match="no 'input' string"):
        ex.response(answer)


# ------------------------------------------------------------------ names within each target's limits


@pytest.mark.parametrize("upstream", ["anthropic", "gemini", "openai-chat"])
def test_flattened_names_are_unique_valid_and_the_same_on_every_gateway(upstream: str) -> None:
    long_ns = "mcp__" + "x" * 70
    tools = [
        {"type": "function", "name": "mcp__a__read", "parameters": {"type": "object"}},  # a plain tool
        {"type": "namespace", "name": "mcp__a", "description": "", "tools": [_READ]},  # flattens onto it
        {"type": "namespace", "name": long_ns + "1", "description": "", "tools": [_READ]},
        {"type": "namespace", "name": long_ns + "2", "description": "", "tools": [_READ]},
    ]
    names = _tool_names(Exchange("openai-responses", upstream).request(_codex(_HISTORY[:1], tools)), upstream)
    assert names == _tool_names(
        Exchange("openai-responses", upstream).request(_codex(_HISTORY[:1], tools)), upstream
    )
    assert len(set(names)) == 4
    assert names[0] == "mcp__a__read"  # the plain tool keeps its name
    assert re.fullmatch(r"mcp__a__read_[0-9a-f]{8}", names[1])
    assert all(is_valid_name(n, upstream) for n in names)  # type: ignore[arg-type]


def test_flattened_names_come_back_to_their_own_namespace() -> None:
    tools = [
        {"type": "function", "name": "mcp__a__read", "parameters": {"type": "object"}},
        {"type": "namespace", "name": "mcp__a", "description": "", "tools": [_READ]},
    ]
    ex = Exchange("openai-responses", "anthropic")
    names = _tool_names(ex.request(_codex(_HISTORY[:1], tools)), "anthropic")
    answer = _anthropic_answer(
        {"type": "tool_use", "id": "toolu_1", "name": names[0], "input": {}},
        {"type": "tool_use", "id": "toolu_2", "name": names[1], "input": {}},
    )
    items = ex.response(answer)["output"]
    assert [(i["name"], i.get("namespace")) for i in items] == [("mcp__a__read", None), ("read", "mcp__a")]


# ------------------------------------------------------------------ upstream response -> client


def _anthropic_answer(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-x",
        "content": list(blocks),
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 5, "output_tokens": 7},
    }


def _gemini_answer(*calls: dict[str, Any], response_id: str | None = "resp-g1") -> dict[str, Any]:
    body: dict[str, Any] = {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"functionCall": c} for c in calls]},
                "finishReason": "STOP",
            }
        ],
        "usageMetadata": {"promptTokenCount": 5, "candidatesTokenCount": 7, "totalTokenCount": 12},
        "modelVersion": "gemini-x",
    }
    if response_id is not None:
        body["responseId"] = response_id
    return body


def _chat_answer(*calls: dict[str, Any]) -> dict[str, Any]:
    message = {"role": "assistant", "content": None, "tool_calls": list(calls)}
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-x",
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
        "usage": {"prompt_tokens": 5, "completion_tokens": 7, "total_tokens": 12},
    }


RESPONSES: list[tuple[str, dict[str, Any], list[tuple[str, str, str | None, str]]]] = [
    (
        "anthropic",
        _anthropic_answer(
            {"type": "tool_use", "id": "toolu_1", "name": "apply_patch", "input": {"input": PATCH}},
            {"type": "tool_use", "id": "toolu_2", "name": "mcp__b__read", "input": {}},
        ),
        [("custom_tool_call", "apply_patch", None, PATCH), ("function_call", "read", "mcp__b", "{}")],
    ),
    (
        "gemini",
        _gemini_answer(
            {"name": "mcp__a__read", "args": {}}, {"name": "apply_patch", "args": {"input": PATCH}}
        ),
        [("function_call", "read", "mcp__a", "{}"), ("custom_tool_call", "apply_patch", None, PATCH)],
    ),
    (
        "openai-chat",
        _chat_answer(
            {"id": "call_1", "type": "custom", "custom": {"name": "apply_patch", "input": PATCH}},
            {"id": "call_2", "type": "function", "function": {"name": "mcp__a__read", "arguments": "{}"}},
        ),
        [("custom_tool_call", "apply_patch", None, PATCH), ("function_call", "read", "mcp__a", "{}")],
    ),
]


@pytest.mark.parametrize(("upstream", "answer", "items"), RESPONSES, ids=[r[0] for r in RESPONSES])
def test_codex_gets_back_the_kinds_it_offered(
    upstream: str, answer: dict[str, Any], items: list[tuple[str, str, str | None, str]]
) -> None:
    ex = Exchange("openai-responses", upstream, policy="strict")
    ex.request(_codex())
    out = ex.response(answer)
    assert validate(out, format="openai-responses", kind="response") == []
    got = [
        (
            i["type"],
            i["name"],
            i.get("namespace"),
            i["input"] if i["type"] == "custom_tool_call" else i["arguments"],
        )
        for i in out["output"]
    ]
    assert got == items
    ids = [i["call_id"] for i in out["output"]]
    assert all(ids) and len(set(ids)) == 2


# ------------------------------------------------------------------ ids


_GEMINI_CALLS = ({"name": "read", "args": {}}, {"name": "read", "args": {"p": 1}})
_CHAT_REQUEST = {
    "model": "m",
    "max_completion_tokens": 100,
    "messages": [{"role": "user", "content": "hi"}],
    "tools": [{"type": "function", "function": {"name": "read", "parameters": {"type": "object"}}}],
}
_PREFIX = {"openai-chat": "call_", "openai-responses": "call_", "anthropic": "toolu_"}


def _call_ids(body: dict[str, Any], fmt: str) -> list[str]:
    if fmt == "openai-chat":
        return [c["id"] for c in body["choices"][0]["message"]["tool_calls"]]
    if fmt == "anthropic":
        return [b["id"] for b in body["content"] if b["type"] == "tool_use"]
    return [i["call_id"] for i in body["output"]]


def _gemini_ids(client: str, answer: dict[str, Any]) -> list[str]:
    ex = Exchange(client, "gemini", client_model="m")
    ex.request(translate_request(_CHAT_REQUEST, source="openai-chat", target=client).payload)
    return _call_ids(ex.response(answer), client)


@pytest.mark.parametrize("client", ["openai-chat", "openai-responses", "anthropic"])
def test_ids_for_gemini_calls_are_unique_across_turns(client: str) -> None:
    turn1 = _gemini_ids(client, _gemini_answer(*_GEMINI_CALLS, response_id="r-1"))
    turn2 = _gemini_ids(client, _gemini_answer(*_GEMINI_CALLS, response_id="r-2"))
    assert len(set(turn1 + turn2)) == 4  # not call_0 / call_1 on every turn
    assert all(i.startswith(_PREFIX[client]) for i in turn1 + turn2)
    assert all(re.fullmatch(r"[a-zA-Z0-9_-]+", i) for i in turn1 + turn2)
    assert _gemini_ids(client, _gemini_answer(*_GEMINI_CALLS, response_id="r-1")) == turn1  # deterministic


def test_without_a_response_id_gemini_call_ids_come_from_the_response_content() -> None:
    one = _gemini_ids("openai-chat", _gemini_answer(*_GEMINI_CALLS, response_id=None))
    same = _gemini_ids("openai-chat", _gemini_answer(*_GEMINI_CALLS, response_id=None))
    other = _gemini_ids("openai-chat", _gemini_answer(_GEMINI_CALLS[1], _GEMINI_CALLS[0], response_id=None))
    assert one == same
    assert not set(one) & set(other)


def test_an_anthropic_client_echoes_escaped_ids_and_the_upstream_gets_its_own_back() -> None:
    ex = Exchange("anthropic", "openai-chat")
    request = {"model": "m", "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}]}
    ex.request(request)
    out = ex.response(
        _chat_answer({"id": "call.1:a", "type": "function", "function": {"name": "f", "arguments": "{}"}})
    )
    wire_id = out["content"][0]["id"]
    assert re.fullmatch(r"[a-zA-Z0-9_-]+", wire_id)
    history = [
        *request["messages"],  # type: ignore[list-item]
        {"role": "assistant", "content": out["content"]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": wire_id, "content": "ok"}]},
    ]
    body = Exchange("anthropic", "openai-chat").request({**request, "messages": history})
    assert body["messages"][1]["tool_calls"][0]["id"] == "call.1:a"
    assert body["messages"][2]["tool_call_id"] == "call.1:a"


def test_ids_that_differ_only_in_rejected_characters_stay_apart_for_anthropic() -> None:
    calls = [
        {"id": i, "type": "function", "function": {"name": "read", "arguments": "{}"}}
        for i in ("a.1", "a:1", "a_1")
    ]
    history = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": None, "tool_calls": calls},
        *({"role": "tool", "tool_call_id": c["id"], "content": c["id"]} for c in calls),
    ]
    body = Exchange("openai-chat", "anthropic", policy="strict").request(
        {**_CHAT_REQUEST, "messages": history}
    )
    uses = [b["id"] for b in body["messages"][1]["content"]]
    results = [(b["tool_use_id"], b["content"]) for b in body["messages"][2]["content"]]
    assert len(set(uses)) == 3 and uses[2] == "a_1"
    assert results == [(uses[0], "a.1"), (uses[1], "a:1"), (uses[2], "a_1")]
    assert validate(body, format="anthropic") == []


def test_a_gemini_result_answering_no_call_is_a_loss() -> None:
    calls = [
        {"id": i, "type": "function", "function": {"name": "read", "arguments": "{}"}} for i in ("c1", "c2")
    ]
    history = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": None, "tool_calls": calls},
        {"role": "tool", "tool_call_id": "c2", "content": "2"},
        {"role": "tool", "tool_call_id": "zz", "content": "?"},
    ]
    with pytest.raises(ConversionError, match="answers no call"):
        Exchange("openai-chat", "gemini", policy="strict", client_model="m").request(
            {**_CHAT_REQUEST, "messages": history}
        )


# ------------------------------------------------------------------ streams


def _anthropic_stream(custom_chunks: list[str]) -> list[WireEvent]:
    start = {
        "type": "message_start",
        "message": {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-x",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 5, "output_tokens": 0},
        },
    }

    def block(index: int, call_id: str, name: str, chunks: list[str]) -> list[WireEvent]:
        use = {"type": "tool_use", "id": call_id, "name": name, "input": {}}
        deltas = [{"type": "input_json_delta", "partial_json": c} for c in chunks]
        return [
            {"type": "content_block_start", "index": index, "content_block": use},
            *({"type": "content_block_delta", "index": index, "delta": d} for d in deltas),
            {"type": "content_block_stop", "index": index},
        ]

    end = {
        "type": "message_delta",
        "delta": {"stop_reason": "tool_use", "stop_sequence": None},
        "usage": {"output_tokens": 9},
    }
    return [
        start,
        *block(0, "toolu_1", "apply_patch", custom_chunks),
        *block(1, "toolu_2", "mcp__b__read", ["{}"]),
        end,
        {"type": "message_stop"},
    ]


_CHUNKS = ['{"inp', 'ut": "*** Begin Patch\\n+say \\', '"hi\\"\\n*** End', ' Patch\\n"}']


def _check_restored_stream(events: list[WireEvent]) -> None:
    assert check_stream("openai-responses", events) == []
    by_type: dict[str, list[Any]] = {}
    for event in events:
        by_type.setdefault(event["type"], []).append(event)  # type: ignore[index]
    deltas = by_type["response.custom_tool_call_input.delta"]
    assert "".join(d["delta"] for d in deltas) == PATCH
    assert len(deltas) >= 3  # text streamed as it came, not held back to the end
    assert [d["input"] for d in by_type["response.custom_tool_call_input.done"]] == [PATCH]
    assert "response.function_call_arguments.delta" not in {e["type"] for e in deltas}
    added = [e["item"] for e in by_type["response.output_item.added"]]
    assert [(i["type"], i["name"], i.get("namespace")) for i in added] == [
        ("custom_tool_call", "apply_patch", None),
        ("function_call", "read", "mcp__b"),
    ]
    final = by_type["response.completed"][0]["response"]["output"]
    assert [(i["type"], i.get("input"), i.get("namespace")) for i in final] == [
        ("custom_tool_call", PATCH, None),
        ("function_call", None, "mcp__b"),
    ]


@pytest.mark.parametrize(
    "chunks", [_CHUNKS, ["".join(_CHUNKS)], list("".join(_CHUNKS))], ids=["split", "whole", "bytewise"]
)
def test_a_streamed_custom_call_streams_its_input_text(chunks: list[str]) -> None:
    ex = Exchange("openai-responses", "anthropic", policy="strict")
    ex.request(_codex())
    events = [out for e in _anthropic_stream(chunks) for out in ex.stream(e)] + ex.stream_close()
    if len(chunks) == 1:
        assert sum(e["type"] == "response.custom_tool_call_input.delta" for e in events) == 1  # type: ignore[index]
        return
    _check_restored_stream(events)


def test_stream_frames_restore_the_same() -> None:
    ex = Exchange("openai-responses", "anthropic", policy="strict")
    ex.request(_codex())
    data = b"".join(ex.stream_frames(e) for e in _anthropic_stream(_CHUNKS)) + ex.stream_close_frames()
    reader = WireReader()
    _check_restored_stream(reader.feed(data) + reader.close())


def test_a_streamed_gemini_call_gets_the_id_its_response_would_get() -> None:
    answer = _gemini_answer(*_GEMINI_CALLS, response_id="r-7")
    whole = Exchange("openai-chat", "gemini", client_model="m")
    whole.request(_CHAT_REQUEST)
    ids = _call_ids(whole.response(answer), "openai-chat")
    streamed = Exchange("openai-chat", "gemini", client_model="m")
    streamed.request(_CHAT_REQUEST)
    chunks = streamed.stream(answer) + streamed.stream_close()
    got = [
        c["id"]
        for chunk in chunks
        if isinstance(chunk, dict)
        for choice in chunk.get("choices", [])
        for c in choice["delta"].get("tool_calls", [])
        if "id" in c
    ]
    assert got == ids


def test_arguments_of_an_unusual_spelling_still_give_the_whole_input_at_the_end() -> None:
    chunks = ['{"\\u0069nput"', ': "*** Begin Patch\\n+say \\"hi\\"\\n*** End Patch\\n"}']  # an escaped key
    ex = Exchange("openai-responses", "anthropic", policy="strict")
    ex.request(_codex())
    events = [out for e in _anthropic_stream(chunks) for out in ex.stream(e)] + ex.stream_close()
    assert check_stream("openai-responses", events) == []
    deltas = [e["delta"] for e in events if e["type"] == "response.custom_tool_call_input.delta"]  # type: ignore[index]
    assert deltas == [PATCH]


def _namespaced(wrapper: dict[str, Any]) -> dict[str, Any]:
    inner = {
        "type": "function",
        "name": "read",
        "description": "Read a file.",
        "parameters": {"type": "object"},
    }
    tools = [{**wrapper, "type": "namespace", "tools": [inner]}]
    return {"model": "gpt-5", "input": "hi", "max_output_tokens": 1024, "tools": tools}


def _descriptions(body: dict[str, Any], upstream: str) -> list[str]:
    if upstream == "gemini":
        return [d["description"] for t in body["tools"] for d in t["functionDeclarations"]]
    if upstream == "openai-chat":
        return [t["function"]["description"] for t in body["tools"]]
    return [t["description"] for t in body["tools"]]


@pytest.mark.parametrize("upstream", ["anthropic", "gemini", "openai-chat"])
def test_a_flattened_namespace_description_goes_with_its_tools(upstream: str) -> None:
    ex = Exchange("openai-responses", upstream, policy="strict")  # carried, not lost
    body = ex.request(_namespaced({"name": "mcp", "description": "Files of the repo."}))
    assert _descriptions(body, upstream) == ["Files of the repo.\n\nRead a file."]
    assert ("$.tools[0].description", "approximated") in {(n.path, n.kind) for n in ex.notes}
    plain = Exchange("openai-responses", upstream, policy="strict").request(_namespaced({"name": "mcp"}))
    assert _descriptions(plain, upstream) == ["Read a file."]


@pytest.mark.parametrize("upstream", ["anthropic", "gemini", "openai-chat"])
def test_other_fields_of_a_flattened_namespace_are_a_loss(upstream: str) -> None:
    wrapper = {"name": "mcp", "server_label": "files"}
    warned = Exchange("openai-responses", upstream, policy="warn")
    warned.request(_namespaced(wrapper))
    assert [n.kind for n in warned.notes if n.path == "$.tools[0].server_label"] == ["dropped"]
    with pytest.raises(ConversionError, match="namespace 'mcp' field 'server_label'"):
        Exchange("openai-responses", upstream, policy="strict").request(_namespaced(wrapper))
