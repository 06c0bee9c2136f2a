"""Fuzz every entry point that takes untrusted input (issue 19); the contract is in ``_harness``.

Inputs are the real fixture corpus, mutated (``_mutate``): parsed bodies for the translators,
the validator and the schema transforms; bytes split anywhere for streams, JSON and the CLI's
files; text split anywhere for partial JSON. One target per entry point and source format; the
target format and policy are drawn.

``TOOLWIRE_FUZZ_EXAMPLES`` is the total number of examples, shared evenly by the targets
(``make fuzz`` runs 50,000; ``make fuzz FUZZ_EXAMPLES=...`` changes it). Without it, the CI
slice runs :data:`SLICE` examples per target as part of ``make test``. ``TOOLWIRE_FUZZ_SHARD=i/n``
runs every n-th target from the i-th (the examples per target stay those of the whole run), so
n processes can share a long run; ``TOOLWIRE_FUZZ_SECONDS`` sets the per-example time bound.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.corpus import FORMATS, STREAM_FORMATS
from tests.fuzz import _mutate as m
from tests.fuzz._harness import check_json, run_example
from toolwire import schema as tw_schema
from toolwire._arguments_view import ArgumentsView
from toolwire._json import loads
from toolwire.cli import main as cli_main
from toolwire.cli._exit import ExitCode
from toolwire.formats._stream import BINARY_FORMATS
from toolwire.framing.aws_eventstream import EventStreamDecoder
from toolwire.ir.content import ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.stream import PartStart, ToolCallDelta
from toolwire.partial_json import complete_json, parse_partial
from toolwire.runner import Toolbox
from toolwire.streaming import StreamTranslator, WireReader, check_stream, translate_stream
from toolwire.translate import Exchange, translate_request, translate_response
from toolwire.validate import validate

SLICE = 12
"""Examples per target in the CI slice (about 100 targets)."""

POLICIES = st.sampled_from(["warn", "drop", "strict"])
TARGET_FORMATS = st.sampled_from(FORMATS)
STREAM_TARGETS = st.sampled_from(STREAM_FORMATS)
"""Targets of stream translations: the formats with a stream codec."""


@dataclass(frozen=True)
class Target:
    """One fuzzed entry point: how to draw an input, and how to call it (returning its output)."""

    name: str
    inputs: st.SearchStrategy[Any]
    call: Callable[[Any], Any]


def _translate_request(src: str) -> Callable[[Any], Any]:
    def call(example: Any) -> Any:
        payload, dst, policy = example
        out = translate_request(payload, source=src, target=dst, policy=policy)
        check_json(out.payload)
        return out

    return call


def _translate_response(src: str) -> Callable[[Any], Any]:
    def call(example: Any) -> Any:
        payload, dst, policy = example
        out = translate_response(payload, source=src, target=dst, policy=policy)
        check_json(out.payload)
        return out

    return call


def _validate(src: str, kind: str) -> Callable[[Any], Any]:
    def call(payload: Any) -> Any:
        problems = validate(payload, format=src, kind=kind, warnings=True)  # type: ignore[arg-type]
        for problem in problems:
            assert isinstance(problem.path, str) and isinstance(problem.message, str)
        return problems

    return call


def _check_stream_bytes(out: bytes, target: str) -> None:
    """SSE/NDJSON targets write UTF-8 text; an event-stream target (Bedrock) whole frames of JSON."""
    if target not in BINARY_FORMATS:
        out.decode("utf-8")
        return
    decoder = EventStreamDecoder()
    messages = [*decoder.feed(out), *decoder.close()]
    assert messages or not out, "bytes but no event-stream message"
    for message in messages:
        check_json(loads(message.payload))


def _translate_stream(src: str) -> Callable[[Any], Any]:
    def call(example: Any) -> bytes:
        chunks, dst, policy = example
        out = b"".join(translate_stream(iter(chunks), source=src, target=dst, policy=policy))
        _check_stream_bytes(out, dst)
        return out

    return call


def _stream_events(src: str) -> Callable[[Any], Any]:
    """Parsed events (as a library user feeds dicts) through ``StreamTranslator.feed``."""

    def call(example: Any) -> Any:
        events, dst, policy = example
        translator = StreamTranslator(src, dst, policy=policy)  # type: ignore[arg-type]
        out = [w for event in events for w in translator.feed(event)]
        out += translator.close()
        check_json(out)
        return out

    return call


def _check_stream(src: str) -> Callable[[Any], Any]:
    def call(events: Any) -> Any:
        return check_stream(src, events)  # type: ignore[arg-type]

    return call


def _error(src: str) -> Callable[[Any], Any]:
    """An upstream error body (bytes) of ``src`` for a client of the drawn format."""

    def call(example: Any) -> Any:
        body, status, client = example
        exchange = Exchange(client, src)  # type: ignore[arg-type]
        out = exchange.error(status, body)
        check_json(out[1])
        return out

    return call


def _schema(transform: Callable[..., Any]) -> Callable[[Any], Any]:
    def call(schema: Any) -> Any:
        out = transform(schema, Notes("drop"))
        check_json(out)
        return out

    return call


def _inline_refs(schema: Any, notes: Notes) -> Any:
    """``inline_refs`` as the targets call it: a recursive ref cut to ``{}``, siblings merged by ``allOf``."""
    return tw_schema.inline_refs(
        schema, notes, cut=lambda target, ref, loc: {}, merge=lambda parts: {"allOf": parts}
    )


def _toolbox(example: Any) -> Any:
    """A tool registered from a hostile schema, then called with hostile argument text."""
    schema, arguments = example
    box = Toolbox()
    box.register_schema("fuzzed", schema, dict)
    entry = box.get("fuzzed")
    assert entry is not None
    return entry.validate(arguments)


def _partial(text: str) -> Any:
    value = parse_partial(text)
    json.dumps(value)
    check_json(value)  # strict JSON: no NaN or Infinity gets through
    assert isinstance(complete_json(text), str)
    return value


def _arguments_view(example: Any) -> Any:
    """``ArgumentsView`` fed the text in drawn pieces agrees with ``parse_partial`` at every step."""
    pieces: list[str] = example
    view = ArgumentsView()
    view.feed(PartStart(index=0, part=ToolCall(id="c", name="f", arguments="")))
    text = ""
    for piece in pieces:
        view.feed(ToolCallDelta(index=0, arguments=piece))
        text += piece
        assert view.parsed(0) == parse_partial(text)
    return view.parsed(0)


def _wire_reader(chunks: list[bytes]) -> Any:
    reader = WireReader(keepalives=True)
    out = [e for chunk in chunks for e in reader.feed(chunk)]
    return out + reader.close()


def _cli(command: str) -> Callable[[Any], Any]:
    """The CLI on a hostile file: a documented exit code, and any error on one line of stderr."""

    def call(body: bytes) -> int:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "input.json"
            path.write_bytes(body)
            argv = [*command.split(), str(path)]
            out, err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = cli_main(argv)
        assert code in set(ExitCode), f"exit code {code} is not documented"
        errors = err.getvalue()
        assert "Traceback" not in errors
        if code >= ExitCode.USAGE:
            error_lines = [line for line in errors.splitlines() if line.startswith("toolwire: error: ")]
            assert len(error_lines) == 1, f"not one line of error: {errors!r}"
        return code

    return call


def _pieces(text: str) -> st.SearchStrategy[list[str]]:
    return st.lists(st.integers(0, len(text)), max_size=6).map(
        lambda cuts: [text[a:b] for a, b in zip([0, *sorted(cuts)], [*sorted(cuts), len(text)], strict=True)]
    )


def _targets() -> list[Target]:
    targets: list[Target] = []
    for src in FORMATS:
        targets += [
            Target(
                f"translate_request[{src}]",
                st.tuples(m.payloads(src, "request"), TARGET_FORMATS, POLICIES),
                _translate_request(src),
            ),
            Target(
                f"translate_response[{src}]",
                st.tuples(m.payloads(src, "response"), TARGET_FORMATS, POLICIES),
                _translate_response(src),
            ),
            Target(f"validate_request[{src}]", m.payloads(src, "request"), _validate(src, "request")),
            Target(f"validate_response[{src}]", m.payloads(src, "response"), _validate(src, "response")),
            Target(
                f"error[{src}]",
                st.tuples(
                    m.json_bytes(src, "error"),
                    st.sampled_from([400, 401, 404, 413, 429, 500, 503, 529, 200, 0, 999]),
                    TARGET_FORMATS,
                ),
                _error(src),
            ),
            Target(f"json_loads[{src}]", m.json_bytes(src, "request"), loads),
            Target(f"cli_validate[{src}]", m.json_bytes(src, "request"), _cli("validate")),
            Target(f"cli_convert[{src}]", m.json_bytes(src, "request"), _cli("convert --to anthropic")),
            Target(
                f"cli_convert_response[{src}]",
                m.json_bytes(src, "response"),
                _cli("convert --kind response --to openai-chat"),
            ),
        ]
        if src in STREAM_FORMATS:  # stream entry points of formats with a stream codec
            targets += [
                Target(
                    f"translate_stream[{src}]",
                    st.tuples(m.stream_chunks(src), STREAM_TARGETS, POLICIES),
                    _translate_stream(src),
                ),
                Target(
                    f"stream_events[{src}]",
                    st.tuples(m.stream_events(src), STREAM_TARGETS, POLICIES),
                    _stream_events(src),
                ),
                Target(f"check_stream[{src}]", m.stream_events(src), _check_stream(src)),
                Target(f"wire_reader[{src}]", m.stream_chunks(src), _wire_reader),
                Target(
                    f"cli_replay[{src}]",
                    m.stream_chunks(src).map(b"".join),
                    _cli("replay --to openai-responses"),
                ),
            ]
    for name in ("to_openai_strict", "to_gemini", "to_gemini_json_schema", "to_anthropic", "from_gemini"):
        targets.append(Target(f"schema.{name}", m.schemas(), _schema(getattr(tw_schema, name))))
    targets += [
        Target("schema.inline_refs", m.schemas(), _schema(_inline_refs)),
        Target("schema.can_be_strict", m.schemas(), lambda s: tw_schema.can_be_strict(s)),
        Target(
            "toolbox.register_schema+validate",
            st.tuples(m.schemas(), st.text(max_size=40) | m.JSON.map(str)),
            _toolbox,
        ),
        Target("parse_partial", st.text(max_size=200) | m.JSON.map(lambda v: repr(v)[:-1]), _partial),
        Target("arguments_view", (st.text(max_size=120) | m.JSON.map(str)).flatmap(_pieces), _arguments_view),
    ]
    return targets


TARGETS = _targets()
_TOTAL = os.environ.get("TOOLWIRE_FUZZ_EXAMPLES")
EXAMPLES = -(-int(_TOTAL) // len(TARGETS)) if _TOTAL else SLICE
"""Examples per target: the requested total shared evenly, or the CI slice."""

_SHARD = os.environ.get("TOOLWIRE_FUZZ_SHARD")  # "i/n": run every n-th target from i (parallel runs)
if _SHARD:
    _INDEX, _COUNT = (int(x) for x in _SHARD.split("/"))
    TARGETS = TARGETS[_INDEX::_COUNT]


@pytest.mark.parametrize("target", TARGETS, ids=[t.name for t in TARGETS])
def test_untrusted_input_succeeds_or_raises_a_typed_error(target: Target) -> None:
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )
    @given(target.inputs)
    def fuzz(example: Any) -> None:
        run_example(target.name, target.call, example)

    fuzz()
