"""The Anthropic reader and writer of the pair lanes (``toolwire._plain.anthropic_read``, ``_write``).

The reader must give the :class:`Plain` of the IR the Anthropic decoder makes (``plain_of_ir``,
a user message of results then text read as two turns), with no decoding note, or ``None``; the
writer must write what the Anthropic encoder writes (and the sendable checks pass) for the IR a
:class:`Plain` stands for, noted exactly when the encoder notes, or ``None``. Every request of
the corpora, mutated and generated requests go through them, and through every pair the harness
has a lane for; hand-written one-spot changes pin each guard.
"""

from __future__ import annotations

import copy
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.plain._ir_plain import plain_of_ir
from tests.plain.harness import bench_requests, corpus, lane_pairs, same_both_ways, same_bytes
from tests.translate.test_properties import _encode, requests
from tests.translate.test_valid_or_refused_mutated import mutated
from toolwire._json import dumps
from toolwire._plain._form import ASSISTANT, RESULTS, Plain, arguments_text
from toolwire._plain.anthropic_read import read
from toolwire._plain.anthropic_write import write
from toolwire.errors import ToolwireError
from toolwire.formats._sendable import refuse_unsendable_request
from toolwire.formats.anthropic.request import decode_request, encode_request
from toolwire.ir.content import Message, TextPart, ToolResult
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request
from toolwire.translate import _general_request

ANTHROPIC = "anthropic"
OTHERS = ("openai-chat", "openai-responses", "gemini")
SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
READ_FIELDS = (
    *("model", "system", "messages", "max_tokens", "temperature", "top_p", "stream", "metadata"),
    *("tools", "tool_choice"),
)


# ---------------------------------------------------------------- the checks


def _as_ir(turn: tuple[Any, ...]) -> tuple[Any, ...]:
    if turn[0] == ASSISTANT:
        return (ASSISTANT, turn[1], tuple((i, n, arguments_text(a)) for i, n, a in turn[2]))
    return (RESULTS, tuple(turn[1])) if turn[0] == RESULTS else turn


def _tuples(plain: Plain) -> Plain:
    """``plain`` in ``plain_of_ir``'s spelling: calls and results as tuples, arguments as text."""
    out = copy.copy(plain)
    out.turns = [_as_ir(turn) for turn in plain.turns]
    return out


def _split(ir: Request) -> Request:
    """``ir`` with each user message of results then a text as two messages (the two turns)."""
    messages: list[Message] = []
    for message in ir.messages:
        parts = message.parts
        split = len(parts) > 1 and type(parts[0]) is ToolResult and type(parts[-1]) is TextPart
        if message.role == "user" and split:
            messages.append(msgspec.structs.replace(message, parts=parts[:-1]))
            messages.append(msgspec.structs.replace(message, parts=parts[-1:]))
        else:
            messages.append(message)
    return msgspec.structs.replace(ir, messages=tuple(messages))


def reader_agrees(payload: Any, model: str | None = None) -> bool:
    """Assert that :func:`read` gives the :class:`Plain` of the decoded IR with no note, or
    ``None``; return whether it read ``payload``."""
    before = copy.deepcopy(payload)
    plain = read(payload, model)
    assert payload == before
    if plain is None:
        return False
    notes = Notes("warn")
    ir = decode_request(payload, notes, model=model)
    assert not notes.items
    assert _tuples(plain) == plain_of_ir(_split(ir))
    assert not plain.noted
    # the history is whole: no target's history checks refuse it (Responses checks the least)
    _general_request(payload, ANTHROPIC, "openai-responses", "drop", model, None, None)  # type: ignore[arg-type]
    return True


def writer_agrees(ir: Request) -> bool:
    """Assert that :func:`write` writes what the Anthropic encoder writes for ``ir`` (of another
    format), noted exactly when the encoder notes, or ``None``; return whether it wrote it."""
    plain = plain_of_ir(ir)
    if plain is None:
        return False
    got = write(plain)
    if got is None:
        return False
    notes = Notes("warn")
    expected = encode_request(ir, notes)
    refuse_unsendable_request(expected, ir, ANTHROPIC)
    assert plain.noted == bool(notes.items), notes.items
    same_bytes(dumps(got), dumps(expected))
    return True


def writer_agrees_from(payload: Any, source: str) -> bool:
    """:func:`writer_agrees` on the IR the general path encodes for ``payload`` (``source``)."""
    try:
        translation = _general_request(payload, source, ANTHROPIC, "drop", None, None, None)  # type: ignore[arg-type]
    except (ToolwireError, ValueError):
        return False
    return writer_agrees(translation.ir)


def _cut_down(payload: Any) -> Any:
    if type(payload) is not dict:
        return payload
    return {key: value for key, value in payload.items() if key in READ_FIELDS}


# ---------------------------------------------------------------- corpora


def test_the_reader_agrees_with_the_decoder_on_every_anthropic_request() -> None:
    requests_ = corpus(ANTHROPIC)
    assert len(requests_) > 100
    taken = [reader_agrees(p) for p in requests_]
    cut = [reader_agrees(_cut_down(p)) for p in requests_]
    assert sum(taken) >= 10 and sum(cut) >= sum(taken)


def test_the_reader_takes_the_benchmark_conversations() -> None:
    for payload in bench_requests(ANTHROPIC):
        assert reader_agrees(payload)


@pytest.mark.parametrize("source", OTHERS)
def test_the_writer_agrees_with_the_encoder_on_every_request(source: str) -> None:
    requests_ = corpus(source)
    taken = [writer_agrees_from(p, source) for p in requests_]
    assert sum(taken) >= 4
    for payload in bench_requests(source):
        assert writer_agrees_from(payload, source)


def test_every_pair_with_a_lane_translates_the_same_both_ways() -> None:
    pairs = lane_pairs(ANTHROPIC)
    assert ("anthropic", "openai-chat") in pairs and ("openai-responses", "anthropic") in pairs
    for source, target in pairs:
        for payload in corpus(source):
            for policy in ("warn", "drop"):
                same_both_ways(payload, source, target, policy)
        for payload in bench_requests(source):
            assert same_both_ways(payload, source, target, "drop")


# ---------------------------------------------------------------- mutated and generated


def test_mutated_anthropic_requests() -> None:
    targets = [target for source, target in lane_pairs(ANTHROPIC) if source == ANTHROPIC]

    @SETTINGS
    @given(mutated(ANTHROPIC), st.booleans(), st.sampled_from(targets))
    def check(sample: Any, cut: bool, target: str) -> None:
        payload = _cut_down(sample.payload) if cut else sample.payload
        reader_agrees(payload)
        same_both_ways(payload, ANTHROPIC, target, "drop")

    check()


@pytest.mark.parametrize("source", OTHERS)
def test_mutated_requests_of_other_formats(source: str) -> None:
    @SETTINGS
    @given(mutated(source))
    def check(sample: Any) -> None:
        writer_agrees_from(sample.payload, source)

    check()


def test_generated_conversations() -> None:
    @SETTINGS
    @given(requests(), st.sampled_from(OTHERS), st.booleans())
    def check(request: Any, source: str, cut: bool) -> None:
        payload = _encode(request, ANTHROPIC)
        reader_agrees(_cut_down(payload) if cut else payload)
        writer_agrees_from(_encode(request, source), source)

    check()
