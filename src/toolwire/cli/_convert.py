"""``toolwire convert`` and ``toolwire tools convert``.

``--from`` defaults to ``auto``: the format is detected (:mod:`toolwire.cli._detect`) and named
on standard error. A declared ``--from`` that the payload plainly is not (an Anthropic request
given as ``gemini``) is refused with exit 3 and the format it looks like.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from toolwire import _json
from toolwire.cli._detect import Kind, resolve_source
from toolwire.cli._explain import explain
from toolwire.cli._io import (
    FORMAT_CHOICES,
    FORMATS_HELP,
    add_auto_format,
    add_conversion_options,
    add_output,
    print_json,
    print_notes,
    read_json,
)
from toolwire.cli._style import paint
from toolwire.formats._wire import as_list
from toolwire.ir import Format
from toolwire.ir.notes import Notes
from toolwire.names import NameMap
from toolwire.translate import (
    format_module,
    rename_tools,
    resolve_format,
    translate_request,
    translate_response,
)

__all__ = ["add_parsers", "announce"]


def _common(parser: argparse.ArgumentParser) -> None:
    add_auto_format(parser, "--from", "source", "source")
    parser.add_argument(
        "--to", dest="target", required=True, choices=FORMAT_CHOICES, metavar="FORMAT", help="target format"
    )
    add_conversion_options(parser)
    add_output(parser)
    parser.add_argument("file", metavar="FILE", help="JSON file, or - for standard input")


def add_parsers(sub: Any) -> None:
    """Register ``convert`` and ``tools convert``."""
    convert = sub.add_parser(
        "convert", help="convert a request or response between formats", epilog=FORMATS_HELP
    )
    _common(convert)
    convert.add_argument(
        "--kind", choices=("request", "response"), default="request", help="payload kind (default: request)"
    )
    convert.add_argument("--model", help="model name, for sources that carry it in the URL (Gemini)")
    convert.add_argument(
        "--explain",
        action="store_true",
        help="explain every note on standard error: losses, then the rest, each with its source snippet",
    )
    convert.set_defaults(handler=_run_convert)

    tools = sub.add_parser("tools", help="tool definitions")
    tools_sub = tools.add_subparsers(dest="tools_command", required=True, metavar="SUBCOMMAND")
    tools_convert = tools_sub.add_parser(
        "convert", help="convert a tools array between formats", epilog=FORMATS_HELP
    )
    _common(tools_convert)
    tools_convert.set_defaults(handler=_run_tools_convert)


def announce(fmt: Format, kind: str, notes_mode: str) -> None:
    """Say on standard error which format ``auto`` detected (a JSON line under ``--notes json``)."""
    if notes_mode == "json":
        line = _json.dumps_str({"path": "$", "kind": "detected", "message": f"{kind} format: {fmt}"})
    else:
        line = paint(
            f"toolwire: reading the {kind} as {fmt} (detected; --from to override)", "info", sys.stderr
        )
    sys.stderr.write(line + "\n")


def _source(args: argparse.Namespace, payload: Any, kind: Kind) -> Format:
    fmt, detected = resolve_source(args.source, payload, kind)
    if detected:
        announce(fmt, kind, args.notes)
    return fmt


def _run_convert(args: argparse.Namespace) -> int:
    payload = read_json(args.file)
    source = _source(args, payload, args.kind)
    if args.kind == "request":
        result = translate_request(
            payload, source=source, target=args.target, policy=args.policy, model=args.model
        )
    else:
        result = translate_response(payload, source=source, target=args.target, policy=args.policy)
    print_json(result.payload, args.output)
    if args.explain:
        sys.stderr.write(explain(result.notes, payload))
    else:
        print_notes(result.notes, args.notes)
    return 0


def _run_tools_convert(args: argparse.Namespace) -> int:
    payload = read_json(args.file)
    wire_tools = payload.get("tools") if isinstance(payload, dict) and "tools" in payload else payload
    source = _source(args, wire_tools, "tools")
    if isinstance(wire_tools, dict):
        wire_tools = [wire_tools]
    as_list(wire_tools, "$.tools" if isinstance(payload, dict) and "tools" in payload else "$")
    notes = Notes(args.policy)
    tools = format_module(source).decode_tools(wire_tools, notes, "$")
    if source != resolve_format(args.target):
        names = NameMap(resolve_format(args.target))
        tools = rename_tools(tools, names.to_target, notes, "$")
    print_json(format_module(args.target).encode_tools(tools, notes, "$"), args.output)
    print_notes(notes, args.notes)
    return 0
