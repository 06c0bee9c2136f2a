"""Gemini ``GenerateContentResponse`` bodies <-> IR :class:`~toolwire.ir.Response`.

The IR response is ``candidates[0]``: its content parts, its ``finishReason`` (normalized,
raw kept), plus ``usageMetadata``, ``modelVersion`` (``model``), ``responseId`` (``id``) and
Vertex's ``createTime`` (``created``). Other candidate fields (safety ratings, citation,
grounding and URL-context metadata, logprobs, ``finishMessage``, ``index``) and further
candidates are kept as hints; other top-level fields (``promptFeedback``...) in ``extra``.

Stop reasons:

=========================================================  =============================
``finishReason``                                           IR
=========================================================  =============================
``STOP``                                                   ``end_turn`` (``tool_calls``
                                                           when a function call is present)
``MAX_TOKENS``                                             ``max_tokens``
``SAFETY`` ``RECITATION`` ``BLOCKLIST`` ``PROHIBITED_CONTENT``  ``content_filter``
``SPII`` ``IMAGE_SAFETY`` ``IMAGE_PROHIBITED_CONTENT``
``IMAGE_RECITATION`` ``MODEL_ARMOR``
``MALFORMED_FUNCTION_CALL`` ``UNEXPECTED_TOOL_CALL``         ``error``
``TOO_MANY_TOOL_CALLS`` ``MISSING_THOUGHT_SIGNATURE``
anything else (``OTHER``, ``LANGUAGE``, unknown values)      ``other``
no candidates, ``promptFeedback.blockReason``                ``content_filter`` (raw = the
                                                           block reason)
=========================================================  =============================
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from toolwire.formats._wire import as_dict, as_list, opt_dict, opt_str
from toolwire.formats.gemini._decode_parts import decode_parts
from toolwire.formats.gemini._encode_parts import Ctx, encode_parts
from toolwire.formats.gemini._keys import emit, split
from toolwire.formats.gemini._usage import decode_usage, encode_usage
from toolwire.ir.content import Part, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.response import Response, StopReason

__all__ = ["FINISH_REASONS", "decode_response", "encode_response", "record_response"]

FINISH_REASONS: dict[str, StopReason] = {
    "STOP": "end_turn",
    "MAX_TOKENS": "max_tokens",
    "SAFETY": "content_filter",
    "RECITATION": "content_filter",
    "BLOCKLIST": "content_filter",
    "PROHIBITED_CONTENT": "content_filter",
    "SPII": "content_filter",
    "IMAGE_SAFETY": "content_filter",
    "IMAGE_PROHIBITED_CONTENT": "content_filter",
    "IMAGE_RECITATION": "content_filter",
    "MODEL_ARMOR": "content_filter",
    "MALFORMED_FUNCTION_CALL": "error",
    "UNEXPECTED_TOOL_CALL": "error",
    "TOO_MANY_TOOL_CALLS": "error",
    "MISSING_THOUGHT_SIGNATURE": "error",
}
"""``finishReason`` -> IR stop reason (values not listed map to ``other``)."""

_WIRE_REASONS: dict[str, str] = {
    "end_turn": "STOP",
    "tool_calls": "STOP",
    "stop_sequence": "STOP",
    "max_tokens": "MAX_TOKENS",
    "content_filter": "SAFETY",
    "refusal": "SAFETY",
    "error": "OTHER",
    "pause": "OTHER",
    "other": "OTHER",
}
_TOP_KNOWN = frozenset({"candidates", "usageMetadata", "modelVersion", "responseId", "createTime"})
_CANDIDATE_KNOWN = frozenset({"content", "finishReason"})
_CONTENT_KNOWN = frozenset({"role", "parts"})
_CANDIDATE = "$.candidates[0]"


def _stop_reason(raw: str | None, parts: tuple[Part, ...]) -> StopReason | None:
    if raw is None:
        return None
    reason = FINISH_REASONS.get(raw, "other")
    if reason == "end_turn" and any(type(p) is ToolCall and p.kind != "builtin" for p in parts):
        return "tool_calls"
    return reason


def _decode_content(raw: Any, path: str) -> tuple[tuple[Part, ...], dict[str, Any]]:
    content = as_dict(raw, path)
    extra = split(content, _CONTENT_KNOWN)
    role = opt_str(content, "role", path)
    if role != "model":
        extra["~role"] = role or ""
    parts: tuple[Part, ...] = ()
    if content.get("parts") is not None:
        parts = decode_parts(content["parts"], f"{path}.parts", extra)
    else:
        extra["~parts"] = False
    return parts, extra


def _decode_candidate(raw: Any) -> tuple[tuple[Part, ...], str | None, dict[str, Any]]:
    candidate = as_dict(raw, _CANDIDATE)
    extra = split(candidate, _CANDIDATE_KNOWN)
    parts: tuple[Part, ...] = ()
    content = candidate.get("content")
    if content is not None:
        parts, content_extra = _decode_content(content, f"{_CANDIDATE}.content")
        if content_extra:
            extra["~content"] = content_extra
    else:
        extra["~nocontent"] = True
    return parts, opt_str(candidate, "finishReason", _CANDIDATE), extra


def _created(raw: str | None) -> int | None:
    if raw is None:
        return None
    try:
        return int(datetime.fromisoformat(raw).timestamp())
    except ValueError:
        return None


def record_response(payload: dict[str, Any], ir: Response, notes: Notes) -> None:
    """Record where the parts of ``ir``, decoded from ``payload``, came from (called only when a
    note needs it)."""
    parts = ir.parts
    candidate = ir.extra.get("~candidate")
    content_extra = candidate.get("~content") if type(candidate) is dict else None
    at = ("candidates", 0, "content", "parts")
    extra = content_extra if type(content_extra) is dict else {}
    if extra.get("~single"):
        for j in range(len(parts)):
            notes.came_from(("parts", j), at)
        return
    opaque = extra.get("~opaque")
    notes.came_from_parts((), at, len(parts), {i for i, _ in opaque} if opaque else ())


def decode_response(payload: Any, notes: Notes) -> Response:
    """Decode a ``generateContent`` response (the first candidate becomes the IR response)."""
    body = as_dict(payload, "$")
    extra = split(body, _TOP_KNOWN)
    parts: tuple[Part, ...] = ()
    raw_stop: str | None = None
    candidates = body.get("candidates")
    if candidates:
        items = as_list(candidates, "$.candidates")
        parts, raw_stop, candidate_extra = _decode_candidate(items[0])
        if candidate_extra:
            extra["~candidate"] = candidate_extra
        if len(items) > 1:
            extra["~more"] = items[1:]
    else:
        if candidates is not None:
            as_list(candidates, "$.candidates")
            extra["~candidates"] = "empty"
        else:
            extra["~candidates"] = "absent"
        feedback = opt_dict(body, "promptFeedback", "$")
        if feedback is not None:
            raw_stop = opt_str(feedback, "blockReason", "$.promptFeedback")
    stop = _stop_reason(raw_stop, parts)
    if raw_stop is not None and not candidates:
        stop = "content_filter"
    usage = body.get("usageMetadata")
    created = opt_str(body, "createTime", "$")
    if created is not None:
        extra["~createTime"] = created
    return Response(
        parts=parts,
        id=opt_str(body, "responseId", "$"),
        model=opt_str(body, "modelVersion", "$"),
        stop_reason=stop,
        raw_stop_reason=raw_stop,
        usage=decode_usage(usage) if usage is not None else None,
        created=_created(created),
        origin="gemini",
        extra=extra,
    )


def _encode_candidate(resp: Response, ctx: Ctx) -> dict[str, Any]:
    hints: dict[str, Any] = resp.extra.get("~candidate", {}) if ctx.same else {}
    candidate: dict[str, Any] = {}
    if not hints.get("~nocontent"):
        content_hints: dict[str, Any] = hints.get("~content", {})
        parts = encode_parts(resp.parts, ctx, "$.parts", content_hints)  # IR paths: notes map them
        content: dict[str, Any] = {}
        role = content_hints.get("~role", "model")
        if role:
            content["role"] = role
        if parts or content_hints.get("~parts", True):
            content["parts"] = parts[0] if content_hints.get("~single") and len(parts) == 1 else parts
        candidate["content"] = emit(content, content_hints, True, ctx.notes, f"{_CANDIDATE}.content")
    finish: str | None
    if ctx.same and resp.raw_stop_reason is not None:
        finish = resp.raw_stop_reason
    else:
        finish = _WIRE_REASONS.get(resp.stop_reason or "")
    if finish is not None:
        candidate["finishReason"] = finish
    return emit(candidate, hints, True, ctx.notes, _CANDIDATE)


def _format_time(created: int) -> str:
    return datetime.fromtimestamp(created, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


_CREATED_AT = {"openai-chat": "$.created", "openai-responses": "$.created_at"}
"""Where a source format keeps the creation time a Gemini response has no field for."""


def _always_returned(out: dict[str, Any], resp: Response, notes: Notes) -> None:
    """What the Gemini API returns in every response (``usageMetadata``, ``modelVersion``), made up
    when another format's response lacks it; a creation time is left out, noted (``createTime``
    is Vertex-only, and the AI Studio response has no such field)."""
    if "usageMetadata" not in out:
        out["usageMetadata"] = {"promptTokenCount": 0, "totalTokenCount": 0}
        notes.info("$", "synthesized", "response had no usage; sent zeros", target="$.usageMetadata")
    if "modelVersion" not in out:
        out["modelVersion"] = "unknown"
        notes.info("$", "synthesized", "response names no model; 'unknown'", target="$.modelVersion")
    where = _CREATED_AT.get(resp.origin or "")
    if resp.created is not None and where is not None:  # else the time is a hop's, not the source's
        notes.info(where, "dropped", "creation time: a Gemini API response has no field for it")


def encode_response(resp: Response, notes: Notes) -> dict[str, Any]:
    """Encode an IR response as a ``generateContent`` response with one candidate."""
    same = resp.origin == "gemini"
    extra = resp.extra if same else {}
    out: dict[str, Any] = {}
    shape = extra.get("~candidates")
    if shape is None:
        out["candidates"] = [_encode_candidate(resp, Ctx(same, notes)), *extra.get("~more", ())]
    elif shape == "empty":
        out["candidates"] = []
    if resp.usage is not None:
        out["usageMetadata"] = encode_usage(resp.usage, same, notes)
    if resp.model is not None:
        out["modelVersion"] = resp.model
    if resp.id is not None:
        out["responseId"] = resp.id
    if "~createTime" in extra:
        out["createTime"] = extra["~createTime"]
    if not same:
        _always_returned(out, resp, notes)
    if not same and resp.error is not None:
        notes.add("$.error", "dropped", f"response error {resp.error.message!r}")
    return emit(out, resp.extra, same, notes, "$")
