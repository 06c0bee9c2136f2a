"""The corpus loader turns the recorded fixtures into well-formed, uniquely named samples."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.corpus import FORMATS, KINDS, Sample, StreamItem, _parse_sse, require_corpus, samples, skipped

# Lower bounds, a little under what the corpus holds today (so trimming a fixture is not fatal).
MIN_COUNTS = {
    ("openai-chat", "request"): 140,
    ("openai-chat", "response"): 85,
    ("openai-chat", "stream"): 70,
    ("openai-chat", "error"): 5,
    ("openai-responses", "request"): 150,
    ("openai-responses", "response"): 150,
    ("openai-responses", "stream"): 50,
    ("openai-responses", "error"): 4,
    ("anthropic", "request"): 200,
    ("anthropic", "response"): 175,
    ("anthropic", "stream"): 90,
    ("anthropic", "error"): 5,
    ("gemini", "request"): 125,
    ("gemini", "response"): 150,
    ("gemini", "stream"): 65,
    ("gemini", "error"): 20,
    ("bedrock-converse", "request"): 75,
    ("bedrock-converse", "response"): 75,
    ("bedrock-converse", "stream"): 19,
    ("bedrock-converse", "error"): 3,
}

# Top-level keys every body of a (format, kind) carries in this corpus.
REQUEST_KEY = {
    "openai-chat": "messages",
    "openai-responses": "input",
    "anthropic": "messages",
    "gemini": "contents",
    "bedrock-converse": "messages",
}


@pytest.fixture(scope="module")
def corpus() -> list[Sample]:
    require_corpus()
    return samples()


def test_counts_per_format_and_kind(corpus: list[Sample]) -> None:
    counts = Counter((s.format, s.kind) for s in corpus)
    short = {key: (counts[key], low) for key, low in MIN_COUNTS.items() if counts[key] < low}
    assert short == {}


def test_ids_are_unique_and_stable(corpus: list[Sample]) -> None:
    ids = [s.id for s in corpus]
    assert len(ids) == len(set(ids))
    for s in corpus:  # exchanges: "<file>#<n>/<kind>"; single-body files: the bare relative path
        assert s.id.endswith(f"/{s.kind}") if "#" in s.id else s.path.as_posix().endswith(s.id), s.id
    assert ids == [s.id for s in samples()]


def test_filters(corpus: list[Sample]) -> None:
    assert samples("anthropic", "stream") == [
        s for s in corpus if s.format == "anthropic" and s.kind == "stream"
    ]
    assert {s.format for s in samples(kind="error")} == set(FORMATS)


def test_sample_field_types(corpus: list[Sample]) -> None:
    for s in corpus:
        assert s.format in FORMATS and s.kind in KINDS, s.id
        assert isinstance(s.path, Path) and s.path.is_file(), s.id
        assert s.status is None or isinstance(s.status, int), s.id
        assert s.url is None or s.url.startswith("https://"), s.id
        assert s.model is None or isinstance(s.model, str), s.id
        assert s.raw is None or isinstance(s.raw, str), s.id
        if s.kind == "stream":
            assert isinstance(s.payload, list) and s.payload, s.id
            for item in s.payload:
                assert isinstance(item, StreamItem), s.id
                assert item.event is None or isinstance(item.event, str), s.id
                assert isinstance(item.data, dict | str), s.id
        else:
            assert isinstance(s.payload, dict), s.id


def test_requests_have_model_and_messages(corpus: list[Sample]) -> None:
    for s in corpus:
        if s.kind == "request":
            assert s.model and s.url and s.status is None, s.id
            assert REQUEST_KEY[s.format] in s.payload, s.id


def test_errors_have_error_status_or_envelope(corpus: list[Sample]) -> None:
    for s in corpus:
        if s.kind == "error":
            assert (s.status or 0) >= 400 or "error" in s.payload, s.id
        elif s.kind in ("response", "stream"):
            assert s.status is None or 200 <= s.status < 300, s.id


def test_sse_event_names_match_payload_types(corpus: list[Sample]) -> None:
    """Anthropic and Responses streams repeat the event name as data.type: the parser pairs them.
    (Bedrock event-stream frames are named by their ``:event-type`` header alone.)"""
    named = 0
    for s in corpus:
        for item in s.payload if s.kind == "stream" and s.format != "bedrock-converse" else ():
            if item.event is not None and isinstance(item.data, dict):
                named += 1
                assert item.data.get("type") == item.event, s.id
    assert named > 1000


def test_chat_sse_streams_end_with_done(corpus: list[Sample]) -> None:
    """Every recorded Chat Completions SSE body ends with ``data: [DONE]`` (JSONL chunk files do not)."""
    sse = [s for s in corpus if s.format == "openai-chat" and s.kind == "stream" and _is_sse(s.raw)]
    assert len(sse) > 60
    assert all(s.payload[-1].data == "[DONE]" for s in sse)


def _is_sse(raw: str | None) -> bool:
    return raw is not None and raw.lstrip().startswith(("data:", "event:"))


def test_sse_parser_details() -> None:
    text = 'event: a\ndata: {"x":\ndata:  1}\n\n: comment\n\n  data: [DONE]\r\n\r\n{"error": {"code": 499}}\n'
    assert _parse_sse(text) == [
        StreamItem("a", {"x": 1}),
        StreamItem(None, "[DONE]"),
        StreamItem(None, {"error": {"code": 499}}),
    ]


def test_only_known_unusable_files_are_skipped() -> None:
    require_corpus()
    reasons = dict(skipped())
    # six known: four Vertex count-token bodies, one truncated Responses chunk file, and one
    # Bedrock request recorded without its closing brace (test_bedrock_model_other_parameters)
    assert len(reasons) <= 6, reasons
    assert all(reasons.values())


def test_bedrock_event_stream_frames_are_named_items() -> None:
    """A ConverseStream cassette body (AWS event-stream binary) becomes one item per frame, named
    by its ``:event-type`` header, in order, with its JSON payload."""
    require_corpus()
    found = [
        s
        for s in samples("bedrock-converse", "stream")
        if s.id.endswith("test_bedrock_model_stream.yaml#0/stream")
    ]
    assert len(found) == 1
    events = [item.event for item in found[0].payload]
    assert events[0] == "messageStart" and events[-1] == "metadata", events
    assert "contentBlockDelta" in events and "messageStop" in events
    assert found[0].payload[0].data["role"] == "assistant"
    assert found[0].model == "us.amazon.nova-micro-v1:0"


def test_chat_samples_carry_their_dialect() -> None:
    """OpenAI-compatible recordings are Chat samples of their provider's dialect, kept out of the
    default selection (which holds OpenAI's own)."""
    from tests.corpus import ANY_DIALECT, NATIVE

    require_corpus()
    every = samples("openai-chat", dialect=ANY_DIALECT)
    counts = Counter(s.dialect for s in every)
    assert counts[NATIVE] == len(samples("openai-chat"))
    assert {"mistral", "deepseek", "openrouter", "groq", "xai", "ollama"} <= set(counts)
    assert counts["mistral"] >= 60 and counts["ollama"] >= 12
    by_host = {
        "https://api.mistral.ai/": "mistral",
        "https://api.deepseek.com/": "deepseek",
        "https://openrouter.ai/": "openrouter",
        "https://api.groq.com/": "groq",
        "http://localhost:11434/": "ollama",
        "https://api.openai.com/": NATIVE,
    }
    for s in every:
        if s.url is not None:
            assert [d for host, d in by_host.items() if s.url.startswith(host)] == [s.dialect], s.id
        else:
            assert s.path.parent.name in {"openai-chat", "mistral", "openai-chat-compatible"}, s.id
    assert all(s.dialect is None for s in samples() if s.format != "openai-chat")
    assert samples("openai-chat", dialect="xai") == [s for s in every if s.dialect == "xai"]
