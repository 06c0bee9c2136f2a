"""Stop reasons: Responses has none, so they are derived from ``status`` and ``incomplete_details``.

======================  =====================================  ====================
``status``              ``incomplete_details.reason``          IR stop reason
======================  =====================================  ====================
completed               --                                     ``tool_calls`` if the output
                                                               has a function/custom call,
                                                               else ``end_turn``
incomplete              ``max_output_tokens``                  ``max_tokens``
incomplete              ``content_filter``                     ``content_filter``
incomplete              other / none                           ``other``
failed                  --                                     ``error``
cancelled               --                                     ``other``
in_progress, queued     --                                     ``None`` (not finished)
======================  =====================================  ====================

``raw_stop_reason`` is the status, or ``incomplete:<reason>`` for incomplete responses with
a reason (e.g. ``incomplete:max_output_tokens``).
"""

from __future__ import annotations

from typing import Any

from toolwire.ir.content import Part, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.response import StopReason

__all__ = ["decode_stop", "encode_status", "status_of"]

_INCOMPLETE: dict[str, StopReason] = {"max_output_tokens": "max_tokens", "content_filter": "content_filter"}
_UNFINISHED = frozenset({"in_progress", "queued"})
_BY_STATUS: dict[str, StopReason] = {"failed": "error", "cancelled": "other"}
_TO_STATUS: dict[StopReason, tuple[str, str | None, bool]] = {  # -> status, incomplete reason, exact
    "end_turn": ("completed", None, True),
    "tool_calls": ("completed", None, True),
    "stop_sequence": ("completed", None, False),
    "refusal": ("completed", None, False),
    "pause": ("completed", None, False),
    "other": ("completed", None, False),
    "max_tokens": ("incomplete", "max_output_tokens", True),
    "content_filter": ("incomplete", "content_filter", True),
    "error": ("failed", None, True),
}


def _has_calls(parts: tuple[Part, ...]) -> bool:
    return any(type(p) is ToolCall and p.kind != "builtin" for p in parts)


def decode_stop(
    status: str | None, details: Any, parts: tuple[Part, ...]
) -> tuple[StopReason | None, str | None]:
    """``(stop_reason, raw_stop_reason)`` of a response."""
    if status is None or status in _UNFINISHED:
        return None, status
    if status == "completed":
        return ("tool_calls" if _has_calls(parts) else "end_turn"), status
    if status == "incomplete":
        reason = details.get("reason") if type(details) is dict else None
        if type(reason) is str:
            return _INCOMPLETE.get(reason, "other"), f"incomplete:{reason}"
        return "other", status
    return _BY_STATUS.get(status, "other"), status


def status_of(stop: StopReason) -> tuple[str, dict[str, Any] | None]:
    """What :func:`encode_status` returns for ``stop``, without its notes (the response lane's
    writer)."""
    status, reason, _ = _TO_STATUS[stop]
    return status, (None if reason is None else {"reason": reason})


def encode_status(
    stop: StopReason | None, raw: str | None, notes: Notes
) -> tuple[str, dict[str, Any] | None]:
    """``(status, incomplete_details)`` for a response of another format."""
    if stop is None:
        notes.info("$.status", "synthesized", "no stop reason; status 'completed'")
        return "completed", None
    status, reason, exact = _TO_STATUS[stop]
    if not exact:
        notes.add("$.status", "approximated", f"stop reason {raw or stop!r} sent as status {status!r}")
    return status, (None if reason is None else {"reason": reason})
