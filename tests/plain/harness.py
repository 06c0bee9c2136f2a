"""The differential harness of the pair lanes (``toolwire._plain``).

:func:`same_both_ways` runs one request through the public API (which takes the pair's lane when
it can) and through the general path alone, and asserts the same outcome: the same payload byte
for byte, the same notes, the same IR, or the same error; and that the lane's ``noted`` is
exactly "the general path notes something". :func:`corpus` gives every request of one format
the corpora hold (recorded fixtures, the real clients' requests, the benchmark conversations).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

from benchmarks.bench_pairs import _in_each_format, sized_chat_request

from tests import data
from tests.corpus import samples
from tests.plain._ir_plain import plain_of_ir
from toolwire import translate_request_bytes
from toolwire._json import dumps
from toolwire._plain import READERS, WRITERS
from toolwire._plain._form import Plain
from toolwire._plain._response_form import PlainResponse
from toolwire.errors import ToolwireError
from toolwire.ir.notes import Notes
from toolwire.translate import Translation, _general_request, format_module, pair_lane, translate_request

__all__ = [
    *("FORMATS", "bench_requests", "corpus", "drop_at", "lane_pairs"),
    *("outcome", "plain_response", "same_both_ways", "same_bytes", "set_at", "writes_as_the_general_path"),
]

FORMATS = ("openai-chat", "openai-responses", "anthropic", "gemini")
BENCH_SIZES = ((2, 1), (10, 5), (100, 5), (10, 50))


def lane_pairs(fmt: str) -> list[tuple[str, str]]:
    """Every pair with ``fmt`` on one side whose reader and writer both exist."""
    return [
        (source, target)
        for source in FORMATS
        for target in FORMATS
        if source != target and fmt in (source, target) and source in READERS and target in WRITERS
    ]


def outcome(run: Callable[[], Any]) -> Any:
    """``run()``, or the type, message and path of the toolwire error (or ValueError) it raised."""
    try:
        return run()
    except (ToolwireError, ValueError) as exc:
        return (type(exc).__name__, str(exc), getattr(exc, "path", None))


def same_bytes(got: Any, expected: bytes) -> None:
    """``got == expected``, reported as the first difference (pytest's own diff of two large
    payloads takes minutes)."""
    if got != expected:
        if not isinstance(got, bytes):
            raise AssertionError(f"expected a payload, got {got!r}"[:500])
        at = next((i for i, (a, b) in enumerate(zip(got, expected, strict=False)) if a != b), len(expected))
        raise AssertionError(
            f"payloads differ at byte {at}: {got[at - 80 : at + 80]!r} != {expected[at - 80 : at + 80]!r}"
        )


def same_both_ways(
    payload: Any, source: str, target: str, policy: str = "warn", model: str | None = None
) -> bool:
    """Assert that the public API (lane or not) and the general path agree on ``payload``;
    return whether the lane took it."""
    before = copy.deepcopy(payload)
    lane = pair_lane(payload, source, target, policy, model)
    general = outcome(lambda: _general_request(payload, source, target, policy, model, None, None))  # type: ignore[arg-type]
    got = outcome(
        lambda: translate_request(payload, source=source, target=target, policy=policy, model=model)  # type: ignore[arg-type]
    )
    if isinstance(general, Translation):
        assert isinstance(got, Translation), got
        same_bytes(dumps(got.payload), dumps(general.payload))
        assert got.payload == general.payload
        assert got.notes == general.notes
        assert got.ir == general.ir
        assert got == general and general == got
        if lane is not None:
            assert lane[1] == bool(general.notes), (lane[1], general.notes)  # noted, exactly
            assert policy == "drop" or not general.notes  # noted: only under drop
    else:
        assert got == general
        assert lane is None  # an error always comes from the general path
    if type(payload) is dict:  # the bytes API refuses a body that is not an object itself
        raw = json.dumps(payload).encode()
        wanted: tuple[list[Any] | None, ...] = (None, [])
        for notes in wanted:
            via_bytes = outcome(
                lambda notes=notes: translate_request_bytes(  # type: ignore[misc]
                    raw,
                    source=source,  # type: ignore[arg-type]
                    target=target,  # type: ignore[arg-type]
                    policy=policy,  # type: ignore[arg-type]
                    model=model,
                    notes=notes,
                )
            )
            if isinstance(general, Translation):
                same_bytes(via_bytes, dumps(general.payload))
                assert notes is None or notes == list(general.notes)
            else:
                assert via_bytes == general
    assert payload == before  # neither path changes the caller's payload
    return lane is not None


def writes_as_the_general_path(write: Callable[[Plain], Any], payload: Any, source: str, target: str) -> bool:
    """Assert that ``write`` (``target``'s writer) writes what the general path writes from
    ``source`` for the Plain of the IR of ``payload`` (or leaves it); whether it wrote it."""
    notes = Notes("drop")
    try:
        ir = format_module(source).decode_request(payload, notes)
    except (ToolwireError, ValueError):
        return False
    plain = plain_of_ir(ir)
    if plain is None:
        return False
    plain.noted = bool(notes.items)
    out = write(plain)
    if out is None:
        return False
    try:
        general = _general_request(payload, source, target, "drop", None, None, None)  # type: ignore[arg-type]
    except (ToolwireError, ValueError) as exc:
        raise AssertionError(f"the writer wrote a request the general path refuses: {exc}") from exc
    same_bytes(dumps(out), dumps(general.payload))
    assert list(out) == list(general.payload)
    assert plain.noted == bool(general.notes), general.notes
    return True


def _real_client_requests(fmt: str) -> list[Any]:
    out = []
    for path in sorted((data.HERE / "real_clients").glob("*/*/*.json")):
        record = json.loads(path.read_text())
        if record.get("format") == fmt and isinstance(record.get("body"), dict):
            out.append(record["body"])
    return out


def bench_requests(fmt: str) -> list[dict[str, Any]]:
    """The benchmark conversations (``benchmarks/bench_pairs.py``) in ``fmt``."""
    return [
        json.loads(_in_each_format(sized_chat_request(messages, tools))[fmt])
        for messages, tools in BENCH_SIZES
    ]


def corpus(fmt: str) -> list[Any]:
    """Every request of ``fmt`` in the corpora: fixtures, real clients, benchmark conversations."""
    return [
        *(s.payload for s in samples(fmt, "request")),
        *_real_client_requests(fmt),
        *(copy.deepcopy(p) for p in bench_requests(fmt)),
    ]


def set_at(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    """A one-spot change of a request: the value at ``path`` set to ``value`` (appended, when
    ``path`` ends in the length of a list)."""

    def change(payload: dict[str, Any]) -> None:
        where: Any = payload
        for key in path[:-1]:
            where = where[key]
        if type(where) is list and path[-1] == len(where):
            where.append(value)
        else:
            where[path[-1]] = value

    return change


def drop_at(path: tuple[Any, ...]) -> Callable[[dict[str, Any]], None]:
    """A one-spot change of a request: the value at ``path`` deleted."""

    def change(payload: dict[str, Any]) -> None:
        where = payload
        for key in path[:-1]:
            where = where[key]
        del where[path[-1]]

    return change


def plain_response(stop: Any = "end_turn", **fields: Any) -> PlainResponse:
    """A :class:`PlainResponse` of id ``r1`` and model ``m``, stop ``stop``, its other
    ``fields`` set (what a writer is handed, made without a reader)."""
    made = PlainResponse("r1", "m", stop, "x")
    for key, value in fields.items():
        setattr(made, key, value)
    return made
