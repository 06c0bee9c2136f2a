"""Under ``drop`` a conversion's notes are mapped to the payload passed in when first read.

``strict`` and ``warn`` map each note as it is made (a refusal and a log line name the source
path); ``drop`` keeps the notes as made and maps them all on the first read of
``Translation.notes`` (or ``Notes.items``). What is read is what the eager mapping gives: the
same notes in the same order, over the whole corpus; nothing is mapped when nobody reads them;
an :class:`Exchange` maps each turn's notes as the turn returns.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import pytest

from tests.compiled import pure_only
from tests.corpus import require_corpus, samples
from toolwire import _translation as translation_module
from toolwire import translate_request_bytes, translate_response_bytes
from toolwire._json import dumps
from toolwire.errors import ConversionError
from toolwire.ir import notes as notes_module
from toolwire.ir._where import STREAM, Where
from toolwire.ir.notes import Note, Notes
from toolwire.translate import Exchange, Translation, _general_request, translate_request, translate_response

from .test_strict_is_loss import _translate
from .test_valid_or_refused import PAIRS

_TOOL = {"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}
_CHAT = {
    "model": "gpt-4o",
    "messages": [{"role": "user", "content": "hi"}],
    "tools": [_TOOL, {**_TOOL, "function": {**_TOOL["function"], "name": "g"}}],
    "logit_bias": {"1": 2},
}
"""Two tools whose ``strict`` Responses makes up (IR paths), and a field it drops (a source path)."""

_RESPONSES_RESULTS = {
    "model": "gpt-5",
    "input": [
        {"role": "user", "content": "go"},
        {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "one"},
        {"type": "function_call", "call_id": "c2", "name": "f", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c2", "output": "two"},
    ],
}
"""Gemini notes each result's text as wrapped: IR paths of merged turns, mapped by provenance."""

_SYSTEM_AND_BLOCK = {
    "model": "claude",
    "max_tokens": 10,
    "system": "be brief",
    "messages": [
        {"role": "user", "content": "go"},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "ok"},
                {"type": "server_tool_use", "id": "srv_1", "name": "code_execution", "input": {}},
            ],
        },
        {"role": "user", "content": "and?"},
    ],
}
"""A loss about an IR part whose message index is not the source's (the system prompt)."""


def _unread(result: Translation) -> bool:
    """Whether ``result``'s notes wait for their first read (the slots, read without mapping)."""
    unset = (
        translation_module._slot(result, translation_module._SLOTS["notes"]) is translation_module._MISSING
    )
    later = translation_module._slot(result, translation_module._LATER)
    return unset and type(later) is translation_module._Unread


# ---------------------------------------------------------------- the same notes as the eager mapping


@pytest.mark.parametrize(("kind", "source", "target"), PAIRS)
def test_notes_read_late_are_the_notes_mapped_at_once(kind: str, source: str, target: str) -> None:
    """Every corpus translation: ``drop`` (mapped when read) gives ``warn``'s payload and notes."""
    require_corpus()
    late = 0
    for sample in samples(source, kind):
        try:
            warn = _translate(sample, target, "warn")
        except ConversionError:
            with pytest.raises(ConversionError):
                _translate(sample, target, "drop")
            continue
        drop = _translate(sample, target, "drop")
        late += _unread(drop)
        assert drop.payload == warn.payload, sample.id
        assert drop.notes == warn.notes, sample.id
        assert [type(n) for n in drop.notes] == [Note] * len(warn.notes), sample.id
    if late == 0:
        pytest.skip(f"no {source} -> {target} {kind} notes to map")


def test_the_corpus_defers_notes_in_many_pairs() -> None:
    """Not vacuous: many pairs' notes are put off and then mapped."""
    require_corpus()
    pairs = set()
    for kind, source, target in PAIRS:
        for sample in samples(source, kind)[:5]:
            try:
                result = _translate(sample, target, "drop")
            except ConversionError:
                continue
            if _unread(result) and result.notes:
                pairs.add((kind, source, target))
    assert len(pairs) >= 20, sorted(pairs)


@pytest.mark.parametrize(
    ("payload", "source", "target"),
    [
        (_CHAT, "openai-chat", "openai-responses"),
        (_RESPONSES_RESULTS, "openai-responses", "gemini"),
        (_SYSTEM_AND_BLOCK, "anthropic", "openai-chat"),
    ],
)
def test_the_bytes_api_gives_the_notes_mapped_at_once(
    payload: dict[str, Any], source: str, target: str
) -> None:
    warn = translate_request(payload, source=source, target=target, policy="warn")  # type: ignore[arg-type]
    got: list[Note] = []
    out = translate_request_bytes(dumps(payload), source=source, target=target, policy="drop", notes=got)  # type: ignore[arg-type]
    assert out == dumps(warn.payload)
    assert got == list(warn.notes)
    assert any(n.path != "$" for n in got)


