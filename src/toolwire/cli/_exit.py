"""Exit codes of the ``toolwire`` command, and which error gives which.

======  ===================  ==============================================================
code    name                 when
======  ===================  ==============================================================
0       OK                   the command did what was asked (also when the reader of its
                             output closes the pipe early, ``| head``: it stops quietly)
1       PROBLEMS             it ran and found problems: ``validate`` (payload problems),
                             ``replay --check`` (event order), ``run`` (stopped before the
                             model answered, e.g. ``--max-turns``)
2       USAGE                bad command line: unknown command or option, missing or
                             invalid argument (also a ``MODULE:NAME`` that cannot be loaded,
                             a store URL that names no backend)
3       INPUT                bad input: missing or unreadable file, a directory, empty, not
                             JSON, larger than 256 MiB (``/dev/zero``, an endless pipe), not
                             the declared format, malformed payload; output not writable
4       CONVERSION_REFUSED   ``--policy strict`` refused a lossy conversion, or the target
                             cannot express the input at all
5       PROVIDER             ``run``: the provider answered with an error, or did not answer
6       MISSING_EXTRA        the command needs an extra that is not installed (the message
                             names it: ``pip install 'toolwire[client]'``)
130     INTERRUPTED          Ctrl-C
======  ===================  ==============================================================
"""

from __future__ import annotations

from enum import IntEnum

from toolwire.errors import (
    ConversionError,
    MissingDependencyError,
    ProviderError,
    ToolDefinitionError,
    ToolNameError,
    ToolwireError,
    TransportError,
    UnsupportedError,
)
from toolwire.store.base import StoreURLError

__all__ = ["EXIT_CODES", "ExitCode", "UsageError", "exit_code_for"]


class ExitCode(IntEnum):
    """The exit statuses of ``toolwire`` (see the module docstring for when each is used)."""

    OK = 0
    PROBLEMS = 1
    USAGE = 2
    INPUT = 3
    CONVERSION_REFUSED = 4
    PROVIDER = 5
    MISSING_EXTRA = 6
    INTERRUPTED = 130


class UsageError(ToolwireError):
    """A command-line argument has a value the command cannot use (exit 2)."""


EXIT_CODES: tuple[tuple[type[BaseException], ExitCode], ...] = (
    (MissingDependencyError, ExitCode.MISSING_EXTRA),
    (ConversionError, ExitCode.CONVERSION_REFUSED),
    (UnsupportedError, ExitCode.CONVERSION_REFUSED),
    (ProviderError, ExitCode.PROVIDER),
    (TransportError, ExitCode.PROVIDER),
    (UsageError, ExitCode.USAGE),
    (StoreURLError, ExitCode.USAGE),
    (ToolDefinitionError, ExitCode.USAGE),
    (ToolNameError, ExitCode.USAGE),
    (ToolwireError, ExitCode.INPUT),
)
"""Error class -> exit code; the first row the error is an instance of wins."""


def exit_code_for(exc: BaseException) -> ExitCode:
    """The exit code for an error a command raised (:attr:`ExitCode.INPUT` when none matches)."""
    return next((code for cls, code in EXIT_CODES if isinstance(exc, cls)), ExitCode.INPUT)
