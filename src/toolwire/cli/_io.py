"""Input/output helpers shared by CLI commands.

A file that cannot be read (missing, a directory, no permission) or written raises
:class:`~toolwire.errors.PayloadError` with a one-line message, which the CLI turns into
exit code 3; so does input that is empty, not JSON, or larger than :data:`MAX_INPUT_BYTES`
(read in pieces, so ``/dev/zero`` or an endless pipe stops at the limit; a FIFO is read like
standard input, until its writer closes it).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, BinaryIO

from toolwire import _json
from toolwire.errors import LimitError, PayloadError
from toolwire.ir.notes import Note
from toolwire.translate import FORMAT_CHOICES

__all__ = [
    "FORMATS_HELP",
    "FORMAT_CHOICES",
    "MAX_INPUT_BYTES",
    "add_output",
    "print_json",
    "print_notes",
    "read_bytes",
    "read_json",
    "write_output",
]


FORMATS_HELP = (
    "formats: openai-chat (alias chat, openai), openai-responses (responses), anthropic (claude), "
    "gemini (google)"
)
"""Epilog of every command that takes a format."""


MAX_INPUT_BYTES = 256 * 2**20
"""The largest input a command reads (256 MiB): more is a ``LimitError`` (exit 3)."""

_PIECE = 2**20


def read_bytes(source: str) -> bytes:
    """The bytes of a file, or of standard input when ``source`` is ``-``.

    Raises:
        PayloadError: the file is missing, a directory or unreadable.
        LimitError: the input is larger than :data:`MAX_INPUT_BYTES`.
    """
    if source == "-":
        return _read_bounded(sys.stdin.buffer, "standard input")
    try:
        with Path(source).open("rb") as file:
            return _read_bounded(file, repr(source))
    except OSError as exc:
        raise PayloadError(f"cannot read {source!r}: {exc.strerror or exc}") from None


def _read_bounded(stream: BinaryIO, name: str) -> bytes:
    """Everything ``stream`` has, in pieces, stopping after :data:`MAX_INPUT_BYTES`."""
    pieces: list[bytes] = []
    size = 0
    while piece := stream.read(_PIECE):
        pieces.append(piece)
        size += len(piece)
        if size > MAX_INPUT_BYTES:
            raise LimitError(f"{name} is larger than {MAX_INPUT_BYTES >> 20} MiB, the input limit", path="$")
    return b"".join(pieces)


def read_json(source: str) -> Any:
    """Parse JSON from a file path, or from standard input when ``source`` is ``-``.

    Raises:
        PayloadError: the file cannot be read, is empty, or is not JSON.
    """
    data = read_bytes(source)
    if not data.strip():
        where = "standard input" if source == "-" else repr(source)
        raise PayloadError(f"{where} is empty: expected a JSON payload", path="$")
    return _json.loads(data)


def add_auto_format(parser: Any, flag: str, dest: str, what: str, source: str = "payload") -> None:
    """Add a format option (``--from`` / ``--format``) that defaults to ``auto``: detected, and said."""
    parser.add_argument(
        flag,
        dest=dest,
        default="auto",
        choices=("auto", *FORMAT_CHOICES),
        metavar="FORMAT",
        help=f"{what} format (default: auto, detected from the {source})",
    )


def add_conversion_options(parser: Any) -> None:
    """Add ``--policy`` and ``--notes``, shared by the commands that convert."""
    parser.add_argument(
        "--policy",
        choices=("strict", "warn", "drop"),
        default="drop",
        help="lossy conversions: strict refuses (exit 4), warn and drop convert and note (default: drop)",
    )
    parser.add_argument(
        "--notes",
        choices=("text", "json"),
        default="text",
        help="notes on standard error as text or JSON lines",
    )


def add_output(parser: Any) -> None:
    """Add ``-o/--output FILE`` to a command's parser."""
    parser.add_argument(
        "-o", "--output", metavar="FILE", help="write the result to FILE instead of standard output"
    )


def write_output(data: str | bytes, output: str | None = None) -> None:
    """Write ``data`` to standard output, or to the file ``output`` (``-`` is standard output).

    Raises:
        PayloadError: the file cannot be written.
    """
    if output is None or output == "-":
        if isinstance(data, str):
            sys.stdout.write(data)
        else:
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    try:
        Path(output).write_bytes(data.encode() if isinstance(data, str) else data)
    except OSError as exc:
        raise PayloadError(f"cannot write {output!r}: {exc.strerror or exc}") from None


def print_json(value: Any, output: str | None = None) -> None:
    """Write ``value`` as indented JSON to standard output or to the file ``output``."""
    import json

    write_output(json.dumps(value, indent=2, ensure_ascii=False) + "\n", output)


def print_notes(notes: Iterable[Note], mode: str = "text") -> None:
    """Print conversion notes to standard error (``text``) or as JSON lines (``json``)."""
    for note in notes:
        if mode == "json":
            line = {"path": note.path, "kind": note.kind, "message": note.message}
            sys.stderr.write(_json.dumps_str({**line, "loss": note.loss, "target": note.target}))
            sys.stderr.write("\n")
        else:
            sys.stderr.write(f"note: {note}\n")
