"""The ``toolwire`` command line.

Commands: ``convert``, ``tools convert``, ``schema``, ``validate``, ``replay`` (pure: they need
only the core), ``run`` (the ``client`` extra), ``emulate`` and ``serve`` (``server``), ``demo``
(``cli``), ``store ls|show|rm`` (a gateway's store; a Redis store needs ``redis``), ``trace
ls|show`` (the calls a gateway traced) and ``completion``. A command's optional dependencies
are imported when it runs, never when the parser is built, so ``--help`` works with any set of
extras. Errors are one line on standard error, ``toolwire: error: <message>``; exit codes are
listed in :class:`ExitCode`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from toolwire.cli import (
    _completion,
    _convert,
    _demo,
    _emulate,
    _replay,
    _run,
    _schema,
    _serve,
    _store,
    _trace,
    _validate,
)
from toolwire.cli._exit import ExitCode, exit_code_for
from toolwire.cli._parser import Parser, error_line
from toolwire.errors import ProviderError, ToolwireError

__all__ = ["ExitCode", "build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``toolwire`` command."""
    from toolwire import __version__

    parser = Parser(
        prog="toolwire",
        description="LLM tool calling across OpenAI Chat, OpenAI Responses, Anthropic and Gemini.",
        epilog="exit codes: 0 ok, 1 problems found, 2 usage, 3 input, 4 conversion refused, "
        "5 provider error, 6 missing extra",
    )
    parser.add_argument("--version", action="version", version=f"toolwire {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _convert.add_parsers(sub)
    _schema.add_parser(sub)
    _validate.add_parser(sub)
    _replay.add_parser(sub)
    _run.add_parser(sub)
    _emulate.add_parser(sub)
    _serve.add_parser(sub)
    _demo.add_parser(sub)
    _store.add_parser(sub)
    _trace.add_parser(sub)
    _completion.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI with ``argv`` (default: ``sys.argv[1:]``); returns the exit code (:class:`ExitCode`)."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error already printed
        return exc.code if isinstance(exc.code, int) else ExitCode.USAGE
    try:
        code: int = args.handler(args)
    except ToolwireError as exc:
        sys.stderr.write(error_line(_describe(exc)) + "\n")
        return exit_code_for(exc)
    except KeyboardInterrupt:
        return ExitCode.INTERRUPTED
    except BrokenPipeError:  # e.g. `toolwire ... | head`: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return ExitCode.OK
    return code


def _describe(exc: ToolwireError) -> str:
    """The error on one line; a provider's answer starts with its HTTP status."""
    text = " ".join(str(exc).split())
    status = exc.status if isinstance(exc, ProviderError) else None
    return f"HTTP {status}: {text}" if status else text
