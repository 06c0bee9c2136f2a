"""``StreamTranslator`` options and ``WireReader`` bookkeeping seen from outside: the client's
tool names and model given back, the clock for a start without a time, the usage of the stream,
several deltas in one upstream event, a broken event's position and its deferred error."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.streaming._oracles import sdk_view
from toolwire.errors import PayloadError
from toolwire.formats._stream import WireEvent
from toolwire.ir.response import Usage
from toolwire.streaming import KEEPALIVE, StreamTranslator, WireReader, check_stream

ANTHROPIC_CALLS: list[WireEvent] = [
    {
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
    },
    {
        "type": "content_block_start",
        "index": 0,
        "content_block": {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}},
    },
    {
        "type": "content_block_delta",
        "index": 0,
        "delta": {"type": "input_json_delta", "partial_json": '{"query": "x"}'},
    },
    {"type": "content_block_stop", "index": 0},
    {
        "type": "content_block_start",
        "index": 1,
        "content_block": {"type": "tool_use", "id": "toolu_2", "name": "get_weather", "input": {}},
    },
    {"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{}"}},
    {"type": "content_block_stop", "index": 1},
    {
        "type": "message_delta",
        "delta": {"stop_reason": "tool_use", "stop_sequence": None},
        "usage": {"output_tokens": 6},
    },
    {"type": "message_stop"},
]


def _translate(t: StreamTranslator, wire: list[WireEvent]) -> list[WireEvent]:
    return [out for event in wire for out in t.feed(event)] + t.close()


def _block_names(out: list[WireEvent]) -> list[tuple[str, str]]:
    return [
        (e["content_block"]["type"], e["content_block"]["name"])
        for e in out
        if isinstance(e, dict) and e.get("type") == "content_block_start"
    ]


def test_restore_name_gives_function_calls_their_client_names_not_builtins() -> None:
    """``restore_name`` maps the upstream's function-call names back; a built-in tool's call
    (the provider's own) keeps its name."""
    t = StreamTranslator("anthropic", "anthropic", restore_name=lambda n: "client." + n)
    out = _translate(t, ANTHROPIC_CALLS)
    assert check_stream("anthropic", out) == []
    assert _block_names(out) == [("server_tool_use", "web_search"), ("tool_use", "client.get_weather")]
    chat = StreamTranslator("anthropic", "openai-chat", restore_name=lambda n: "client." + n)
    assert [c[1] for c in sdk_view("openai-chat", _translate(chat, ANTHROPIC_CALLS)).calls] == [
        "client.get_weather"
    ]
    dropped = [n.message for n in chat.note_items if n.kind == "dropped"]
    assert dropped == ["built-in tool call 'web_search' has no Chat equivalent"]
    plain = StreamTranslator("anthropic", "anthropic")
    assert _block_names(_translate(plain, ANTHROPIC_CALLS))[1] == ("tool_use", "get_weather")


def test_a_name_restore_returning_the_same_name_changes_nothing() -> None:
    t = StreamTranslator("anthropic", "anthropic", restore_name=lambda n: n)
    plain = StreamTranslator("anthropic", "anthropic")
    assert _translate(t, ANTHROPIC_CALLS) == _translate(plain, ANTHROPIC_CALLS)


def test_the_reported_model_and_the_clock_for_an_unknown_start_time() -> None:
    """``model`` replaces the upstream's model name; ``clock`` dates a start the upstream did not
    date (Anthropic's), and only such a start (a Chat upstream's ``created`` stays)."""
    t = StreamTranslator("anthropic", "openai-chat", model="my-alias", clock=lambda: 1700000000.9)
    out = [e for e in _translate(t, ANTHROPIC_CALLS) if isinstance(e, dict)]
    assert {(e["model"], e["created"]) for e in out} == {("my-alias", 1700000000)}
    undated = StreamTranslator("anthropic", "openai-chat")
    assert {e["model"] for e in _translate(undated, ANTHROPIC_CALLS) if isinstance(e, dict)} == {"claude-x"}
    chat = [
        {
            "id": "c1",
            "object": "chat.completion.chunk",
            "created": 42,
            "model": "gpt-x",
            "choices": [
                {"index": 0, "delta": {"role": "assistant", "content": "Hi"}, "finish_reason": "stop"}
            ],
        },
        "[DONE]",
    ]
    dated = StreamTranslator("openai-chat", "openai-responses", clock=lambda: 99.0)
    starts = [e for e in _translate(dated, chat) if isinstance(e, dict) and e["type"] == "response.created"]
    assert [e["response"]["created_at"] for e in starts] == [42]


def test_usage_is_known_once_the_stream_ends() -> None:
    """``usage`` is ``None`` until the source reports its end, then the source's numbers; for a
    Gemini source the end is only known when the stream closes."""
    t = StreamTranslator("anthropic", "openai-chat")
    for event in ANTHROPIC_CALLS[:-2]:
        t.feed(event)
    assert t.usage is None
    for event in ANTHROPIC_CALLS[-2:]:
        t.feed(event)
    t.close()
    assert (t.usage.input_tokens, t.usage.output_tokens) == (5, 6)  # type: ignore[union-attr]

    gemini = [
        {"candidates": [{"content": {"role": "model", "parts": [{"text": "Hi"}]}}], "modelVersion": "g"},
        {
            "candidates": [{"content": {"role": "model", "parts": [{"text": "!"}]}, "finishReason": "STOP"}],
            "usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 2, "totalTokenCount": 5},
            "modelVersion": "g",
        },
    ]
    g = StreamTranslator("gemini", "anthropic")
    for event in gemini:
        g.feed(event)
    assert g.usage is None
    g.close()
    assert g.usage == Usage(input_tokens=3, output_tokens=2, total_tokens=5)


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 5,
        "model": "m",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def _two_calls(parts: list[tuple[str, str]]) -> list[dict[str, Any]]:
    return [
        {"index": i, "function": {"arguments": a}} for i, a in enumerate(p for pair in parts for p in pair)
    ]


@pytest.mark.parametrize("target", ["anthropic", "openai-responses", "gemini"])
@pytest.mark.parametrize("framed", [False, True])
def test_one_upstream_chunk_with_two_calls_deltas_keeps_both(target: str, framed: bool) -> None:
    """A Chat chunk can carry argument deltas of two parallel calls at once: both calls reach the
    client whole, events or SSE bytes alike."""
    start = [
        {"index": 0, "id": "call_a", "type": "function", "function": {"name": "f", "arguments": ""}},
        {"index": 1, "id": "call_b", "type": "function", "function": {"name": "g", "arguments": ""}},
    ]
    wire: list[WireEvent] = [
        _chunk({"role": "assistant", "tool_calls": start}),
        _chunk({"tool_calls": _two_calls([('{"x": ', '{"y": ')])}),
        _chunk({"tool_calls": _two_calls([("1}", "2}")])}, "tool_calls"),
        "[DONE]",
    ]
    t = StreamTranslator("openai-chat", target)
    if framed:
        data = b"".join(t.feed_frames(e) for e in wire) + t.close_frames()
        reader = WireReader()
        out = reader.feed(data) + reader.close()
    else:
        out = _translate(t, wire)
    assert check_stream(target, out) == []  # type: ignore[arg-type]
    assert [(c[1], c[2]) for c in sdk_view(target, out).calls] == [("f", {"x": 1}), ("g", {"y": 2})]


def _sse(*events: Any) -> list[bytes]:
    return [b"data: " + json.dumps(e).encode() + b"\n\n" for e in events]


def test_a_broken_event_is_reported_at_its_position_chunk_by_chunk() -> None:
    """Whole events arriving one chunk each are counted: a non-object is reported at its index."""
    reader = WireReader()
    assert reader.feed(_sse({"a": 1})[0]) == [{"a": 1}]
    assert reader.feed(_sse({"b": 2})[0]) == [{"b": 2}]
    with pytest.raises(PayloadError) as err:
        reader.feed(_sse([3])[0])
    assert err.value.path == "$[2]"


def test_a_broken_event_after_others_in_one_chunk_comes_after_them() -> None:
    """The events before a broken one in the same chunk are delivered; its error (at its index)
    is raised by the next call, once."""
    reader = WireReader()
    assert reader.feed(b"".join(_sse({"a": 1}))) == [{"a": 1}]
    data = b"".join(_sse({"b": 2}, {"c": 3})) + b"data: [4]\n\n"
    assert reader.feed(data) == [{"b": 2}, {"c": 3}]
    with pytest.raises(PayloadError) as err:
        reader.close()
    assert err.value.path == "$[3]"
    assert reader.close() == []


def test_a_broken_json_event_after_others_is_raised_by_the_next_feed() -> None:
    reader = WireReader()
    assert reader.feed(b'data: {"a": 1}\n\ndata: {"b": \n\n') == [{"a": 1}]
    with pytest.raises(PayloadError) as err:
        reader.feed(b'data: {"c": 3}\n\n')
    assert err.value.path == "$[1]"


def test_an_event_that_is_not_utf8_is_read_as_text() -> None:
    """A whole event whose bytes are not UTF-8 is decoded with replacement characters (as an SSE
    decoder reads text), not refused for its encoding."""
    for first in (b"", b'data: {"a": 1}\n\n'):  # the first chunk, and a chunk between events
        reader = WireReader()
        assert reader.feed(first) == ([{"a": 1}] if first else [])
        assert reader.feed(b'data: {"text": "caf\xe9"}\n\n') == [{"text": "caf\ufffd"}]


def test_keepalives_are_comment_events_when_asked() -> None:
    """SSE comment lines are skipped, or reported as :data:`KEEPALIVE` (``":"``, the comment
    marker) when asked, in their place among the events."""
    data = b': ping\n\ndata: {"a": 1}\n\n: ping\n\n'
    assert WireReader().feed(data) == [{"a": 1}]
    kept = WireReader(keepalives=True).feed(data)
    assert kept == [KEEPALIVE, {"a": 1}, KEEPALIVE]
    assert KEEPALIVE == ":"


@pytest.mark.parametrize("target", ["openai-responses", "openai-chat"])
def test_a_responses_item_whose_id_is_not_a_string_ends_the_stream_with_an_error(target: str) -> None:
    """An item's ``id`` is repeated by every later event of the item: one that is not a string
    (here ``[]``) ends the stream with the client's error event naming where it was, on the
    pure and the compiled build alike (the compiled encoder used to fail with a TypeError)."""
    created = {
        "type": "response.created",
        "response": {"id": "r", "object": "response", "created_at": 0, "status": "in_progress", "model": "m"},
        "sequence_number": 0,
    }
    item = {"id": [], "type": "message", "status": "in_progress", "role": "assistant", "content": []}
    added = {"type": "response.output_item.added", "output_index": 0, "item": item, "sequence_number": 1}
    translator = StreamTranslator("openai-responses", target)
    translator.feed(created)
    out = translator.feed(added)
    text = json.dumps(out)
    assert "malformed_event" in text and "$[1].item.id: expected a string, got array" in text
