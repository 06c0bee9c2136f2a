"""Same-format round trip over every recorded Gemini payload: encode(decode(x)) == x."""

from __future__ import annotations

from typing import Any

import pytest

from tests.corpus import samples
from toolwire.formats import gemini
from toolwire.ir import Notes

_GENERATE = (":generateContent", ":streamGenerateContent")


def _is_generate(sample: Any) -> bool:
    """Whether a sample belongs to ``generateContent``.

    Cassettes of the Gemini folders also record other endpoints of the same test run
    (file-search store management and uploads, ``countTokens``, the OpenAI-compatible
    ``/openai/chat/completions``): those bodies are not this codec's format. Samples
    without a URL (plain JSON fixtures) are generateContent bodies.
    """
    url = getattr(sample, "url", None)
    return url is None or any(marker in url for marker in _GENERATE)


def _ids(kind: str) -> list[Any]:
    found = samples(format="gemini", kind=kind)
    if kind != "error":
        found = [s for s in found if _is_generate(s)]
    return [pytest.param(s, id=s.id) for s in found]


def test_corpus_is_there() -> None:
    assert len(_ids("request")) > 100
    assert len(_ids("response")) > 100
    assert len(_ids("error")) >= 15


@pytest.mark.parametrize("sample", _ids("request"))
def test_request_round_trip(sample: Any) -> None:
    notes = Notes("strict")
    ir = gemini.decode_request(sample.payload, notes, model=sample.model)
    assert ir.origin == "gemini"
    assert ir.messages, "contents decoded into the IR"
    assert gemini.encode_request(ir, notes) == sample.payload
    assert not notes.items


@pytest.mark.parametrize("sample", _ids("response"))
def test_response_round_trip(sample: Any) -> None:
    notes = Notes("strict")
    ir = gemini.decode_response(sample.payload, notes)
    assert gemini.encode_response(ir, notes) == sample.payload
    assert not notes.items


@pytest.mark.parametrize("sample", _ids("error"))
def test_error_round_trip(sample: Any) -> None:
    notes = Notes("strict")
    info = gemini.decode_error(sample.payload, sample.status, notes)
    assert info.message
    assert info.type in gemini.errors.STATUS_BY_NAME
    status, body = gemini.encode_error(info, notes)
    assert body == sample.payload
    assert status == (sample.status or info.status)
    assert status in (400, 403, 404, 429)


@pytest.mark.parametrize("sample", _ids("request"))
def test_tool_config_round_trip(sample: Any) -> None:
    """decode_tool_config then encode_tool_config reproduces the request's tool fields."""
    payload = sample.payload
    notes = Notes("strict")
    config = gemini.decode_tool_config(payload, notes)
    wire = gemini.encode_tool_config(config, notes)
    expected = {k: payload[k] for k in gemini.tools.TOOL_FIELDS if k in payload}
    assert wire == expected
    assert not notes.items
