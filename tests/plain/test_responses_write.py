"""The Responses writer of the pair lanes (``toolwire._plain.responses_write``) writes what the
general path writes.

Two ways in: the harness (``tests.plain.harness``) runs every request of the corpora through each
pair whose reader exists with Responses as the target; and, independent of any reader, the IR of
every corpus request of each other format is turned into its :class:`Plain` (:func:`plain_of_ir`,
the form's spec applied to the IR) and the writer's payload is compared with the general path's,
byte for byte, and ``noted`` with its notes. Hand-written plains pin each guard and each note.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.plain._responses_plain import plain_of_ir
from tests.plain.harness import bench_requests, corpus, lane_pairs, same_both_ways, same_bytes
from tests.translate.test_properties import _encode, requests
from tests.translate.test_valid_or_refused_mutated import mutated
from toolwire._json import dumps
from toolwire._plain import READERS, WRITERS
from toolwire._plain._form import ASSISTANT, RESULTS, SYSTEM, USER, Plain
from toolwire._plain.responses_write import write
from toolwire.errors import ToolwireError
from toolwire.ir.notes import Notes
from toolwire.translate import Translation, _general_request, format_module

TARGET = "openai-responses"
SOURCES = ("openai-chat", "anthropic", "gemini")
SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


def _general(payload: Any, source: str) -> Any:
    try:
        return _general_request(payload, source, TARGET, "drop", None, None, None)  # type: ignore[arg-type]
    except (ToolwireError, ValueError) as exc:
        return exc


def written_the_same(payload: Any, source: str) -> bool | None:
    """Whether the writer took the Plain of ``payload`` (``None``: not plain, or refused by the
    general path, whose history checks the readers make); when it did, its payload and ``noted``
    are the general path's."""
    notes = Notes("drop")
    try:
        ir = format_module(source).decode_request(payload, notes)
    except (ToolwireError, ValueError):
        return None
    plain = plain_of_ir(ir, source, bool(len(notes)))
    general = _general(payload, source)
    if plain is None or not isinstance(general, Translation):
        return None
    kept = copy.deepcopy(plain)
    out = write(plain)
    if out is None:
        return False
    same_bytes(dumps(out), dumps(general.payload))
    assert plain.noted == bool(general.notes), (plain.noted, general.notes)
    assert plain.turns == kept.turns and plain.tools == kept.tools  # the writer changes no turn
    return True


# ---------------------------------------------------------------- corpora


def test_the_writer_is_registered() -> None:
    assert WRITERS[TARGET] is write


@pytest.mark.parametrize("source", SOURCES)
def test_every_corpus_request_of_another_format_is_written_the_same(source: str) -> None:
    taken = [written_the_same(payload, source) for payload in corpus(source)]
    assert taken.count(True) >= 10
    assert taken.count(False) <= taken.count(True)  # the writer is not shy of plain requests


@pytest.mark.parametrize("source", SOURCES)
def test_the_benchmark_conversations_are_written(source: str) -> None:
    assert all(written_the_same(payload, source) for payload in bench_requests(source))


@pytest.mark.parametrize("source", SOURCES)
def test_mutated_corpus_requests_are_written_the_same(source: str) -> None:
    @SETTINGS
    @given(mutated(source))
    def check(sample: Any) -> None:
        written_the_same(sample.payload, source)

    check()


def test_generated_conversations_are_written_the_same() -> None:
    @SETTINGS
    @given(requests(), st.sampled_from(SOURCES))
    def check(request: Any, source: str) -> None:
        written_the_same(_encode(request, source), source)

    check()


def _pairs() -> list[tuple[str, str]]:
    return [pair for pair in lane_pairs(TARGET) if pair[1] == TARGET]


@pytest.mark.parametrize(("source", "target"), _pairs())
def test_every_corpus_request_translates_the_same_both_ways(source: str, target: str) -> None:
    taken = [
        same_both_ways(payload, source, target, policy)
        for payload in corpus(source)
        for policy in ("warn", "drop")
    ]
    assert sum(taken) >= 10


@pytest.mark.parametrize(("source", "target"), _pairs())
def test_the_lane_takes_the_benchmark_conversations(source: str, target: str) -> None:
    """Under ``drop``, as ``benchmarks/bench_pairs.py`` measures (their tools have no ``strict``)."""
    assert all(same_both_ways(payload, source, target, "drop") for payload in bench_requests(source))


# ---------------------------------------------------------------- hand-written plains


def _chat_tool(name: str, **fields: Any) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, **fields}}


