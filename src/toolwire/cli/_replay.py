"""``toolwire replay``: translate a recorded stream and print it, optionally checking its order.

A broken recording (cut short, or with an event that is not JSON) is still translated: the
events before the break go through and the output ends with the target format's own error
event, as a gateway would send it. ``--check`` validates the event order of both the
recording (in its own format's grammar) and the output, and exits 1 when either breaks it,
so a truncated recording fails the check even though its translation is well-formed.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from toolwire.cli._convert import announce
from toolwire.cli._detect import resolve_source
from toolwire.cli._io import (
    FORMAT_CHOICES,
    FORMATS_HELP,
    add_auto_format,
    add_conversion_options,
    add_output,
    print_notes,
    read_bytes,
    write_output,
)
from toolwire.errors import PayloadError
from toolwire.formats._stream import WireEvent
from toolwire.ir.response import ErrorInfo
from toolwire.ir.stream import StreamErrorEvent
from toolwire.streaming import StreamTranslator, WireReader, check_stream, encode_wire_events
from toolwire.translate import resolve_format

__all__ = ["add_parser", "read_events"]


def add_parser(sub: Any) -> None:
    """Register ``replay``."""
    parser = sub.add_parser(
        "replay", help="translate a recorded stream (SSE or Gemini JSON array)", epilog=FORMATS_HELP
    )
    add_auto_format(parser, "--from", "source", "recorded", "events")
    parser.add_argument(
        "--to", dest="target", choices=FORMAT_CHOICES, metavar="FORMAT", help="output format (default: same)"
    )
    parser.add_argument(
        "--check", action="store_true", help="validate the recording's and the output's event order (exit 1)"
    )
    add_conversion_options(parser)
    add_output(parser)
    parser.add_argument("file", metavar="FILE", help="recording file, or - for standard input")
    parser.set_defaults(handler=_run)


def read_events(data: bytes) -> tuple[list[WireEvent], PayloadError | None]:
    """The wire events of a recording, up to the first one that cannot be parsed (and that error).

    The bytes are fed line by line so that the events before a broken one are kept.
    """
    reader = WireReader()
    events: list[WireEvent] = []
    try:
        for line in data.splitlines(keepends=True):
            events.extend(reader.feed(line))
        events.extend(reader.close())
    except PayloadError as exc:
        return events, exc
    return events, None


def _malformed(exc: PayloadError) -> StreamErrorEvent:
    info = ErrorInfo(message=str(exc), code="malformed_event", type="stream_error", param=exc.path)
    return StreamErrorEvent(error=info)


def _run(args: argparse.Namespace) -> int:
    events, broken = read_events(read_bytes(args.file))
    if not events and args.source == "auto":  # nothing to detect a format from: say why
        raise broken or PayloadError(
            "the recording has no events (no SSE data lines, no JSON array)", path="$"
        )
    source, detected = resolve_source(args.source, events, "stream")
    if detected:
        announce(source, "recording", args.notes)
    target = resolve_format(args.target or source)
    translator = StreamTranslator(source, target, policy=args.policy)
    out: list[WireEvent] = []
    for event in events:
        out.extend(translator.feed(event))
    if broken is not None:
        out.extend(translator.feed_ir(_malformed(broken)))
    out.extend(translator.close())
    write_output(encode_wire_events(target, out), args.output)
    print_notes(translator.notes.items, args.notes)
    if not args.check:
        return 0
    problems = [f"input {p}" for p in check_stream(source, events)]
    if broken is not None:
        problems.append(f"input {broken}")
    problems += [f"output {p}" for p in check_stream(target, out)]
    for problem in problems:
        print(f"check: {problem}", file=sys.stderr)
    return 1 if problems else 0
