"""What the fuzz suite found, each pinned by the smallest input that showed it (issue 19)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolwire.cli import ExitCode, main
from toolwire.errors import PayloadError, SchemaError
from toolwire.framing.jsonarray import JSONArrayDecoder
from toolwire.ir.notes import Notes
from toolwire.runner import Toolbox
from toolwire.schema import to_anthropic
from toolwire.streaming import WireReader
from toolwire.translate import translate_response


@pytest.mark.parametrize(
    "data",
    [b'[{"a": "\xff"}]', b'[{"text": "caf\xe9"}]', b'[{"a": "\xc3"}'],
    ids=["invalid-byte", "latin-1", "cut-sequence"],
)
@pytest.mark.parametrize("split", [None, 1])
def test_a_gemini_array_element_that_is_not_utf8_is_a_payload_error(data: bytes, split: int | None) -> None:
    """Before: UnicodeDecodeError escaped from msgspec through ``WireReader``."""
    reader = WireReader()
    chunks = [data] if split is None else [data[i : i + split] for i in range(len(data))]
    with pytest.raises(PayloadError, match=r"^\$\[0\]: JSON array element is not UTF-8 \(") as info:
        for chunk in chunks:
            reader.feed(chunk)
        reader.close()
    assert info.value.path == "$[0]"


def test_the_decoder_names_the_element_that_is_not_utf8() -> None:
    decoder = JSONArrayDecoder()
    assert decoder.feed(b'[{"a": 1},') == [{"a": 1}]
    with pytest.raises(PayloadError) as info:
        decoder.feed(b'{"b": "\xff"}]')
    assert info.value.path == "$[1]"


def _nested(depth: int) -> list[object]:
    value: list[object] = []
    for _ in range(depth):
        value = [value]
    return value


def test_a_schema_nested_too_deeply_for_the_validator_is_a_schema_error() -> None:
    """Before: ``ValueError: Recursion limit reached`` from jsonschema-rs at registration."""
    schema = {"type": "object", "properties": _nested(300), "required": ["name"]}
    with pytest.raises(SchemaError) as info:
        Toolbox().register_schema("deep", schema, dict)
    assert info.value.path == "$"
    assert str(info.value) == "$: the JSON Schema cannot be checked (Recursion limit reached)"


@pytest.mark.parametrize(
    "payload",
    [
        b'{"model": "m", "messages": [], "tools": [{"type": [], "function": {}}]}',
        b'{"model": "m", "messages": [{"role": "user", "content": [{"type": {"a": 1}, "text": "x"}]}]}',
        b'{"messages": {"0": {"role": "user"}}, "tools": [{"type": {}}]}',
    ],
    ids=["tool-type-list", "block-type-object", "messages-object"],
)
@pytest.mark.parametrize(
    "command", [["validate"], ["convert", "--to", "gemini"], ["replay", "--to", "openai-chat"]]
)
def test_format_detection_takes_any_json_type(
    command: list[str], payload: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: ``TypeError: unhashable type`` (a list or object looked up in a set of names)."""
    path = tmp_path / "in.json"
    path.write_bytes(payload)
    code = main([*command, str(path)])
    err = capsys.readouterr().err
    assert code in set(ExitCode) - {ExitCode.USAGE}, err  # before: main() raised
    assert "Traceback" not in err


def test_replay_detects_anthropic_events_whose_type_is_a_list(tmp_path: Path) -> None:
    path = tmp_path / "rec.sse"
    path.write_bytes(b'data: {"type": ["message_start"]}\n\ndata: {"type": "message_stop"}\n\n')
    assert main(["replay", "--to", "openai-chat", str(path)]) in (ExitCode.OK, ExitCode.INPUT)


@pytest.mark.parametrize("key", ["\n", "a\rb", 'q"uote', "back\\slash"])
def test_a_path_through_an_odd_key_stays_one_line(key: str) -> None:
    """Before: a property named ``"\\n"`` put a newline into the error's path and message."""
    with pytest.raises(SchemaError) as info:
        to_anthropic({"type": "object", "properties": {key: None}}, Notes())
    message = str(info.value)
    assert "\n" not in message and "\r" not in message
    assert info.value.path == f"$.properties[{json.dumps(key)}]"


def test_a_responses_id_derived_from_a_lone_surrogate() -> None:
    """Before: ``UnicodeEncodeError`` hashing a response id that holds a lone surrogate."""
    payload = {
        "id": "msg_\ud800",
        "type": "message",
        "role": "assistant",
        "model": "claude",
        "content": [{"type": "text", "text": "hi"}],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    out = translate_response(payload, source="anthropic", target="openai-responses").payload
    assert out["output"][0]["id"].startswith("msg_")
    assert out["output"][0]["content"][0]["text"] == "hi"
