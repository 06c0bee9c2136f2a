"""The fast lane of the contents decoder (``_decode_fast``) gives exactly what the general decoder gives.

Each content is decoded by the lane and by ``decode_contents`` with the lane switched off; the
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
from toolwire.formats.gemini import _messages
from toolwire.formats.gemini._decode_fast import fast_content
from toolwire.formats.gemini._messages import decode_contents

_SIG = "thoughtSignature"
_CALL = {"functionCall": {"name": "f", "args": {"a": [1, "é"], "b": {}}, "id": "c1"}}
_RESPONSE = {"functionResponse": {"name": "f", "id": "c1", "response": {"output": "ok"}}}


def _user(*parts: Any) -> dict[str, Any]:
    return {"role": "user", "parts": list(parts)}


def _model(*parts: Any) -> dict[str, Any]:
    return {"parts": list(parts), "role": "model"}


def _response(**inner: Any) -> dict[str, Any]:
    return {"functionResponse": inner}


_TAKEN: list[dict[str, Any]] = [
    _user({"text": "hi"}),
    _user(),
    _model({"text": ""}, {"text": "b", "thoughtSignature": "s"}, {"thoughtSignature": "s2", "text": "c"}),
    _model(_CALL),
    _model(
        {"functionCall": {"name": "f", "args": {}}}, {"functionCall": {"args": {}, "name": "g"}, _SIG: "s"}
    ),
    _model({"text": "let me look"}, _CALL, _CALL),
    _user(_RESPONSE),
    _user(_response(response={"error": "bad"}), _response(response={"error": {"code": 1}}, id="c2")),
    _user(
        _response(response={"result": {"x": 1}}),
        _response(response={}),
        _response(response={"a": "1", "b": 2}),
    ),
    _user(_response(response={"output": "ok"}, name="f"), {"text": "and?"}),
]


_LEFT: list[Any] = [
    ["not", "a content"],
    {"role": "user", "parts": [{"text": "hi"}], "extra": 1},
    {"parts": [{"text": "hi"}]},
    {"role": "function", "parts": [{"text": "hi"}]},
    {"role": 1, "parts": [{"text": "hi"}]},
    {"role": "user", "parts": None},
    {"role": "user", "parts": {"text": "hi"}},
    _user("hi"),
    _user({}),
    _user({"text": 1}),
    _user({"text": "a", "thought": True}),
    _user({"text": "a", "thought": False}),
    _user({"text": "a", _SIG: None}),
    _user({"text": "a", _SIG: 1}),
    _user({"text": "a", "extra": "x"}),
    _user({"inlineData": {"mimeType": "image/png", "data": "AAAA"}}),
    _user({"thought_signature": "s", "text": "a"}),
    _user({"unknown": 1, "text": "a"}),
    _user({_SIG: "s"}),
    _model({"function_call": {"name": "f", "args": {}}}),
    _model({"functionCall": "f"}),
    _model({"functionCall": {"name": "f"}}),
    _model({"functionCall": {"name": "f", "args": None}}),
    _model({"functionCall": {"name": "f", "args": "{}"}}),
    _model({"functionCall": {"name": 1, "args": {}}}),
    _model({"functionCall": {"name": "f", "args": {}, "id": 1}}),
    _model({"functionCall": {"name": "f", "args": {}, "partialArgs": []}}),
    _model({"functionCall": {"name": "f", "args": {}}, _SIG: None}),
    _model({"functionCall": {"name": "f", "args": {}}, "extra": 1}),
    _user(_response()),
    _user(_response(response="ok")),
    _user(_response(response={"output": "ok"}, name=1)),
    _user(_response(response={"output": "ok"}, id=1)),
    _user(_response(response={"output": "ok"}, id=None)),
    _user(_response(response={"output": "ok"}, parts=[])),
    _user({**_RESPONSE, _SIG: "s"}),
    _user({"functionResponse": [1]}),
]


def _general(raw: list[Any], monkeypatch: pytest.MonkeyPatch) -> str:
    """What the general decoder gives for ``raw`` (``repr``), or the error it raises."""
    with monkeypatch.context() as patch:
        patch.setattr(_messages, "fast_content", lambda item: None)
        try:
            return repr(decode_contents(raw)[0])
        except ToolwireError as exc:
            return f"{type(exc).__name__}: {exc}"


@pytest.mark.parametrize("content", _TAKEN)
def test_a_common_shape_takes_the_lane(content: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    fast = fast_content(content)
    assert fast is not None
    assert repr((fast,)) == _general([content], monkeypatch)


@pytest.mark.parametrize("content", _LEFT)
def test_other_shapes_are_left_to_the_general_decoder(content: Any) -> None:
    assert fast_content(content) is None


@pytest.mark.parametrize("key", ["functionCall", "functionResponse"])
def test_json_too_deep_to_serialize_is_refused_by_the_general_decoder(
    key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    deep: dict[str, Any] = {}
    for _ in range(3000):
        deep = {"a": deep, "b": 1}
    inner = {"name": "f", "args": deep} if key == "functionCall" else {"response": deep}
    content = _model({"text": "a"}, {key: inner})
    assert fast_content(content) is None
    assert _general([content], monkeypatch).startswith(f"LimitError: $.contents[0].parts[1].{key}.")


_ANSWERED = [  # every call answered once, by id or (the id-less one) by name
    _user({"text": "hi"}),
    _model({"text": "a"}, _CALL, {"functionCall": {"name": "g", "args": {"x": 1}}}),
    _user(_RESPONSE, _response(name="g", response={"error": "bad"})),
    _model({"text": "done", _SIG: "s"}),
]


@pytest.mark.parametrize("target", ["anthropic", "openai-chat", "openai-responses"])
@pytest.mark.parametrize("unique", [False, True])
def test_a_conversation_decodes_and_records_as_without_the_lane(
    target: Any, unique: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Payload, notes and the origins they name (or the refusal and its path) come out the same
    through the public API."""
    valid_left = [
        _LEFT[i] for i in (1, 3, 10, 11, 12, 14, 15, 16, 17, 18, 19, 22, 26, 27, 28, 29, 33, 34, 35)
    ]
    contents = [m for pair in zip(_TAKEN, valid_left, strict=False) for m in pair] + valid_left[len(_TAKEN) :]
    if unique:  # tool-free shapes the lane leaves, around a conversation it takes
        left = [_LEFT[i] for i in (1, 3, 10, 11, 12, 14, 15, 16, 17, 18)]
        contents = [*left[:2], _ANSWERED[0], left[2], *_ANSWERED[1:3], *left[3:5], _ANSWERED[3], *left[5:]]
    payload = {"contents": contents, "systemInstruction": {"parts": [{"text": "s"}]}}

    def translated() -> Any:
        try:
            result = toolwire.translate_request(
                payload, source="gemini", target=target, policy="drop", model="m"
            )
        except ToolwireError as exc:
            return repr(exc)
        return result.payload, repr(result.notes)

    with monkeypatch.context() as patch:
        patch.setattr(_messages, "fast_content", lambda item: None)
        general = translated()
    assert translated() == general
    assert unique == isinstance(general, tuple)  # refused for its duplicate ids, else translated


@pure_only
def test_the_decoder_takes_the_lane_for_the_common_shapes(monkeypatch: pytest.MonkeyPatch) -> None:
    general: list[Any] = []
    content = _messages._decode_content

    def counted(raw: Any, path: str, system: bool) -> Any:
        general.append(raw)
        return content(raw, path, system)

    monkeypatch.setattr(_messages, "_decode_content", counted)
    decoded, _ = decode_contents([*_TAKEN, _LEFT[1], *_TAKEN])
    assert general == [_LEFT[1]]
    assert repr(decoded) == repr((*map(fast_content, _TAKEN), decoded[10], *map(fast_content, _TAKEN)))
