"""Sampling values each target accepts, and the fit of a value from another format.

==================  ===============  ===============  =================  ================
field               Chat             Responses        Anthropic          Gemini            Bedrock
==================  ===============  ===============  =================  ================  =========
temperature         0 to 2           0 to 2           0 to 1             0 to 2            0 to 1
top_p               0 to 1           0 to 1           0 to 1             0 to 1            0 to 1
max output tokens   >= 1             >= 16            >= 1               >= 1              >= 1
==================  ===============  ===============  =================  ================  =========

A value outside the target's range is moved to the nearest bound, noted ``approximated`` (the
provider would answer 400 to the value as is). Same-format payloads are never touched.
"""

from __future__ import annotations

import msgspec

from toolwire.ir.notes import Notes
from toolwire.ir.request import Request

__all__ = ["RANGES", "fit", "fit_request"]

RANGES: dict[str, dict[str, tuple[float, float | None]]] = {
    "openai-chat": {"temperature": (0, 2), "top_p": (0, 1), "max_tokens": (1, None)},
    "openai-responses": {"temperature": (0, 2), "top_p": (0, 1), "max_tokens": (16, None)},
    "anthropic": {"temperature": (0, 1), "top_p": (0, 1), "max_tokens": (1, None)},
    "gemini": {"temperature": (0, 2), "top_p": (0, 1), "max_tokens": (1, None)},
    "bedrock-converse": {"temperature": (0, 1), "top_p": (0, 1), "max_tokens": (1, None)},
}
"""``(lowest, highest)`` accepted per target and IR field (``None``: no upper bound)."""


def fit(value: int | float, target: str, field: str, path: str, notes: Notes) -> int | float:
    """``value`` moved into ``target``'s range for ``field`` (unchanged when it is inside).

    Args:
        value: the IR value (an int stays an int: ``max_tokens``; the annotation says so, as
            mypyc converts an int passed as ``float`` to a float).
        target: the target format name (a key of :data:`RANGES`).
        field: the IR field name (``temperature``, ``top_p``, ``max_tokens``).
        path: the JSON path of the value, for the note.
        notes: collects the note when the value moves.
    """
    low, high = RANGES[target][field]
    fitted = max(low, value) if high is None else min(max(low, value), high)
    if fitted != value:
        fitted = type(value)(fitted)
        notes.add(path, "approximated", f"{field} {value} is outside {target}'s range; sent {fitted}")
    return fitted


def fit_request(req: Request, target: str, notes: Notes) -> Request:
    """``req`` with ``temperature``, ``top_p`` and ``max_tokens`` moved into ``target``'s ranges
    (the same object when all are inside); each move is noted by :func:`fit`."""
    changes: dict[str, int | float] = {}
    for field in RANGES[target]:
        value = getattr(req, field)
        if value is not None and not isinstance(value, bool):
            fitted = fit(value, target, field, f"$.{field}", notes)
            if fitted != value:
                changes[field] = fitted
    return msgspec.structs.replace(req, **changes) if changes else req