def test_the_response_bytes_api_gives_the_notes_mapped_at_once() -> None:
    payload = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude",
        "content": [
            {"type": "text", "text": "running"},
            {"type": "server_tool_use", "id": "srv_1", "name": "code_execution", "input": {}},
        ],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    warn = translate_response(payload, source="anthropic", target="openai-chat", policy="warn")
    got: list[Note] = []
    translate_response_bytes(
        dumps(payload), source="anthropic", target="openai-chat", policy="drop", notes=got
    )
    assert got == list(warn.notes)
    assert "$.content[1]" in [n.path for n in got]


# ---------------------------------------------------------------- mapped only when read


@pure_only
@pytest.mark.parametrize(
    ("payload", "source", "target", "mapped"),
    [(_CHAT, "openai-chat", "openai-responses", 3), (_RESPONSES_RESULTS, "openai-responses", "gemini", 2)],
)
def test_notes_never_read_are_never_mapped(
    monkeypatch: pytest.MonkeyPatch, payload: dict[str, Any], source: str, target: str, mapped: int
) -> None:
    calls: list[str] = []
    made: list[object] = []
    real_map = Where.map
    real_where = notes_module._where

    def counting_map(self: Where, path: str, origins: Any) -> tuple[str, str | None]:
        calls.append(path)
        return real_map(self, path, origins)

    def counting_where(*args: Any) -> Where:
        made.append(args)
        return real_where(*args)

    monkeypatch.setattr(Where, "map", counting_map)
    monkeypatch.setattr(notes_module, "_where", counting_where)
    eager = translate_request(payload, source=source, target=target, policy="warn")  # type: ignore[arg-type]
    assert (len(calls), len(made)) == (mapped, 1)  # the counters count
    calls.clear()
    made.clear()
    late = translate_request(payload, source=source, target=target, policy="drop")  # type: ignore[arg-type]
    assert late.payload == eager.payload
    assert (calls, made) == ([], [])  # neither mapped nor the source's origins loaded
    assert late.notes == eager.notes
    assert (len(calls), len(made)) == (mapped, 1)  # all at once, on the first read
    assert late.notes == eager.notes
    assert (len(calls), len(made)) == (mapped, 1)  # and only then


@pure_only
def test_counting_notes_maps_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(Where, "map", lambda self, path, origins: calls.append(path) or (path, None))
    notes = Notes("drop")
    notes.add("$.logit_bias", "dropped", "before decoding: not mapped")
    notes.decoded({"tools": [{}]}, "openai-chat", "openai-responses")
    notes.info("$.tools[0].strict", "synthesized", "made up")
    assert (len(notes), bool(notes), notes.unmapped, calls) == (2, True, True, [])
    assert [n.path for n in notes] == ["$.logit_bias", "$.tools[0].strict"]
    assert (calls, notes.unmapped) == (["$.tools[0].strict"], False)


def test_reading_twice_gives_the_same_tuple() -> None:
    result = translate_request(_CHAT, source="openai-chat", target="openai-responses", policy="drop")
    assert _unread(result)
    first = result.notes
    assert not _unread(result)
    assert type(first) is tuple
    assert result.notes is first
    assert [n.path for n in first] == ["$.tools[0]", "$.tools[1]", "$.logit_bias"]


def test_a_translation_read_late_is_the_translation_built_at_once() -> None:
    """Equality, ``repr``, copies, pickling and ``dataclasses`` read the notes as a caller does."""
    eager = translate_request(_CHAT, source="openai-chat", target="openai-responses", policy="warn")
    made = Translation(eager.payload, eager.notes, eager.ir)
    fresh = lambda: translate_request(_CHAT, source="openai-chat", target="openai-responses", policy="drop")  # noqa: E731
    assert fresh() == made and made == fresh()
    assert repr(fresh()) == repr(made)
    assert copy.copy(fresh()) == made
    assert pickle.loads(pickle.dumps(fresh())) == made
    assert dataclasses.asdict(fresh()) == dataclasses.asdict(made)
    assert dataclasses.replace(fresh(), ir=None).notes == made.notes
    assert [f.name for f in dataclasses.fields(Translation)] == ["payload", "notes", "ir"]
    late = fresh()
    with pytest.raises(dataclasses.FrozenInstanceError):
        late.notes = ()  # type: ignore[misc]
    assert late.notes == made.notes
    assert Translation({"a": 1}).notes == ()
    assert Translation({}, made.notes[:1]).notes == made.notes[:1]


def test_a_translation_without_notes_keeps_nothing_for_later() -> None:
    payload = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}
    result = translate_request(payload, source="openai-chat", target="openai-responses", policy="drop")
    assert not _unread(result)
    assert result.notes == ()
    made_up = _general_request(payload, "openai-chat", "anthropic", "drop", None, None, None)
    assert _unread(made_up)  # a made-up max_tokens, at the output's $.max_tokens
    assert [(n.path, n.target) for n in made_up.notes] == [("$", "$.max_tokens")]
    by_lane = translate_request(payload, source="openai-chat", target="anthropic", policy="drop")
    later = translation_module._slot(by_lane, translation_module._LATER)
    assert later[0] is _general_request  # the pair lane's: the general path runs on first read
    assert (
        translation_module._slot(by_lane, translation_module._SLOTS["notes"]) is translation_module._MISSING
    )
    assert by_lane.notes == made_up.notes


