"""``toolwire validate [--format auto|FORMAT] [--kind request|response] FILE|-``: check a payload offline.

``--format`` defaults to ``auto`` (detected, named on standard error); a payload that plainly
is not the declared format is refused with exit 3, like ``convert --from``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from toolwire.cli._convert import announce
from toolwire.cli._detect import resolve_source
from toolwire.cli._io import FORMATS_HELP, add_auto_format, read_json
from toolwire.validate import validate

__all__ = ["add_parser"]


def add_parser(sub: Any) -> None:
    """Register ``validate``."""
    parser = sub.add_parser(
        "validate", help="check a request or response payload against a provider's rules", epilog=FORMATS_HELP
    )
    add_auto_format(parser, "--format", "fmt", "payload")
    parser.add_argument(
        "--kind", choices=("request", "response"), default="request", help="payload kind (default: request)"
    )
    parser.add_argument("--beta", action="store_true", help="Anthropic beta surface (?beta=true)")
    parser.add_argument("source", metavar="FILE", help="JSON file, or - for standard input")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    payload = read_json(args.source)
    fmt, detected = resolve_source(args.fmt, payload, args.kind)
    if detected:
        announce(fmt, args.kind, "text")
    problems = validate(payload, format=fmt, kind=args.kind, beta=args.beta)
    for problem in problems:
        sys.stdout.write(f"{problem}\n")
    if problems:
        sys.stderr.write(f"{len(problems)} problem{'s' if len(problems) != 1 else ''} found\n")
        return 1
    return 0
