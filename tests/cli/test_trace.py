"""``toolwire trace ls|show``: on a real SQLite file, in-process."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tests.store.records import trace
from toolwire.cli import main
from toolwire.store import open_store
from toolwire.trace import TraceBody, TraceEvent, TraceLatency, TraceRecord


def fill(url: str) -> None:
    async def go() -> None:
        store = await open_store(url)
        await store.put_trace(trace("tr_a", created_at=1_750_000_000.0))
        await store.put_trace(
            trace(
                "tr_b",
                created_at=1_750_000_060.0,
                status=429,
                stream=False,
                client_format="gemini",
                upstream_format="openai-responses",
                client_model="gemini-2.5-pro",
                upstream_model="gemini-2.5-pro",
                notes=[],
                events=[],
                error="upstream 429",
                latency=TraceLatency(total=40.0, upstream=38.5, first_byte=39.9),
                upstream_response=TraceBody(text='{"error":{"message":"slow down"}}', size=33),
            )
        )
        await store.aclose()

    asyncio.run(go())


@pytest.fixture
def url(tmp_path: Path) -> str:
    url = f"sqlite://{tmp_path / 'store.db'}"
    fill(url)
    return url


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_ls_lists_newest_first_with_filters(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "trace", "ls", "--store", url)
    assert (code, err) == (0, "")
    assert out == (
        "tr_b  2025-06-15T15:07:40Z  429  gemini->openai-responses  gemini-2.5-pro  40.0ms  notes=0  "
        "error: upstream 429\n"
        "tr_a  2025-06-15T15:06:40Z  200  openai_chat->anthropic  gpt-5->claude-sonnet-4-5  12.5ms  "
        "notes=1 loss=1  stream\n"
    )
    for flags, ids in [
        (["--loss"], ["tr_a"]),
        (["--status", "4xx"], ["tr_b"]),
        (["--status", "200"], ["tr_a"]),
        (["--model", "claude-sonnet-4-5"], ["tr_a"]),
        (["--pair", "gemini->openai-responses"], ["tr_b"]),
        (["--limit", "1"], ["tr_b"]),
        (["--before", "tr_b"], ["tr_a"]),
    ]:
        code, out, _ = run(capsys, "trace", "ls", "--store", url, "--json", *flags)
        assert code == 0 and [json.loads(line)["id"] for line in out.splitlines()] == ids, flags
    code, out, _ = run(capsys, "trace", "ls", "--store", url, "--json", "--limit", "1")
    assert json.loads(out)["loss_notes"] == 0 and json.loads(out)["total_ms"] == 40.0


def test_ls_of_nothing_says_how_to_trace(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "trace", "ls", "--store", url, "--status", "5xx")
    assert (code, out) == (0, "")
    assert err == "no traces kept (run the gateway with 'toolwire serve --trace')\n"


def test_show_prints_notes_bodies_and_timeline(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "trace", "show", "tr_a", "--store", url)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[:6] == [
        "trace tr_a  2025-06-15T15:06:40Z",
        "  POST /v1/chat/completions -> 200  (stream)",
        "  client openai_chat model gpt-5",
        "  upstream claude (anthropic) model claude-sonnet-4-5",
        "  latency total 12.5 ms, upstream 10.0 ms, first byte 3.2 ms, gateway 2.5 ms",
        "  tokens in 11, out 7",
    ]
    assert "notes (1):" in lines
    note = next(line for line in lines if "logprobs" in line)
    assert note.split() == [
        "client_request",
        "$.messages[0]",
        "dropped",
        "yes",
        "logprobs",
        "has",
        "no",
        "Anthropic",
        "field",
        "->",
        "upstream_request:$.messages",
    ]
    at = lines.index("--- client request (31 bytes, application/json)")
    assert json.loads("\n".join(lines[at + 1 : at + 5])) == {"model": "gpt-5", "messages": []}
    assert "--- upstream request (4000 bytes, cut at 17, application/json)" in lines
    assert (
        lines[lines.index("--- upstream request (4000 bytes, cut at 17, application/json)") + 1]
        == '{"model":"claude"'
    )
    assert "stream timeline (2 events):" in lines
    assert lines[-2].split() == ["3.250", "ms", "upstream", "first_byte", "message_start"]
    assert lines[-1].split()[:5] == ["4.000", "ms", "client", "text", "data"]


def test_show_json_is_the_record(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "trace", "show", "tr_b", "--store", url, "--json")
    import msgspec

    assert code == 0 and msgspec.json.decode(out.encode(), type=TraceRecord).upstream_response == TraceBody(
        text='{"error":{"message":"slow down"}}', size=33
    )


def test_show_unknown_id_is_exit_3(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "trace", "show", "tr_nope", "--store", url)
    assert (code, out) == (3, "")
    assert err == "toolwire: error: no trace 'tr_nope' in the store\n"


def test_timeline_event_data_is_shortened() -> None:
    from toolwire.cli._trace import render_trace

    long = TraceEvent(t_ms=1.0, side="client_response", name="data", kind="text", index=2, data="x" * 500)
    text = render_trace(trace(events=[long]))
    line = text.splitlines()[-1]
    assert line.split()[:5] == ["1.000", "ms", "client", "text[2]", "data"] and line.endswith(
        "x" * 117 + "..."
    )