# ---------------------------------------------------------------- strict, warn, streams: at once


def test_strict_refuses_with_the_mapped_path() -> None:
    late = translate_request(_SYSTEM_AND_BLOCK, source="anthropic", target="openai-chat", policy="drop")
    losses = [n for n in late.notes if n.loss]
    assert [n.path for n in losses] == ["$.messages[1].content[1]"]  # IR: messages[2].parts[1]
    with pytest.raises(ConversionError) as refused:
        translate_request(_SYSTEM_AND_BLOCK, source="anthropic", target="openai-chat", policy="strict")
    assert refused.value.path == "$.messages[1].content[1]"
    assert refused.value.notes == (losses[0],)


def test_warn_logs_the_mapped_note(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("INFO", logger="toolwire.convert")
    translate_request(_SYSTEM_AND_BLOCK, source="anthropic", target="openai-chat", policy="warn")
    assert any(r.getMessage().startswith("$.messages[1].content[1]: dropped") for r in caplog.records)


def test_a_stream_maps_each_note_as_it_is_made() -> None:
    """A stream part's origin is the event that started it, known as the stream goes."""
    notes = Notes("drop")
    notes.decoded(STREAM)
    notes.origins[("parts", 0)] = (3,)
    notes.info("$.parts[0]", "approximated", "as it stood")
    notes.origins[("parts", 0)] = (9,)
    assert not notes.unmapped
    assert [n.path for n in notes.items] == ["$[3]"]


def test_decoding_again_maps_the_notes_so_far_to_the_first_source() -> None:
    def made(policy: Any) -> list[Note]:
        notes = Notes(policy)
        notes.decoded({"max_tokens": 1}, "openai-chat", "anthropic")
        notes.info("$.max_tokens", "synthesized", "one")
        notes.decoded({}, "openai-chat", "anthropic")
        notes.info("$.max_tokens", "synthesized", "two")
        return notes.items

    assert made("drop") == made("warn")
    assert [(n.path, n.target) for n in made("drop")] == [("$.max_tokens", None), ("$", "$.max_tokens")]


# ---------------------------------------------------------------- the Exchange: each turn as it returns


def _turns(policy: Any) -> tuple[Exchange, list[list[Note]]]:
    """Two Chat -> Responses turns; the exchange's notes after each call."""
    exchange = Exchange("openai-chat", "openai-responses", policy=policy, clock=lambda: 1.0)
    seen = []
    response = {
        "id": "resp_1",
        "object": "response",
        "created_at": 1,
        "status": "completed",
        "model": "gpt-4o",
        "output": [
            {"type": "function_call", "id": "fc_1", "call_id": "c1", "name": "f", "arguments": "{}"},
        ],
        "usage": {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2},
    }
    exchange.request(_CHAT)
    seen.append(list(exchange.notes))
    chat = exchange.response(response)
    seen.append(list(exchange.notes))
    second = {
        **_CHAT,
        "messages": [
            *_CHAT["messages"],
            chat["choices"][0]["message"],
            {"role": "tool", "tool_call_id": "c1", "content": "ok"},
        ],
    }
    exchange.request(second)
    seen.append(list(exchange.notes))
    return exchange, seen


def test_exchange_notes_are_right_after_every_turn() -> None:
    late, late_seen = _turns("drop")
    eager, eager_seen = _turns("warn")
    assert late_seen == eager_seen
    assert late.notes == eager.notes
    assert all(type(n) is Note for n in late.notes)
    assert [len(s) for s in late_seen] == [3, len(late_seen[1]), len(late_seen[1]) + 3]
    assert [n.path for n in late_seen[2][-3:]] == ["$.tools[0]", "$.tools[1]", "$.logit_bias"]


def test_a_lane_translation_read_for_its_ir_leaves_its_notes_unmapped() -> None:
    """A pair lane's ``ir`` read first: the general path runs once, its notes still wait (the
    general path's collector, mapped on their own first read), then read as the general path's."""
    payload = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}
    by_lane = translate_request(payload, source="openai-chat", target="anthropic", policy="drop")
    general = _general_request(payload, "openai-chat", "anthropic", "drop", None, None, None)
    assert by_lane.ir == general.ir
    assert _unread(by_lane)
    assert by_lane.notes == general.notes
    assert not _unread(by_lane)
    assert translation_module._slot(by_lane, translation_module._LATER) is translation_module._MISSING
    quiet = translate_request(payload, source="openai-chat", target="openai-responses", policy="drop")
    assert quiet.notes == ()  # a lane that notes nothing: no general path for its notes
    assert translation_module._slot(quiet, translation_module._LATER)[0] is _general_request
    with pytest.raises(AttributeError, match="nope"):
        quiet.nope  # type: ignore[attr-defined]  # noqa: B018