def chat_request() -> dict[str, Any]:
    """A Chat request of every shape the writer writes; :func:`plain_request` is its Plain."""
    calls = [
        {"id": "c1", "type": "function", "function": {"name": "weather", "arguments": '{"city":"Oslo"}'}},
        {"id": "c2", "type": "function", "function": {"name": "time", "arguments": ""}},
    ]
    schema = {"type": "object", "properties": {}}
    return {
        "model": "gpt-4o",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "developer", "content": "Use tools."},
            {"role": "user", "content": "Weather?"},
            {"role": "assistant", "content": "Looking.", "tool_calls": calls},
            {"role": "tool", "tool_call_id": "c2", "content": "noon"},
            {"role": "tool", "tool_call_id": "c1", "content": "sun"},
            {"role": "assistant", "content": "Sunny at noon."},
            {"role": "system", "content": "Keep it short."},
            {"role": "user", "content": "And now?"},
            {"role": "assistant", "content": None, "tool_calls": [{**calls[0], "id": "c3"}]},
            {"role": "tool", "tool_call_id": "c3", "content": "rain"},
        ],
        "tools": [
            _chat_tool("weather", description="weather it", parameters=schema, strict=True),
            _chat_tool("time", parameters={"type": "object"}, strict=False),
        ],
        "tool_choice": {"type": "function", "function": {"name": "weather"}},
        "parallel_tool_calls": False,
        "max_completion_tokens": 100,
        "temperature": 2,
        "top_p": 0.0,
        "stream": True,
        "user": "u-1",
        "metadata": {"session": "s-1"},
    }


def plain_request(arguments: Any = '{"city":"Oslo"}') -> Plain:
    """The Plain of :func:`chat_request` (``arguments``: those of the weather calls)."""
    plain = Plain(
        "gpt-4o",
        [
            (SYSTEM, "system", "Be brief."),
            (SYSTEM, "developer", "Use tools."),
            (USER, "Weather?"),
            (ASSISTANT, "Looking.", (("c1", "weather", arguments), ("c2", "time", ""))),
            (RESULTS, (("c2", "noon"), ("c1", "sun"))),
            (ASSISTANT, "Sunny at noon.", ()),
            (SYSTEM, "system", "Keep it short."),
            (USER, "And now?"),
            (ASSISTANT, None, (("c3", "weather", arguments),)),
            (RESULTS, (("c3", "rain"),)),
        ],
    )
    plain.tools = [
        ("weather", "weather it", {"type": "object", "properties": {}}, True),
        ("time", None, {"type": "object"}, False),
    ]
    plain.choice, plain.parallel = ("tool", "weather"), False
    plain.max_tokens, plain.temperature, plain.top_p = 100, 2, 0.0
    plain.stream, plain.user, plain.metadata = True, "u-1", {"session": "s-1"}
    return plain


def same_as_general(chat: dict[str, Any], plain: Plain) -> dict[str, Any]:
    """Assert that the writer writes what the general path writes for ``chat`` (whose Plain is
    ``plain``) and notes as much; return the payload."""
    general = _general(chat, "openai-chat")
    assert isinstance(general, Translation), general
    out = write(plain)
    assert out is not None
    same_bytes(dumps(out), dumps(general.payload))
    assert plain.noted == bool(general.notes), general.notes
    return out


def test_a_plain_request_is_written_as_the_general_path_writes_it() -> None:
    out = same_as_general(chat_request(), plain_request())
    assert out["instructions"] == "Be brief."
    assert out["input"][0] == {"role": "developer", "content": "Use tools."}
    assert {"role": "system", "content": "Keep it short."} in out["input"]
    assert out["tool_choice"] == {"type": "function", "name": "weather"}
    assert out["max_output_tokens"] == 100


def test_object_arguments_are_written_as_compact_json_text() -> None:
    out = same_as_general(chat_request(), plain_request({"city": "Oslo"}))
    assert out["input"][3]["arguments"] == '{"city":"Oslo"}'


def _edited(chat_edit: Any, plain_edit: Any) -> tuple[dict[str, Any], Plain]:
    chat, plain = chat_request(), plain_request()
    chat_edit(chat)
    plain_edit(plain)
    return chat, plain


