"""Id-less tool results for targets that pair results with calls by id (Anthropic, Bedrock).

A source that pairs by name and position (Gemini) may send results and calls without ids. The
encoder gives each id-less call an id and keeps ``(name, id)`` in a pending list; an id-less
result then answers the first pending call of its name or, failing that, the first pending call
(Gemini's own rule is position). A result with no call left to answer cannot be made valid: the
encoders' history check (:mod:`toolwire.formats._history`) refuses it first; the pairing refuses
it too rather than ever sending an id no call carries.
"""

from __future__ import annotations

from toolwire.errors import ConversionError
from toolwire.ir.notes import Notes

__all__ = ["pair_idless_result"]


def pair_idless_result(pending: list[tuple[str, str]], name: str | None, notes: Notes, path: str) -> str:
    """The call id an id-less result named ``name`` answers; removes it from ``pending``."""
    for index, (call_name, call_id) in enumerate(pending):
        if name is None or name == call_name:
            del pending[index]
            notes.add(path, "synthesized", f"tool result without call id paired with {call_id!r}")
            return call_id
    if pending:
        call_name, call_id = pending.pop(0)
        notes.add(
            path,
            "approximated",
            f"tool result {name!r} without call id paired by position with {call_id!r}"
            f" (a call of {call_name!r})",
        )
        return call_id
    raise ConversionError(
        "tool result without call id answers no tool call before it; the target pairs results by id",
        path=path,
    )
