"""The response lanes' note-free shortcuts of the encoders (issue 18): each writes exactly what the
general code writes for a response of another format, on every subset of usage counts (values
chosen so that Anthropic's uncached input is positive, zero and clamped), every stop reason with
and without calls, and ids of seeds ASCII, not ASCII and holding a lone surrogate. Outputs are
compared as JSON bytes, so key order counts."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable
from typing import Any, get_args

import pytest

from toolwire._json import dumps
from toolwire.formats.anthropic import _usage as anthropic_usage
from toolwire.formats.anthropic import response as anthropic_response
from toolwire.formats.gemini import _usage as gemini_usage
from toolwire.formats.openai_chat import response as chat_response
from toolwire.formats.openai_responses import _ids, _stop
from toolwire.formats.openai_responses import _usage as responses_usage
from toolwire.ir.notes import Notes
from toolwire.ir.response import StopReason, Usage

_FIELDS = (
    "input_tokens",
    "output_tokens",
    "total_tokens",
    "cached_tokens",
    "cache_creation_tokens",
    "reasoning_tokens",
)
_VALUES: dict[str, tuple[int | None, ...]] = {
    "input_tokens": (None, 40, 2311),
    "output_tokens": (None, 94, 0),
    "total_tokens": (None, 2405),
    "cached_tokens": (None, 30, 1024, 0),
    "cache_creation_tokens": (None, 10, 11, 0),
    "reasoning_tokens": (None, 7, 0),
}
"""Each count unknown, zero or not; the input of 40 with 30 cached and 10 written is 0 uncached, with
11 written -1, with 1024 cached far below 0 (both sent as 0)."""

_EXTRAS: tuple[dict[str, Any], ...] = (
    {},
    {"~prompt_tokens_details": {}, "~input_tokens_details": {}, "~null": ["input_tokens"]},
    {"service_tier": "standard", "~tool": 3, "~prompt": False, "~candidates": False},
)
"""No extra, hints only (the Chat and Responses decoders' own), and a field with hints other
codecs read only for a usage of their own format."""


def _usages() -> list[Usage]:
    out = []
    for values in itertools.product(*(_VALUES[name] for name in _FIELDS)):
        for extra in _EXTRAS:
            out.append(Usage(**dict(zip(_FIELDS, values, strict=True)), extra=extra))
    return out


USAGES = _usages()

ENCODERS: dict[str, tuple[Callable[[Usage], Any], Callable[[Usage], dict[str, Any]]]] = {
    "openai-responses": (
        lambda usage: responses_usage.encode_usage(usage, Notes("drop"), same=False),
        responses_usage.foreign_usage,
    ),
    "openai-chat": (
        lambda usage: chat_response.encode_usage(usage, Notes("drop"), same=False),
        chat_response.foreign_usage,
    ),
    "anthropic": (
        lambda usage: anthropic_usage.encode_usage(usage, False, Notes("drop")),
        anthropic_usage.foreign_usage,
    ),
    "gemini": (
        lambda usage: gemini_usage.encode_usage(usage, False, Notes("drop")),
        gemini_usage.foreign_usage,
    ),
}
"""Each format's general usage encoder (another format's usage) and its lane shortcut."""


@pytest.mark.parametrize("target", ENCODERS)
def test_foreign_usage_writes_what_the_encoder_writes(target: str) -> None:
    general, shortcut = ENCODERS[target]
    written = set()
    for usage in USAGES:
        expected = dumps(general(usage))
        assert dumps(shortcut(usage)) == expected, usage
        written.add(expected)
    assert len(written) >= 48  # the counts change what is written (not one constant answer)


def test_anthropic_foreign_usage_of_no_usage() -> None:
    expected = anthropic_usage.encode_usage(None, False, Notes("drop"))
    assert anthropic_usage.foreign_usage(None) == expected == {"input_tokens": 0, "output_tokens": 0}


def test_foreign_usage_of_known_counts() -> None:
    usage = Usage(input_tokens=2311, output_tokens=94, cached_tokens=1024, cache_creation_tokens=0)
    assert responses_usage.foreign_usage(usage) == {
        "input_tokens": 2311,
        "output_tokens": 94,
        "input_tokens_details": {"cached_tokens": 1024, "cache_write_tokens": 0},
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 2405,
    }
    assert chat_response.foreign_usage(usage) == {
        "prompt_tokens": 2311,
        "completion_tokens": 94,
        "total_tokens": 2405,
        "prompt_tokens_details": {"cached_tokens": 1024, "cache_write_tokens": 0},
    }
    assert anthropic_usage.foreign_usage(usage) == {
        "input_tokens": 1287,
        "output_tokens": 94,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 1024,
    }
    assert gemini_usage.foreign_usage(usage) == {
        "promptTokenCount": 2311,
        "candidatesTokenCount": 94,
        "totalTokenCount": 2405,
        "cachedContentTokenCount": 1024,
    }


STOPS: tuple[StopReason, ...] = get_args(StopReason)


@pytest.mark.parametrize("stop", STOPS)
@pytest.mark.parametrize("raw", [None, "raw"])
def test_stop_shortcuts_write_what_the_encoders_write(stop: StopReason, raw: str | None) -> None:
    assert _stop.status_of(stop) == _stop.encode_status(stop, raw, Notes("drop"))
    for calls in (False, True):
        assert chat_response.finish_of(stop, calls) == chat_response.encode_finish_reason(
            stop, raw, calls, Notes("drop")
        )
        assert anthropic_response.stop_of(stop, calls) == anthropic_response.encode_stop_reason(
            stop, raw, same=False, has_calls=calls, notes=Notes("drop")
        )


def test_stop_shortcuts_of_known_reasons() -> None:
    assert _stop.status_of("max_tokens") == ("incomplete", {"reason": "max_output_tokens"})
    assert _stop.status_of("end_turn") == ("completed", None)
    assert chat_response.finish_of("end_turn", True) == "tool_calls"
    assert chat_response.finish_of("refusal", True) == "content_filter"
    assert anthropic_response.stop_of("end_turn", True) == "tool_use"
    assert anthropic_response.stop_of("other", False) == "end_turn"
    assert anthropic_response.stop_of("max_tokens", True) == "max_tokens"


@pytest.mark.parametrize("seed", ["msg_01XFDUDYJgAACzvnptvVoYEL", "rés\u00e9\u4e2d", "a\ud800b", "", "x\x00"])
def test_id_seed_derives_the_ids_derived_id_derives(seed: str) -> None:
    head = _ids.id_seed(seed)
    assert head == hashlib.sha1(seed.encode("utf-8", "surrogatepass")).hexdigest()
    for index in (0, 1, 2, 9, 10, 123):
        assert "fc_" + head + f"{index:08x}" == _ids.derived_id("fc", seed, index)
