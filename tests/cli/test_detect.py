"""``--from auto`` (the default) and the check of a declared ``--from``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests import corpus
from tests.cli.helpers import toolwire, write_json
from tests.cli.payloads import FORMATS, REQUESTS, RESPONSES
from toolwire import translate_request
from toolwire.cli import main
from toolwire.cli._detect import detect, resolve_source


@pytest.mark.parametrize("fmt", FORMATS)
def test_auto_detects_each_request_format(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = "anthropic" if fmt != "anthropic" else "openai-chat"
    assert (
        main(["convert", "--to", target, "--model", "m", write_json(tmp_path / "in.json", REQUESTS[fmt])])
        == 0
    )
    out, err = capsys.readouterr()
    assert f"toolwire: reading the request as {fmt} (detected; --from to override)" in err
    expected = translate_request(REQUESTS[fmt], source=fmt, target=target, model="m").payload
    assert json.loads(out) == expected


@pytest.mark.parametrize("fmt", FORMATS)
def test_auto_detects_each_response_format(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_json(tmp_path / "in.json", RESPONSES[fmt])
    assert main(["convert", "--kind", "response", "--from", "auto", "--to", "openai-chat", path]) == 0
    out, err = capsys.readouterr()
    assert f"toolwire: reading the response as {fmt} (detected" in err
    assert json.loads(out)["choices"][0]["message"]["content"] == "Sunny."


@pytest.mark.parametrize("fmt", FORMATS)
def test_tools_convert_detects_the_tools_format(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_json(tmp_path / "tools.json", REQUESTS[fmt]["tools"])
    assert main(["tools", "convert", "--to", "openai-responses", path]) == 0
    out, err = capsys.readouterr()
    assert f"reading the tools as {fmt}" in err
    assert [t["name"] for t in json.loads(out)] == ["get_weather"]


@pytest.mark.parametrize("declared", FORMATS)
@pytest.mark.parametrize("actual", FORMATS)
def test_a_request_in_another_format_is_refused(
    declared: str, actual: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_json(tmp_path / "in.json", REQUESTS[actual])
    code = main(["convert", "--from", declared, "--to", "openai-chat", "--model", "m", path])
    out, err = capsys.readouterr()
    if declared == actual:
        assert code == 0 and json.loads(out)
        return
    assert code == 3 and out == ""
    assert err == (
        f"toolwire: error: this request does not look like {declared}, it looks like {actual}; "
        f"use --from {actual} (or --from auto)\n"
    )


def test_claude_request_as_gemini_fails_in_the_real_command(tmp_path: Path) -> None:
    """The reported bug: exit 0 and an empty Gemini request. Now exit 3 naming the right format."""
    done = toolwire(
        "convert",
        "--from",
        "gemini",
        "--to",
        "openai-chat",
        write_json(tmp_path / "a.json", REQUESTS["anthropic"]),
    )
    assert done.returncode == 3 and done.stdout == ""
    assert "it looks like anthropic; use --from anthropic" in done.stderr


def test_a_bare_messages_request_with_max_tokens_reads_as_anthropic(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bare = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}
    assert main(["convert", "--to", "gemini", write_json(tmp_path / "in.json", bare)]) == 0
    assert "reading the request as anthropic" in capsys.readouterr().err
    del bare["max_tokens"]
    assert main(["convert", "--to", "gemini", write_json(tmp_path / "in.json", bare)]) == 0
    assert "reading the request as openai-chat" in capsys.readouterr().err


def test_auto_refuses_a_payload_two_formats_read_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mixed = [REQUESTS["openai-chat"]["tools"][0], REQUESTS["anthropic"]["tools"][0]]
    path = write_json(tmp_path / "tools.json", mixed)
    assert main(["tools", "convert", "--to", "gemini", path]) == 3
    assert capsys.readouterr().err == (
        "toolwire: error: this tools array reads as openai-chat or anthropic; choose one with --from\n"
    )
    assert main(["tools", "convert", "--from", "openai-chat", "--to", "gemini", path]) == 0
    assert "note: $[1].type: skipped: invalid tool definition skipped" in capsys.readouterr().err


def test_auto_refuses_what_no_format_reads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", "--to", "gemini", write_json(tmp_path / "in.json", [1, 2])]) == 3
    assert "cannot tell the format of this request (a JSON array); pass --from" in capsys.readouterr().err


def test_json_notes_mode_reports_detection_as_a_json_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_json(tmp_path / "in.json", REQUESTS["openai-chat"])
    assert main(["convert", "--to", "anthropic", "--notes", "json", path]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert lines[0] == {"path": "$", "kind": "detected", "message": "request format: openai-chat"}
    assert (lines[1]["path"], lines[1]["kind"], lines[1]["target"]) == ("$", "synthesized", "$.max_tokens")


@pytest.mark.parametrize("kind", ["request", "response"])
def test_every_recorded_payload_is_detected_as_its_recorded_format(kind: str) -> None:
    """The recorded corpus (formats from where each payload was recorded) is read right, and a
    declared format is never refused for a payload that really is in it."""
    corpus.require_corpus()
    samples = [s for s in corpus.samples(kind=kind) if isinstance(s.payload, dict)]
    assert len(samples) > 100
    wrong = [
        (s.id, resolve_source("auto", s.payload, kind)) for s in samples if _auto(s.payload, kind) != s.format
    ]
    assert wrong == []
    for sample in samples:
        assert resolve_source(sample.format, sample.payload, kind) == (sample.format, False)


def test_every_recorded_tools_array_is_detected() -> None:
    corpus.require_corpus()
    samples = [
        s for s in corpus.samples(kind="request") if isinstance(s.payload, dict) and s.payload.get("tools")
    ]
    assert len(samples) > 100
    assert [s.id for s in samples if _auto(s.payload["tools"], "tools") != s.format] == []


def _auto(payload: object, kind: str) -> str | None:
    try:
        return resolve_source("auto", payload, kind)[0]  # type: ignore[arg-type]
    except Exception:
        return None


def test_every_recorded_stream_is_detected_unless_it_shows_no_format() -> None:
    corpus.require_corpus()
    samples = corpus.samples(kind="stream")
    assert len(samples) > 100
    for sample in samples:
        events = [item.data for item in sample.payload if isinstance(item.data, dict)]
        if any(detect(events, "stream").values()):
            assert _auto(events, "stream") == sample.format, sample.id
        assert resolve_source(sample.format, events, "stream") == (sample.format, False)


ANTHROPIC_SSE = (
    "event: message_start\n"
    'data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant",'
    '"model":"claude-x","content":[],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":0}}}\n\n'
    "event: content_block_start\n"
    'data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n'
    "event: content_block_delta\n"
    'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Sunny."}}\n\n'
    "event: content_block_stop\n"
    'data: {"type":"content_block_stop","index":0}\n\n'
    "event: message_delta\n"
    'data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}\n\n'
    "event: message_stop\n"
    'data: {"type":"message_stop"}\n\n'
)


def test_replay_detects_the_recorded_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    recording = tmp_path / "rec.sse"
    recording.write_text(ANTHROPIC_SSE, encoding="utf-8")
    assert main(["replay", "--to", "openai-chat", "--check", str(recording)]) == 0
    out, err = capsys.readouterr()
    assert "toolwire: reading the recording as anthropic (detected" in err
    assert '"content":"Sunny."' in out and out.endswith("data: [DONE]\n\n")
    assert main(["replay", "--from", "gemini", str(recording)]) == 3
    assert capsys.readouterr().err == (
        "toolwire: error: this recording does not look like gemini, it looks like anthropic; "
        "use --from anthropic (or --from auto)\n"
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_validate_detects_the_format(fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_json(tmp_path / "in.json", RESPONSES[fmt])
    assert main(["validate", "--kind", "response", path]) == 0  # the hand-written responses are valid
    assert capsys.readouterr() == (
        "",
        f"toolwire: reading the response as {fmt} (detected; --from to override)\n",
    )
    other = "gemini" if fmt != "gemini" else "anthropic"
    assert main(["validate", "--kind", "response", "--format", other, path]) == 3
    assert f"does not look like {other}, it looks like {fmt}" in capsys.readouterr().err
