"""The fast lane of the messages decoder (``_decode_fast``) gives exactly what the general decoder gives.

Each message is decoded by the lane and by ``decode_messages`` with the lane switched off; the
two must print the same (``repr`` shows every field and the order of every extra), and the lane
must take the shapes it is for (else it would be dead code) and leave the others, including
those the general decoder refuses, to the general decoder.
"""

from __future__ import annotations

from typing import Any

import pytest

import toolwire
from tests.compiled import pure_only
from toolwire.errors import ToolwireError
from toolwire.formats.anthropic import _decode_messages
from toolwire.formats.anthropic._decode_fast import fast_message
from toolwire.formats.anthropic._decode_messages import decode_messages

_USE = {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": [1, "é"], "b": {}}}
_TEXT = {"type": "text", "text": "hi"}

_TAKEN: list[dict[str, Any]] = [
    {"role": "user", "content": "hi"},
    {"content": "", "role": "assistant"},
    {"role": "user", "content": []},
    {"role": "user", "content": [_TEXT, {"type": "text", "text": ""}]},
    {
        "role": "assistant",
        "content": [_TEXT, _USE, {"type": "tool_use", "id": "t2", "name": "g", "input": {}}],
    },
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]},
    {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "t", "content": "", "is_error": True}],
    },
    {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "t", "content": "x", "is_error": False}],
    },
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": [_TEXT, _TEXT]}]},
    {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "t", "content": [], "is_error": True}],
    },
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "ok"}, _TEXT]},
]

_LEFT: list[Any] = [
    ["not", "a message"],
    {"role": "user"},
    {"role": "user", "content": "hi", "name": "ann"},
    {"role": "system", "content": "be brief"},
    {"role": "model", "content": "hi"},
    {"role": ["user"], "content": "hi"},
    {"role": "user", "content": None},
    {"role": "user", "content": {"type": "text", "text": "hi"}},
    {"role": "user", "content": ["hi"]},
    {"role": "user", "content": [{"text": "hi"}]},
    {"role": "user", "content": [{"type": 1, "text": "hi"}]},
    {"role": "user", "content": [{"type": "image", "source": {"type": "url", "url": "https://x"}}]},
    {"role": "user", "content": [{"type": "text", "text": "hi", "cache_control": {"type": "ephemeral"}}]},
    {"role": "user", "content": [{"type": "text", "text": None}]},
    {"role": "user", "content": [{"type": "text"}]},
    {"role": "user", "content": [_TEXT, {"type": "search_result", "content": []}]},
    {"role": "assistant", "content": [{**_USE, "cache_control": {"type": "ephemeral"}}]},
    {"role": "assistant", "content": [{**_USE, "id": 1}]},
    {"role": "assistant", "content": [{**_USE, "name": None}]},
    {"role": "assistant", "content": [{**_USE, "input": "{}"}]},
    {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "caller": {}}]},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t"}]},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": None}]},
    {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "t", "content": "x", "is_error": None}],
    },
    {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "t", "content": "x", "is_error": "yes"}],
    },
    {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "t", "content": "x", "cache_control": {}}],
    },
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": 7, "content": "x"}]},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": 7}]},
    {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "t", "content": [{"type": "image"}]}],
    },
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": [{"text": "a"}]}]},
    {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "t", "content": [{"type": "x", "text": "a"}]}],
    },
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": ["a"]}]},
    {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "t", "content": [{**_TEXT, "citations": None}]}],
    },
]


def _general(raw: list[Any], monkeypatch: pytest.MonkeyPatch) -> str:
    """What the general decoder gives for ``raw`` (``repr``), or the error it raises."""
    with monkeypatch.context() as patch:
        patch.setattr(_decode_messages, "fast_message", lambda item: None)
        try:
            return repr(decode_messages(raw))
        except ToolwireError as exc:
            return f"{type(exc).__name__}: {exc}"


@pytest.mark.parametrize("item", _TAKEN)
def test_a_common_shape_takes_the_lane(item: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    fast = fast_message(item)
    assert fast is not None
    assert repr([fast]) == _general([item], monkeypatch)


@pytest.mark.parametrize("item", _LEFT)
def test_other_shapes_are_left_to_the_general_decoder(item: Any) -> None:
    assert fast_message(item) is None


def test_input_too_deep_to_serialize_is_refused_by_the_general_decoder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    deep: dict[str, Any] = {}
    for _ in range(3000):
        deep = {"a": deep}
    item = {"role": "assistant", "content": [_TEXT, {**_USE, "input": deep}]}
    assert fast_message(item) is None
    assert _general([item], monkeypatch).startswith("LimitError: $.messages[0].content[1].input")


def test_a_conversation_decodes_and_records_as_without_the_lane(monkeypatch: pytest.MonkeyPatch) -> None:
    """Payload, notes and the origins they name come out the same through the public API."""
    valid_left = [_LEFT[i] for i in (2, 11, 12, 15, 16, 23, 25, 28, 31)]
    messages = [m for pair in zip(_TAKEN, valid_left, strict=False) for m in pair]
    payload = {"model": "m", "max_tokens": 10, "system": "s", "messages": messages}

    def translated() -> Any:
        try:
            result = toolwire.translate_request(
                payload, source="anthropic", target="openai-chat", policy="drop"
            )
        except ToolwireError as exc:
            return repr(exc)
        return result.payload, repr(result.notes)

    with monkeypatch.context() as patch:
        patch.setattr(_decode_messages, "fast_message", lambda item: None)
        general = translated()
    assert translated() == general


@pure_only
def test_the_decoder_takes_the_lane_for_the_common_shapes(monkeypatch: pytest.MonkeyPatch) -> None:
    general: list[str] = []
    content = _decode_messages._content

    def counted(message: dict[str, Any], path: str, extra: dict[str, Any]) -> tuple[Any, ...]:
        general.append(path)
        return content(message, path, extra)

    monkeypatch.setattr(_decode_messages, "_content", counted)
    decoded = decode_messages([*_TAKEN, _LEFT[2], *_TAKEN])
    assert general == ["$.messages[11]"]
    assert repr(decoded) == repr([*map(fast_message, _TAKEN), decoded[11], *map(fast_message, _TAKEN)])
