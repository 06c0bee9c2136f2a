"""``toolwire replay``: translate a recorded stream and print it, optionally checking its order."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from toolwire.cli._io import FORMAT_CHOICES, print_notes
from toolwire.formats._stream import WireEvent
from toolwire.streaming import StreamTranslator, WireReader, check_stream, encode_wire_events
from toolwire.translate import resolve_format

__all__ = ["add_parser"]


def add_parser(sub: Any) -> None:
    """Register ``replay``."""
    parser = sub.add_parser("replay", help="translate a recorded stream (SSE or Gemini JSON array)")
    parser.add_argument(
        "--from", dest="source", required=True, choices=FORMAT_CHOICES, help="recorded format"
    )
    parser.add_argument("--to", dest="target", choices=FORMAT_CHOICES, help="output format (default: same)")
    parser.add_argument("--check", action="store_true", help="validate the output's event order (exit 1)")
    parser.add_argument(
        "--policy", choices=("strict", "warn", "drop"), default="drop", help="what lossy conversions do"
    )
    parser.add_argument("--notes", choices=("text", "json"), default="text", help="notes format (stderr)")
    parser.add_argument("file", help="recording file, or - for standard input")
    parser.set_defaults(handler=_run)


def _read(name: str) -> bytes:
    if name == "-":
        return sys.stdin.buffer.read()
    with open(name, "rb") as fh:
        return fh.read()


def _run(args: argparse.Namespace) -> int:
    target = resolve_format(args.target or args.source)
    reader = WireReader()
    translator = StreamTranslator(args.source, target, policy=args.policy)
    out: list[WireEvent] = []
    for event in [*reader.feed(_read(args.file)), *reader.close()]:
        out.extend(translator.feed(event))
    out.extend(translator.close())
    sys.stdout.buffer.write(encode_wire_events(target, out))
    sys.stdout.flush()
    print_notes(translator.notes.items, args.notes)
    if not args.check:
        return 0
    problems = check_stream(target, out)
    for problem in problems:
        print(f"check: {problem}", file=sys.stderr)
    return 1 if problems else 0
