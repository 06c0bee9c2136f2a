"""``toolwire replay``: real recordings in, the target's SSE out; broken recordings are caught.

Decided behaviour for a broken recording (cut short, or cut inside an event): the events
before the break are translated and the output ends with the target's own error event
(exit 0, like a gateway would stream it); under ``--check`` the recording's own grammar is
validated too, so the command exits 1 and names the break on standard error.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.corpus import Sample, require_corpus, samples
from tests.streaming._matrix import assert_same_calls, expected_view, has_client_calls, source, wire_of
from tests.streaming._oracles import sdk_view
from toolwire.cli import main
from toolwire.formats._stream import WireEvent
from toolwire.framing import SSEDecoder
from toolwire.streaming import WireReader, check_stream, encode_wire_events


def _anthropic_recording() -> Sample:
    """The smallest real Anthropic SSE recording (raw text) with a tool call."""
    found = [
        s
        for s in samples("anthropic", "stream")
        if s.raw is not None
        and s.raw.startswith("event:")
        and has_client_calls(source(s.id, s.format).response)
    ]
    if not found:
        pytest.skip("no Anthropic SSE recording with tool calls in the corpus")
    return min(found, key=lambda s: len(s.raw or ""))


def _events(out: bytes) -> list[WireEvent]:
    reader = WireReader()
    return reader.feed(out) + reader.close()


def _run(
    capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path, data: bytes, *args: str
) -> tuple[int, bytes, str]:
    file = tmp_path / "recording"
    file.write_bytes(data)
    code = main(["replay", *args, str(file)])
    captured = capsysbinary.readouterr()
    return code, captured.out, captured.err.decode()


def test_real_recording_to_responses(capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path) -> None:
    """Exit 0 under --check; named SSE events whose order the Responses grammar and SDK accept."""
    require_corpus()
    sample = _anthropic_recording()
    assert sample.raw is not None
    args = ("--from", "anthropic", "--to", "openai-responses", "--check")
    code, out, err = _run(capsysbinary, tmp_path, sample.raw.encode(), *args)
    assert code == 0, err
    decoder = SSEDecoder()
    frames = decoder.feed(out) + decoder.close()
    events = [json.loads(f.data) for f in frames]
    assert [f.event for f in frames] == [e["type"] for e in events]
    assert check_stream("openai-responses", events) == []
    want = expected_view(source(sample.id, "anthropic"), "openai-responses")
    assert_same_calls(sdk_view("openai-responses", events).calls, want.calls, set())


def _without_terminal(sample: Sample) -> bytes:
    """The recording cut after its first tool-argument delta (no message_stop)."""
    wire = wire_of(sample)
    cut = next(i for i, e in enumerate(wire) if isinstance(e, dict) and "partial_json" in str(e.get("delta")))
    return encode_wire_events("anthropic", wire[: cut + 1])


def test_truncated_recording(capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path) -> None:
    """Cut short: the target's error event without --check (exit 0); exit 1 with --check."""
    require_corpus()
    data = _without_terminal(_anthropic_recording())
    args = ("--from", "anthropic", "--to", "openai-responses")
    code, out, _ = _run(capsysbinary, tmp_path, data, *args)
    assert code == 0
    events = _events(out)
    assert check_stream("openai-responses", events) == []  # the translation itself is well-formed
    assert [e["type"] for e in events][-2:] == ["error", "response.failed"]  # type: ignore[index]
    assert events[-2]["code"] == "incomplete_stream"  # type: ignore[index]
    code, out2, err = _run(capsysbinary, tmp_path, data, *args, "--check")
    assert code == 1
    assert out2 == out
    assert "check: input" in err and "missing_terminal" in err


def test_cut_inside_an_event(capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path) -> None:
    """Cut in the middle of a JSON data line: the events before it go through, then the error."""
    require_corpus()
    raw = (_anthropic_recording().raw or "").encode()
    data = raw[: raw.index(b"partial_json") + 5]
    code, out, err = _run(
        capsysbinary, tmp_path, data, "--from", "anthropic", "--to", "openai-chat", "--check"
    )
    assert code == 1
    events = _events(out)
    assert check_stream("openai-chat", events) == []
    assert isinstance(events[0], dict) and events[0]["choices"][0]["delta"]["role"] == "assistant"
    error = events[-1]
    assert isinstance(error, dict) and error["error"]["code"] == "malformed_event"
    assert "invalid JSON" in err


def test_recorded_upstream_failure_is_a_valid_stream(
    capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path
) -> None:
    """A recording of a real failure (Responses ``error`` event) passes --check; Anthropic error out."""
    require_corpus()
    failed = [s for s in samples("openai-responses", "stream") if source(s.id, s.format).response.error]
    if not failed:
        pytest.skip("no failed Responses recording")
    sample = failed[0]
    data = encode_wire_events("openai-responses", wire_of(sample))
    args = ("--from", "responses", "--to", "claude", "--check")
    code, out, err = _run(capsysbinary, tmp_path, data, *args)
    assert code == 0, err
    error = _events(out)[-1]
    assert isinstance(error, dict) and error["type"] == "error"
    assert error["error"]["message"] == source(sample.id, sample.format).response.error.message  # type: ignore[union-attr]


def test_gemini_json_array_recording(capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path) -> None:
    """A Gemini recording kept as the JSON array the REST endpoint streams is read too."""
    require_corpus()
    arrays = [s for s in samples("gemini", "stream") if (s.raw or "").lstrip().startswith("[")]
    calls = [s for s in arrays if has_client_calls(source(s.id, s.format).response)]
    if not calls:
        pytest.skip("no Gemini JSON-array recording with tool calls")
    sample = calls[0]
    assert sample.raw is not None
    code, out, err = _run(
        capsysbinary, tmp_path, sample.raw.encode(), "--from", "gemini", "--to", "chat", "--check"
    )
    assert code == 0, err
    view = sdk_view("openai-chat", _events(out))
    assert_same_calls(view.calls, expected_view(source(sample.id, "gemini"), "openai-chat").calls, set())


def test_command_line_from_standard_input() -> None:
    """The real command (``python -m toolwire.cli``) reading ``-``: exit 0 and the target's SSE."""
    require_corpus()
    sample = _anthropic_recording()
    assert sample.raw is not None
    command = [sys.executable, "-m", "toolwire.cli", "replay", "--from", "anthropic", "--to", "responses"]
    done = subprocess.run(
        [*command, "--check", "-"], input=sample.raw.encode(), capture_output=True, timeout=60
    )
    assert done.returncode == 0, done.stderr.decode()
    events = _events(done.stdout)
    assert check_stream("openai-responses", events) == []
    assert isinstance(events[-1], dict) and events[-1]["type"] == "response.completed"
