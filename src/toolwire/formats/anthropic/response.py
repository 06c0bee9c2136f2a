"""Anthropic Messages responses (``Message``) <-> IR :class:`~toolwire.ir.Response`.

Content blocks map as in requests (``_decode_blocks``); server-tool blocks are built-in
tool calls/results, unknown blocks stay opaque. Stop reasons:

==================================  ===================
``end_turn``                        ``end_turn``
``max_tokens``                      ``max_tokens``
``model_context_window_exceeded``   ``max_tokens``
``stop_sequence``                   ``stop_sequence``
``tool_use``                        ``tool_calls``
``pause_turn``, ``compaction``      ``pause``
``refusal``                         ``refusal``
anything else                       ``other``
==================================  ===================

The raw value is kept in ``raw_stop_reason`` and re-emitted for Anthropic. The matched
``stop_sequence``, ``stop_details``, ``container`` and ``context_management`` stay in
``extra``. Usage: see ``_usage``.
"""

from __future__ import annotations

from typing import Any

from toolwire.formats._wire import as_dict, emit_extra, opt_dict, opt_str, req_list
from toolwire.formats.anthropic._decode_blocks import decode_blocks
from toolwire.formats.anthropic._encode_blocks import Ctx, encode_part
from toolwire.formats.anthropic._usage import decode_usage, encode_usage
from toolwire.formats.anthropic._util import OPAQUE, with_opaque
from toolwire.ir.base import Extra
from toolwire.ir.content import AudioPart, FilePart, ImagePart, ToolCall, ToolResult
from toolwire.ir.notes import Notes
from toolwire.ir.response import Response, StopReason

__all__ = ["STOP_REASONS", "decode_response", "encode_response", "encode_stop_reason", "stop_of"]

STOP_REASONS: dict[str, StopReason] = {
    "end_turn": "end_turn",
    "max_tokens": "max_tokens",
    "model_context_window_exceeded": "max_tokens",
    "stop_sequence": "stop_sequence",
    "tool_use": "tool_calls",
    "pause_turn": "pause",
    "compaction": "pause",
    "refusal": "refusal",
}
"""Anthropic ``stop_reason`` -> normalized stop reason."""

_WIRE_STOP: dict[str, str] = {
    "end_turn": "end_turn",
    "max_tokens": "max_tokens",
    "stop_sequence": "stop_sequence",
    "tool_calls": "tool_use",
    "pause": "pause_turn",
    "refusal": "refusal",
    "content_filter": "refusal",
}
_NOT_IN_RESPONSES = (ImagePart, FilePart, AudioPart)
_ALWAYS = ("id", "type", "role", "model", "content", "stop_reason", "stop_sequence", "usage")
_KNOWN = frozenset(_ALWAYS)

# ---------------------------------------------------------------- decode


def decode_response(payload: Any, notes: Notes) -> Response:
    """Decode an Anthropic ``Message`` response body."""
    p = as_dict(payload, "$")
    extra: Extra = {k: v for k, v in p.items() if k not in _KNOWN}
    absent = [k for k in _ALWAYS if k not in p]
    if absent:
        extra["~absent"] = absent
    if p.get("stop_sequence") is not None:
        extra["stop_sequence"] = p["stop_sequence"]
    parts, opaque = decode_blocks(req_list(p, "content", "$"), "$.content")
    if opaque:
        extra[OPAQUE] = opaque
    raw_stop = opt_str(p, "stop_reason", "$")
    usage = opt_dict(p, "usage", "$")
    return Response(
        parts=parts,
        id=opt_str(p, "id", "$"),
        model=opt_str(p, "model", "$"),
        stop_reason=None if raw_stop is None else STOP_REASONS.get(raw_stop, "other"),
        raw_stop_reason=raw_stop,
        usage=None if usage is None else decode_usage(usage),
        origin="anthropic",
        extra=extra,
    )


# ---------------------------------------------------------------- encode


def _stop_reason(resp: Response, same: bool, notes: Notes) -> str | None:
    calls = any(type(p) is ToolCall and p.kind != "builtin" for p in resp.parts)
    return encode_stop_reason(resp.stop_reason, resp.raw_stop_reason, same=same, has_calls=calls, notes=notes)


def stop_of(reason: StopReason, has_calls: bool) -> str:
    """What :func:`encode_stop_reason` returns for ``reason`` of another format, without its
    notes (the response lanes' Anthropic writer)."""
    if reason == "end_turn" and has_calls:
        return "tool_use"
    return _WIRE_STOP.get(reason, "end_turn")


def encode_stop_reason(
    reason: StopReason | None, raw: str | None, *, same: bool, has_calls: bool, notes: Notes
) -> str | None:
    """The wire ``stop_reason``: the raw one for Anthropic, else mapped from the normalized one.

    ``end_turn`` with client tool calls in the turn becomes ``tool_use``.
    """
    if same and raw is not None:
        return raw
    if reason is None:
        return None
    if reason == "end_turn" and has_calls:
        return "tool_use"
    wire = _WIRE_STOP.get(reason)
    if wire is None:
        notes.add("$.stop_reason", "approximated", f"stop reason {reason!r} sent as 'end_turn'")
        return "end_turn"
    if reason == "content_filter":
        notes.add("$.stop_reason", "approximated", "content filter stop sent as 'refusal'")
    return wire


def _content(resp: Response, ctx: Ctx) -> list[dict[str, Any]]:
    out = []
    for index, part in enumerate(resp.parts):
        path = f"$.parts[{index}]"
        if type(part) in _NOT_IN_RESPONSES or (type(part) is ToolResult and part.kind != "builtin"):
            ctx.notes.add(path, "dropped", f"{type(part).__name__} cannot be part of an Anthropic response")
            continue
        block = encode_part(part, ctx, path)
        if block is not None:
            out.append(block)
    return with_opaque(out, resp.extra.get(OPAQUE)) if ctx.same else out


def encode_response(resp: Response, notes: Notes) -> dict[str, Any]:
    """Encode an IR response as an Anthropic ``Message`` body."""
    same = resp.origin == "anthropic"
    extra = resp.extra
    if not same and resp.id is None:
        notes.info("$", "synthesized", "response had no id; sent 'msg_unknown'", target="$.id")
    if not same and resp.model is None:
        notes.info("$", "synthesized", "response had no model name; sent ''", target="$.model")
    if not same and resp.usage is None:
        notes.info("$", "synthesized", "response had no usage; sent zeros", target="$.usage")
    out: dict[str, Any] = {
        "id": resp.id if resp.id is not None or same else "msg_unknown",
        "type": "message",
        "role": "assistant",
        "model": resp.model if resp.model is not None or same else "",
        "content": _content(resp, Ctx(notes, same)),
        "stop_reason": _stop_reason(resp, same, notes),
        "stop_sequence": extra.get("stop_sequence") if same else None,
        "usage": encode_usage(resp.usage, same, notes),
    }
    if resp.error is not None:
        notes.add(
            "$.error",
            "dropped",
            f"response error {resp.error.message!r} (an Anthropic message cannot carry one)",
        )
    if same:
        for key in extra.get("~absent", ()):
            out.pop(key, None)
    if extra:
        if OPAQUE in extra:
            extra = {k: v for k, v in extra.items() if k != OPAQUE}
        emit_extra(out, extra, same, notes, "$")
    return out
