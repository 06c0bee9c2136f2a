"""The argument parser class of every ``toolwire`` command: one-line errors, "did you mean".

* An error is one line on standard error, ``toolwire: error: <message>; see '<command> --help'``
  (red on a terminal), and the exit code is 2 (:attr:`~toolwire.cli._exit.ExitCode.USAGE`).
* A mistyped command, format or other choice names the closest valid one (:mod:`difflib`), and
  so does a mistyped option (``--fromm``) of the command it was given to.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Iterable, Sequence
from typing import Any, NoReturn

from toolwire.cli._exit import ExitCode
from toolwire.cli._style import paint

__all__ = ["Parser", "did_you_mean", "error_line"]


def did_you_mean(value: str, candidates: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest candidate, or ``""`` when none is close."""
    close = difflib.get_close_matches(value, list(candidates), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def error_line(message: str) -> str:
    """``toolwire: error: <message>`` (the prefix red when standard error gets colour)."""
    return f"{paint('toolwire: error:', 'error', sys.stderr)} {message}"


class Parser(argparse.ArgumentParser):
    """:class:`argparse.ArgumentParser` with one-line errors and suggestions for typos."""

    def error(self, message: str) -> NoReturn:
        """Print ``toolwire: error: ...`` on one line and exit 2."""
        sys.stderr.write(error_line(f"{message}; see '{self.prog} --help'") + "\n")
        sys.exit(ExitCode.USAGE)

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if action.choices is None or value in action.choices:
            return
        hint = did_you_mean(str(value), [str(c) for c in action.choices])
        if isinstance(action, argparse._SubParsersAction):
            raise argparse.ArgumentError(None, f"unknown command {value!r}{hint}")
        listed = ", ".join(map(str, action.choices))
        raise argparse.ArgumentError(action, f"invalid choice {value!r}{hint or f' (choose from {listed})'}")

    def parse_args(self, args: Sequence[str] | None = None, namespace: Any = None) -> Any:  # type: ignore[override]
        """Parse like argparse; an unknown option names the closest option of its command."""
        parsed, extra = self.parse_known_args(args, namespace)
        if extra:
            chosen = _chosen(self, parsed)
            hints = "".join(
                did_you_mean(e, chosen._option_string_actions) for e in extra if e.startswith("-")
            )
            chosen.error(f"unrecognized arguments: {' '.join(extra)}{hints}")
        return parsed


def _chosen(parser: argparse.ArgumentParser, parsed: argparse.Namespace) -> argparse.ArgumentParser:
    """The innermost (sub)command parser the parsed arguments went to."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            name = getattr(parsed, action.dest or "", None)
            if name in action.choices:
                return _chosen(action.choices[name], parsed)
    return parser
