"""The Responses writer of the response lanes against the Responses encoder, spot by spot.

The writer spells out what the encoder gets from helpers (the request echo fields of
``echo_defaults``, the status of the common stop reasons, the derived ids): for every stop
reason, with and without usage, text and calls, it writes what ``encode_response`` writes for
the same response of another format (or refuses what the encoder reports as ``failed``), and
its typed form for the bytes API (``write_wire``) encodes to the same JSON.
"""

from __future__ import annotations

import hashlib
import itertools
from typing import Any, get_args

import msgspec
import pytest

from toolwire._json import dumps
from toolwire._plain._response_form import PlainResponse
from toolwire._plain.responses_response import write_response, write_wire
from toolwire.formats.openai_responses import _ids
from toolwire.formats.openai_responses.response import echo_defaults, encode_response
from toolwire.ir.content import TextPart, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.response import Response, StopReason, Usage

_USAGE = Usage(input_tokens=10, output_tokens=4, cached_tokens=2, reasoning_tokens=1)


def _pair(
    stop: StopReason, usage: Usage | None, text: str | None, calls: int
) -> tuple[PlainResponse, Response]:
    plain = PlainResponse("msg_9", "claude-x", stop, "raw")
    plain.text, plain.usage, plain.created = text, usage, 1700000000
    plain.calls = [(f"toolu_{i}", f"f{i}", {"a": i} if i % 2 else '{"b":2}') for i in range(calls)]
    parts: list[Any] = [] if text is None else [TextPart(text=text)]
    parts += [
        ToolCall(id=f"toolu_{i}", name=f"f{i}", arguments=f'{{"a":{i}}}' if i % 2 else '{"b":2}')
        for i in range(calls)
    ]
    ir = Response(
        parts=tuple(parts),
        id="msg_9",
        model="claude-x",
        stop_reason=stop,
        raw_stop_reason="raw",
        usage=usage,
        created=1700000000,
        origin="anthropic",
    )
    return plain, ir


@pytest.mark.parametrize(
    ("stop", "usage", "text", "calls"),
    list(itertools.product(get_args(StopReason), (None, _USAGE), (None, "Hi."), (0, 2))),
)
def test_the_writer_writes_what_the_encoder_writes(
    stop: StopReason, usage: Usage | None, text: str | None, calls: int
) -> None:
    if text is None and not calls:
        return
    plain, ir = _pair(stop, usage, text, calls)
    got = write_response(plain)
    want = encode_response(ir, Notes("drop"))
    wire = write_wire(plain)
    if want["status"] == "failed":
        assert got is None
        assert wire is None
        return
    assert got == want
    assert dumps(wire) == dumps(want)  # the bytes API's Structs: the same JSON
    assert list(got) == list(want)  # the same key order: the bytes are the same
    assert list(got)[-len(echo_defaults()) :] == list(echo_defaults())


def _pinned_id(prefix: str, seed: str, index: int) -> str:
    """The pinned formula: the SHA-1 hex digest (40 digits) of the seed's UTF-8, then the index
    as 8 hex digits."""
    return prefix + hashlib.sha1(seed.encode("utf-8", "surrogatepass")).hexdigest() + f"{index:08x}"


def test_derived_ids_are_sha1_of_the_seed_then_the_index() -> None:
    """The pinned formula, whichever SHA-1 implementation computes it."""
    for seed, index in (("msg_01X", 1), ("résumé\udcff", 12), ("", 0), ("x", 63), ("x", 64), ("x", 2**32)):
        want = _pinned_id("fc_", seed, index)
        assert _ids.derived_id("fc", seed, index) == want
        assert _ids.seeded_id("fc_", _ids.id_seed(seed), index) == want
        raw = seed.encode("utf-8", "surrogatepass")
        assert _ids._SHA1(raw).hexdigest() == hashlib.sha1(raw).hexdigest()
    assert len(_ids.derived_id("msg", "s", 1)) == len("msg_") + 48


@pytest.mark.parametrize("response_id", ["msg_9", "résumé\udcff", ""], ids=["ascii", "surrogate", "empty"])
def test_the_writers_ids_are_the_derived_ids(response_id: str) -> None:
    """Past the counters written once (``_INDEX``) and for an id that is not plain UTF-8."""
    plain = PlainResponse(response_id, "claude-x", "tool_calls", "raw")
    plain.text = "Hi."
    plain.calls = [(f"toolu_{i}", "f", "{}") for i in range(70)]

    def sha(prefix: str, n: int) -> str:
        return _pinned_id(prefix, response_id, n)

    want = [sha("msg_", 1)] + [sha("fc_", n) for n in range(2, 72)]
    out = write_response(plain)
    assert out is not None
    assert [item["id"] for item in out["output"]] == want
    assert [item.id for item in write_wire(plain).output] == want


@pytest.mark.parametrize("stop", ["tool_calls", "max_tokens", "content_filter"])
def test_a_response_without_creation_time_its_own_echo_objects(stop: StopReason) -> None:
    """``created_at`` ``0`` when unknown, the status of a stop other than the common ones; the
    writer's response is built from a template: changing one leaves the next as it was."""
    plain, ir = _pair(stop, None, "Hi.", 1)
    plain.created = None
    ir = msgspec.structs.replace(ir, created=None)
    want = encode_response(ir, Notes("drop"))
    got = write_response(plain)
    assert got == want and list(got) == list(want)
    assert got["created_at"] == 0
    got["tools"].append("x")
    got["metadata"]["k"] = 1
    got["id"] = "changed"
    assert write_response(plain) == want