EDITS = {
    "no system message first": (
        lambda c: c["messages"].pop(0),
        lambda p: p.turns.pop(0),
    ),
    "a developer message first": (
        lambda c: (
            c["messages"].pop(0)
            and c["messages"].pop(0)
            and c["messages"].insert(0, {"role": "developer", "content": "D"})
        ),
        lambda p: p.turns.pop(0) and p.turns.pop(0) and p.turns.insert(0, (SYSTEM, "developer", "D")),
    ),
    "a system message alone": (
        lambda c: c.update(messages=[{"role": "system", "content": "S"}, {"role": "user", "content": "U"}]),
        lambda p: setattr(p, "turns", [(SYSTEM, "system", "S"), (USER, "U")]),
    ),
    "no model": (lambda c: c.pop("model"), lambda p: setattr(p, "model", None)),
    "a tool without strict": (
        lambda c: c["tools"][1]["function"].pop("strict"),
        lambda p: p.tools.__setitem__(1, ("time", None, {"type": "object"}, None)),
    ),
    "a tool without parameters": (
        lambda c: c["tools"][1]["function"].pop("parameters"),
        lambda p: p.tools.__setitem__(1, ("time", None, None, False)),
    ),
    "a tool of an empty description": (
        lambda c: c["tools"][1]["function"].update(description=""),
        lambda p: p.tools.__setitem__(1, ("time", "", {"type": "object"}, False)),
    ),
    "tool choice auto": (lambda c: c.update(tool_choice="auto"), lambda p: setattr(p, "choice", "auto")),
    "tool choice none": (lambda c: c.update(tool_choice="none"), lambda p: setattr(p, "choice", "none")),
    "tool choice required": (
        lambda c: c.update(tool_choice="required"),
        lambda p: setattr(p, "choice", "required"),
    ),
    "no tool choice": (lambda c: c.pop("tool_choice"), lambda p: setattr(p, "choice", None)),
    "no parallel switch": (lambda c: c.pop("parallel_tool_calls"), lambda p: setattr(p, "parallel", None)),
    "no tools, no choice": (
        lambda c: [c.pop("tools"), c.pop("tool_choice"), c.pop("parallel_tool_calls")],
        lambda p: [setattr(p, "tools", None), setattr(p, "choice", None), setattr(p, "parallel", None)],
    ),
    "tool choice auto without tools": (
        lambda c: [c.pop("tools"), c.update(tool_choice="auto"), c.pop("parallel_tool_calls")],
        lambda p: [setattr(p, "tools", None), setattr(p, "choice", "auto"), setattr(p, "parallel", None)],
    ),
    "tool choice required without tools": (
        lambda c: [c.pop("tools"), c.update(tool_choice="required"), c.pop("parallel_tool_calls")],
        lambda p: [setattr(p, "tools", None), setattr(p, "choice", "required"), setattr(p, "parallel", None)],
    ),
    "parallel switch without tools": (
        lambda c: [c.pop("tools"), c.pop("tool_choice")],
        lambda p: [setattr(p, "tools", None), setattr(p, "choice", None)],
    ),
    "16 output tokens": (
        lambda c: c.update(max_completion_tokens=16),
        lambda p: setattr(p, "max_tokens", 16),
    ),
    "15 output tokens": (
        lambda c: c.update(max_completion_tokens=15),
        lambda p: setattr(p, "max_tokens", 15),
    ),
    "temperature 3": (lambda c: c.update(temperature=3), lambda p: setattr(p, "temperature", 3)),
    "temperature 2.5": (lambda c: c.update(temperature=2.5), lambda p: setattr(p, "temperature", 2.5)),
    "temperature -1": (lambda c: c.update(temperature=-1), lambda p: setattr(p, "temperature", -1)),
    "top_p 1": (lambda c: c.update(top_p=1), lambda p: setattr(p, "top_p", 1)),
    "top_p 1.5": (lambda c: c.update(top_p=1.5), lambda p: setattr(p, "top_p", 1.5)),
    "no sampling numbers": (
        lambda c: [c.pop("max_completion_tokens"), c.pop("temperature"), c.pop("top_p")],
        lambda p: [
            setattr(p, "max_tokens", None),
            setattr(p, "temperature", None),
            setattr(p, "top_p", None),
        ],
    ),
    "no stream, user, metadata": (
        lambda c: [c.pop("stream"), c.pop("user"), c.pop("metadata")],
        lambda p: [setattr(p, "stream", None), setattr(p, "user", None), setattr(p, "metadata", None)],
    ),
    "an empty result": (
        lambda c: c["messages"][5].update(content=""),
        lambda p: p.turns.__setitem__(4, (RESULTS, (("c2", "noon"), ("c1", "")))),
    ),
    "two assistant turns in a row": (
        lambda c: c["messages"].insert(7, {"role": "assistant", "content": "More?"}),
        lambda p: p.turns.insert(6, (ASSISTANT, "More?", ())),
    ),
    "stream off": (lambda c: c.update(stream=False), lambda p: setattr(p, "stream", False)),
}
"""One-spot changes of :func:`chat_request` and the same change of :func:`plain_request`."""

