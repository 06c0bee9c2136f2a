"""The library's logging: silent unless the application or ``TOOLWIRE_LOG`` asks for it.

``import toolwire`` adds a :class:`logging.NullHandler` to the ``"toolwire"`` logger, so an
application that configured no logging sees nothing (without it, :data:`logging.lastResort` would
print every WARNING to stderr). What toolwire logs, by logger:

================== ======= ==============================================================
logger             level   what
================== ======= ==============================================================
toolwire.convert   INFO    each lossy conversion under ``policy="warn"`` (a :class:`Note`)
toolwire.client    TRACE   request headers and bodies, secrets redacted
toolwire.client    DEBUG   status line, request id and attempt of each answer
toolwire.client    INFO    retries, options not sent to a model
toolwire.hooks     ERROR   an observer that raised (the run goes on)
================== ======= ==============================================================

A lossy conversion logs at INFO, not WARNING: the loss is returned as data (``notes`` on every
translation and result), the caller chose the policy, and a gateway that converts every request
would otherwise fill an application's WARNING log with lines no one can act on per request.

``TOOLWIRE_LOG`` (``trace``, ``debug``, ``info``, ``warning``, ``error``), read once at import,
attaches one stderr handler at that level to the ``"toolwire"`` logger, for debugging without
touching the application's logging set-up (records still propagate to the application's
handlers too). ``TOOLWIRE_LOG_FORMAT=json`` makes each line a JSON object (``time``, ``level``,
``logger``, ``message``). Keys never reach a record: the client redacts them before logging.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import warnings
from collections.abc import Mapping

__all__ = ["LEVELS", "TRACE", "JsonFormatter", "setup"]

TRACE = 5
"""Log level below DEBUG at which request bodies and headers are logged (secrets redacted)."""
logging.addLevelName(TRACE, "TRACE")

LEVELS: dict[str, int] = {
    "trace": TRACE,
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
}
"""``TOOLWIRE_LOG`` values and the level each selects."""

_TEXT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class JsonFormatter(logging.Formatter):
    """One JSON object per record: ``time``, ``level``, ``logger``, ``message`` (and ``exc_info``)."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": self.formatTime(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            line["exc_info"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def _formatter(name: str) -> logging.Formatter:
    return JsonFormatter() if name == "json" else logging.Formatter(_TEXT)


def setup(env: Mapping[str, str] = os.environ) -> logging.Handler | None:
    """Add the NullHandler; with ``TOOLWIRE_LOG`` set, also a stderr handler (returned).

    An unknown ``TOOLWIRE_LOG`` value adds no handler and issues a :class:`RuntimeWarning`
    (never an exception: this runs at import).
    """
    logger = logging.getLogger("toolwire")
    logger.addHandler(logging.NullHandler())
    wanted = env.get("TOOLWIRE_LOG", "").strip().lower()
    if not wanted:
        return None
    level = LEVELS.get(wanted)
    if level is None:
        warnings.warn(f"TOOLWIRE_LOG={wanted!r} ignored; use one of {sorted(LEVELS)}", RuntimeWarning, 2)
        return None
    handler = logging.StreamHandler(sys.stderr)
    handler.setLevel(level)
    handler.setFormatter(_formatter(env.get("TOOLWIRE_LOG_FORMAT", "text").strip().lower()))
    logger.addHandler(handler)
    if logger.level == logging.NOTSET or logger.level > level:
        logger.setLevel(level)
    return handler
