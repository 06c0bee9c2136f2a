"""Every request the repository holds, and what translating one gives, for the fast-lane tests.

The requests: the fixture corpus (every format, every Chat dialect), the golden cases and the
real-client recordings. :func:`outcome` is everything a translation shows the user (IR,
payload, notes with their paths, where the decoded IR came from, or the refusal), so that
a lane test can assert it is the same with the lane and without it.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import toolwire
from tests import corpus
from toolwire.errors import ToolwireError
from toolwire.ir import Notes
from toolwire.translate import format_module

__all__ = ["Payload", "assert_same", "outcome", "requests"]

_TESTS = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Payload:
    """A request body, its format and Chat dialect (``None``: plain Chat or another format)."""

    id: str
    format: str
    body: dict[str, Any]
    dialect: str | None = None


def _golden() -> list[Payload]:
    out = []
    for path in sorted((_TESTS / "golden").glob("*/request/*.json")):
        if path.stem in corpus.FORMATS:
            out.append(Payload(f"golden/{path.parent.parent.name}/{path.stem}", path.stem, _load(path)))
    return out


def _real_clients() -> list[Payload]:
    out = []
    for path in sorted((_TESTS / "data" / "real_clients").glob("*/*/*.json")):
        record = _load(path)
        body = record.get("body")
        if record.get("format") in corpus.FORMATS and type(body) is dict and record.get("method") == "POST":
            out.append(Payload(f"real/{path.parent.name}/{path.stem}", record["format"], body))
    return out


def _load(path: Path) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return value


def requests(fmt: str | None = None) -> list[Payload]:
    """Every request body of format ``fmt`` (``None``: of every format)."""
    recorded = [
        Payload(
            sample.id,
            sample.format,
            sample.payload,
            sample.dialect if sample.dialect != corpus.NATIVE else None,
        )
        for sample in corpus.samples(kind="request", dialect=corpus.ANY_DIALECT)
        if type(sample.payload) is dict
    ]
    found = recorded + _golden() + _real_clients()
    return [p for p in found if fmt is None or p.format == fmt]


def _refusal(exc: ToolwireError) -> str:
    return f"{type(exc).__name__}: {exc} at {getattr(exc, 'path', None)}"


def _decoded(request: Payload) -> Any:
    """The IR, the decoder's notes and where each IR element came from (a recording run)."""
    module = format_module(request.format)
    options = {"dialect": request.dialect} if request.dialect else {}
    try:
        notes = Notes("drop")
        ir = module.decode_request(copy.deepcopy(request.body), notes, **options)
        recorder = Notes("drop")
        recorder.recording = True
        record = getattr(module, "record_request", None)
        if record is not None:
            record(request.body, ir, recorder)
        else:
            module.decode_request(copy.deepcopy(request.body), recorder, **options)
    except ToolwireError as exc:
        return _refusal(exc)
    return repr(ir), repr(notes.items), recorder.origins


def _translated(request: Payload, target: str, policy: Any) -> Any:
    try:
        result = toolwire.translate_request(
            copy.deepcopy(request.body),
            source=request.format,  # type: ignore[arg-type]
            target=target,  # type: ignore[arg-type]
            policy=policy,
            source_dialect=request.dialect,
        )
    except ToolwireError as exc:
        return _refusal(exc)
    return result.payload, repr(result.notes)


def outcome(request: Payload, targets: tuple[str, ...] = corpus.FORMATS) -> dict[str, Any]:
    """What decoding ``request`` and translating it to each of ``targets`` gives, under the
    ``drop`` policy (payload and notes) and the ``strict`` one (the refusal, if any), by step."""
    out = {"decode": _decoded(request)}
    for target in targets:
        for policy in ("drop", "strict"):
            out[f"{target} ({policy})"] = _translated(request, target, policy)
    return out


def assert_same(got: dict[str, Any], general: dict[str, Any], request: Payload) -> None:
    """Fail naming the first step that differs (briefly: pytest's diff of whole outcomes is slow)."""
    assert got.keys() == general.keys()
    for step, mine in got.items():
        if mine != general[step]:
            theirs = str(general[step])[:2000]
            raise AssertionError(f"{request.id}: {step} differs:\n{str(mine)[:2000]}\n!=\n{theirs}")