NOTED = frozenset(
    {
        "no model",
        "a tool without strict",
        "a tool without parameters",
        "tool choice auto without tools",
        "tool choice required without tools",
        "parallel switch without tools",
        "15 output tokens",
        "temperature 3",
        "temperature 2.5",
        "temperature -1",
        "top_p 1.5",
    }
)


@pytest.mark.parametrize("edit", EDITS)
def test_each_one_spot_change_is_written_as_the_general_path_writes_it(edit: str) -> None:
    chat, plain = _edited(*EDITS[edit])
    same_as_general(chat, plain)
    assert plain.noted is (edit in NOTED)


def test_a_reader_s_note_is_kept() -> None:
    plain = plain_request()
    plain.noted = True
    assert write(plain) is not None
    assert plain.noted


def _call_named(name: Any) -> Any:
    return lambda p: p.turns.__setitem__(8, (ASSISTANT, None, (("c3", name, "{}"),)))


NOT_SURE = {
    "a tool name Responses refuses": lambda p: p.tools.__setitem__(1, ("time.now", None, None, True)),
    "a tool name too long": lambda p: p.tools.__setitem__(1, ("t" * 65, None, None, True)),
    "a call name Responses refuses": _call_named("weather.now"),
    "a call name that is no string": _call_named(None),
    "two tools of one name": lambda p: p.tools.append(("time", None, None, True)),
    "a choice naming no tool": lambda p: setattr(p, "choice", ("tool", "nope")),
    "a choice of another kind": lambda p: setattr(p, "choice", ("function", "weather")),
    "a mode Responses lacks": lambda p: setattr(p, "choice", "any"),
    "an empty model": lambda p: setattr(p, "model", ""),
    "an assistant turn of nothing": lambda p: p.turns.__setitem__(5, (ASSISTANT, None, ())),
    "a turn of another kind": lambda p: p.turns.append((9, "text")),
    "an empty instructions text": lambda p: p.turns.__setitem__(0, (SYSTEM, "system", "")),
    "an empty system text later on": lambda p: p.turns.__setitem__(6, (SYSTEM, "system", "")),
    "an empty user text": lambda p: p.turns.__setitem__(2, (USER, "")),
    "an empty assistant text": lambda p: p.turns.__setitem__(5, (ASSISTANT, "", ())),
    "an empty assistant text before calls": lambda p: p.turns.__setitem__(
        8, (ASSISTANT, "", (("c3", "weather", "{}"),))
    ),
    "arguments of a list": lambda p: p.turns.__setitem__(8, (ASSISTANT, None, (("c3", "weather", [1]),))),
    "an object that is not JSON": lambda p: p.turns.__setitem__(
        8, (ASSISTANT, None, (("c3", "weather", {"city": "\ud800"}),))
    ),
}
"""One-spot changes of :func:`plain_request` the writer leaves to the general path."""


@pytest.mark.parametrize("edit", NOT_SURE)
def test_the_writer_leaves_what_it_cannot_be_sure_of(edit: str) -> None:
    plain = plain_request()
    NOT_SURE[edit](plain)
    assert write(plain) is None
    assert write(plain) is None  # a name found invalid is not remembered as valid


def test_a_name_the_general_path_renames_is_left_to_it() -> None:
    chat = chat_request()
    chat["tools"][1]["function"]["name"] = "time.now"
    general = _general(chat, "openai-chat")
    assert isinstance(general, Translation)
    assert general.payload["tools"][1]["name"] != "time.now"  # renamed: the writer could not write it


# ---------------------------------------------------------------- through the lane, with a stand-in reader


def _stand_in_reader(source: str) -> Any:
    """A reader of ``source`` for the lane tests until its own lands: the Plain of the decoded
    IR, ``None`` for a request the general path refuses (a reader's history checks)."""

    def read(payload: Any, model: str | None) -> Plain | None:
        if not isinstance(_general(payload, source), Translation):
            return None
        notes = Notes("drop")
        try:
            ir = format_module(source).decode_request(payload, notes, model=model)
        except (ToolwireError, ValueError):
            return None
        return plain_of_ir(ir, source, bool(len(notes)))

    return read


@pytest.mark.parametrize("source", SOURCES)
def test_the_writer_through_the_lane_translates_the_same_both_ways(
    source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Noted requests under ``drop`` included: their notes come from the general path's
    translation when first read (a lock taken twice there once hung the read)."""
    if source not in READERS:
        monkeypatch.setitem(READERS, source, _stand_in_reader(source))
    taken = [same_both_ways(payload, source, TARGET, "drop") for payload in corpus(source)]
    assert sum(taken) >= 10
    assert all(same_both_ways(payload, source, TARGET, "drop") for payload in bench_requests(source))
    assert not any(same_both_ways(payload, source, TARGET, "warn") for payload in bench_requests(source)[1:])
