"""The ``toolwire`` command line: convert, tools, schema, demo."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from toolwire.cli import _convert, _demo, _emulate, _replay, _run, _schema, _validate
from toolwire.errors import ToolwireError

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``toolwire`` command."""
    parser = argparse.ArgumentParser(
        prog="toolwire",
        description="LLM tool calling across OpenAI Chat, OpenAI Responses, Anthropic and Gemini.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _convert.add_parsers(sub)
    _schema.add_parser(sub)
    _validate.add_parser(sub)
    _demo.add_parser(sub)
    _emulate.add_parser(sub)
    _replay.add_parser(sub)
    _run.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code (0 ok, 1 problems found, 2 usage or input error)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.handler(args)
    except ToolwireError as exc:
        print(f"toolwire: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover - e.g. `toolwire ... | head`
        return 0
    return code
