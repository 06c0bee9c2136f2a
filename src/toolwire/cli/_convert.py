"""``toolwire convert`` and ``toolwire tools convert``."""

from __future__ import annotations

import argparse
from typing import Any

from toolwire.cli._io import FORMAT_CHOICES, print_json, print_notes, read_json
from toolwire.formats._wire import as_list
from toolwire.ir.notes import Notes
from toolwire.names import NameMap
from toolwire.translate import (
    format_module,
    rename_tools,
    resolve_format,
    translate_request,
    translate_response,
)

__all__ = ["add_parsers"]


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--from", dest="source", required=True, choices=FORMAT_CHOICES, help="source format")
    parser.add_argument("--to", dest="target", required=True, choices=FORMAT_CHOICES, help="target format")
    parser.add_argument(
        "--policy", choices=("strict", "warn", "drop"), default="drop", help="what lossy conversions do"
    )
    parser.add_argument("--notes", choices=("text", "json"), default="text", help="notes format (stderr)")
    parser.add_argument("file", help="JSON file, or - for standard input")


def add_parsers(sub: Any) -> None:
    """Register ``convert`` and ``tools convert``."""
    convert = sub.add_parser("convert", help="convert a request or response between formats")
    _common(convert)
    convert.add_argument("--kind", choices=("request", "response"), default="request")
    convert.add_argument("--model", help="model name, for sources that carry it in the URL (Gemini)")
    convert.set_defaults(handler=_run_convert)

    tools = sub.add_parser("tools", help="tool definitions")
    tools_sub = tools.add_subparsers(dest="tools_command", required=True, metavar="SUBCOMMAND")
    tools_convert = tools_sub.add_parser("convert", help="convert a tools array between formats")
    _common(tools_convert)
    tools_convert.set_defaults(handler=_run_tools_convert)


def _run_convert(args: argparse.Namespace) -> int:
    payload = read_json(args.file)
    if args.kind == "request":
        result = translate_request(
            payload, source=args.source, target=args.target, policy=args.policy, model=args.model
        )
    else:
        result = translate_response(payload, source=args.source, target=args.target, policy=args.policy)
    print_json(result.payload)
    print_notes(result.notes, args.notes)
    return 0


def _run_tools_convert(args: argparse.Namespace) -> int:
    payload = read_json(args.file)
    wire_tools = payload.get("tools") if isinstance(payload, dict) else payload
    as_list(wire_tools, "$.tools" if isinstance(payload, dict) else "$")
    notes = Notes(args.policy)
    source, target = format_module(args.source), format_module(args.target)
    tools = source.decode_tools(wire_tools, notes, "$")
    if resolve_format(args.source) != resolve_format(args.target):
        names = NameMap(resolve_format(args.target))
        tools = rename_tools(tools, names.to_target, notes, "$")
    print_json(target.encode_tools(tools, notes, "$"))
    print_notes(notes, args.notes)
    return 0
