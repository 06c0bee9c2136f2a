"""Shared tables of the Bedrock Converse codec: stop reasons, usage, block kinds, media, errors.

Facts from the Bedrock Runtime service model (``tests/data/specs/bedrock-runtime-service-2.json``)
and real recordings. Both the whole-body codec (``request``/``response``) and the ConverseStream
codec read these tables, so a value is mapped the same way in a body and in a stream.

Usage: Bedrock's ``inputTokens`` counts only the uncached input (like Anthropic's); cache reads
(``cacheReadInputTokens``) and writes (``cacheWriteInputTokens``) come on top, and
``totalTokens`` counts all of them plus the output. The IR follows the OpenAI convention (input
includes cached tokens):

* decode: ``IR.input_tokens = inputTokens + cacheRead + cacheWrite``, ``cached_tokens = cacheRead``,
  ``cache_creation_tokens = cacheWrite``, ``total_tokens = totalTokens``;
* encode: ``inputTokens = IR.input_tokens - cached - cache_creation`` (exact both ways).

Other usage fields (``cacheDetails``, ``serverToolUsage``, the legacy ``...TokenCount`` twins
some endpoints add) stay in ``Usage.extra`` and come back only to Bedrock.
"""

from __future__ import annotations

import re
from typing import Any

from toolwire.formats._wire import as_dict, emit_extra, opt_int
from toolwire.ir.base import Extra, Format
from toolwire.ir.notes import Notes
from toolwire.ir.response import StopReason, Usage

__all__ = [
    "BLOCK_KINDS",
    "FORMAT",
    "DOCUMENT_FORMATS",
    "ERROR_STATUS",
    "IMAGE_FORMATS",
    "ROLES",
    "STOP_REASONS",
    "TOOL_NAME",
    "TOOL_RESULT_KINDS",
    "TOOL_USE_ID",
    "TOOL_USE_ID_CHARS",
    "TOOL_USE_ID_LENGTH",
    "WIRE_STOP",
    "decode_stop",
    "decode_usage",
    "document_format",
    "encode_stop",
    "encode_usage",
    "error_type_for_status",
    "image_format",
    "media_type",
    "usage_of_counts",
]

FORMAT: Format = "bedrock-converse"
"""The format name (what IR ``origin`` fields hold for Bedrock)."""

STOP_REASONS: dict[str, StopReason] = {
    "end_turn": "end_turn",
    "tool_use": "tool_calls",
    "max_tokens": "max_tokens",
    "stop_sequence": "stop_sequence",
    "guardrail_intervened": "content_filter",
    "content_filtered": "content_filter",
    "malformed_model_output": "error",
    "malformed_tool_use": "error",
    "model_context_window_exceeded": "max_tokens",
}
"""Bedrock ``stopReason`` -> IR stop reason (the raw value is kept in ``raw_stop_reason``)."""

WIRE_STOP: dict[StopReason, str] = {
    "end_turn": "end_turn",
    "tool_calls": "tool_use",
    "max_tokens": "max_tokens",
    "stop_sequence": "stop_sequence",
    "content_filter": "content_filtered",
    "refusal": "content_filtered",
    "pause": "end_turn",
    "error": "malformed_model_output",
    "other": "end_turn",
}
"""IR stop reason -> Bedrock ``stopReason`` (for responses of other formats)."""

_EXACT_STOPS = frozenset({"end_turn", "tool_calls", "max_tokens", "stop_sequence", "content_filter"})

ROLES = frozenset({"user", "assistant"})
"""Message roles Bedrock accepts in ``messages`` (the model also lists ``system``, which the API refuses)."""

BLOCK_KINDS: tuple[str, ...] = (
    "text",
    "image",
    "document",
    "video",
    "audio",
    "toolUse",
    "toolResult",
    "guardContent",
    "cachePoint",
    "reasoningContent",
    "citationsContent",
    "searchResult",
    "toolAddition",
    "toolRemoval",
)
"""Members of the ``ContentBlock`` union (exactly one is set per block)."""

TOOL_RESULT_KINDS: tuple[str, ...] = ("json", "text", "image", "document", "video", "searchResult")
"""Members of the ``ToolResultContentBlock`` union."""

SYSTEM_KINDS: tuple[str, ...] = ("text", "guardContent", "cachePoint")
"""Members of the ``SystemContentBlock`` union."""

TOOL_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
"""``ToolName``: pattern ``[a-zA-Z0-9_-]+``, 1 to 64 characters."""

_TOOL_USE_ID_SET = r"[a-zA-Z0-9_.:-]"
TOOL_USE_ID_LENGTH = 64
"""The longest ``ToolUseId``."""
TOOL_USE_ID = re.compile(rf"{_TOOL_USE_ID_SET}{{1,{TOOL_USE_ID_LENGTH}}}")
"""``ToolUseId``: pattern ``[a-zA-Z0-9_.:-]+``, 1 to 64 characters."""
TOOL_USE_ID_CHARS = re.compile(_TOOL_USE_ID_SET + "+")
"""``ToolUseId``'s characters, any length (a check of many ids joined, their lengths apart)."""

IMAGE_FORMATS: dict[str, str] = {
    "png": "image/png",
    "jpeg": "image/jpeg",
    "gif": "image/gif",
    "webp": "image/webp",
}
"""``ImageFormat`` -> MIME type."""

DOCUMENT_FORMATS: dict[str, str] = {
    "pdf": "application/pdf",
    "csv": "text/csv",
    "doc": "application/msword",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xls": "application/vnd.ms-excel",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "html": "text/html",
    "txt": "text/plain",
    "md": "text/markdown",
}
"""``DocumentFormat`` -> MIME type."""

_IMAGE_BY_MIME = {mime: fmt for fmt, mime in IMAGE_FORMATS.items()} | {"image/jpg": "jpeg"}
_DOCUMENT_BY_MIME = {mime: fmt for fmt, mime in DOCUMENT_FORMATS.items()}

ERROR_STATUS: dict[str, int] = {
    "AccessDeniedException": 403,
    "ConflictException": 400,
    "InternalServerException": 500,
    "ModelErrorException": 424,
    "ModelNotReadyException": 429,
    "ModelStreamErrorException": 424,
    "ModelTimeoutException": 408,
    "ResourceNotFoundException": 404,
    "ServiceQuotaExceededException": 400,
    "ServiceUnavailableException": 503,
    "ThrottlingException": 429,
    "ValidationException": 400,
    "UnrecognizedClientException": 403,
}
"""Bedrock error type (``x-amzn-ErrorType`` / ``__type``) -> HTTP status."""

_TYPE_FOR_STATUS: dict[int, str] = {
    400: "ValidationException",
    401: "AccessDeniedException",
    403: "AccessDeniedException",
    404: "ResourceNotFoundException",
    408: "ModelTimeoutException",
    413: "ValidationException",
    424: "ModelErrorException",
    429: "ThrottlingException",
    500: "InternalServerException",
    503: "ServiceUnavailableException",
    529: "ServiceUnavailableException",
}


def error_type_for_status(status: int | None) -> str:
    """The Bedrock error type that answers an HTTP ``status`` (5xx: internal, other 4xx: validation)."""
    if status is None:
        return "InternalServerException"
    found = _TYPE_FOR_STATUS.get(status)
    if found is not None:
        return found
    return "InternalServerException" if status >= 500 else "ValidationException"


def decode_stop(raw: str | None) -> StopReason | None:
    """The IR stop reason of a Bedrock ``stopReason`` (unknown values: ``other``)."""
    return None if raw is None else STOP_REASONS.get(raw, "other")


def encode_stop(stop: StopReason | None, raw: str | None, same: bool, notes: Notes, path: str) -> str:
    """The Bedrock ``stopReason`` (required) of an IR stop reason; ``raw`` wins for Bedrock itself."""
    if same and raw is not None:
        return raw
    if stop is None:
        notes.info(path, "synthesized", "no stop reason given; sent end_turn")
        return "end_turn"
    if stop not in _EXACT_STOPS:
        notes.info(path, "approximated", f"stop reason {stop!r} sent as {WIRE_STOP[stop]!r}")
    return WIRE_STOP[stop]


def image_format(media_type: str | None) -> str | None:
    """The ``ImageFormat`` of a MIME type, or ``None`` when Bedrock has none for it."""
    return None if media_type is None else _IMAGE_BY_MIME.get(media_type.lower())


def document_format(media_type: str | None) -> str | None:
    """The ``DocumentFormat`` of a MIME type, or ``None`` when Bedrock has none for it."""
    return None if media_type is None else _DOCUMENT_BY_MIME.get(media_type.lower())


def media_type(fmt: Any, table: dict[str, str]) -> str | None:
    """The MIME type of a Bedrock ``format`` value (``None`` for an unknown one)."""
    return table.get(fmt) if type(fmt) is str else None


# ---------------------------------------------------------------- usage

_INPUT, _OUTPUT, _TOTAL = "inputTokens", "outputTokens", "totalTokens"
_READ, _WRITE = "cacheReadInputTokens", "cacheWriteInputTokens"
_KNOWN_USAGE = frozenset({_INPUT, _OUTPUT, _TOTAL, _READ, _WRITE})


def _counts(raw: dict[str, Any]) -> Usage | None:
    """The usage of ``raw``, of known keys only, when its three counts are integers and its
    cache counts integers or null; else ``None`` (the general code decides)."""
    uncached, output, total = raw.get(_INPUT), raw.get(_OUTPUT), raw.get(_TOTAL)
    read, write = raw.get(_READ), raw.get(_WRITE)
    if type(uncached) is not int or type(output) is not int or type(total) is not int:
        return None
    if (read is not None and type(read) is not int) or (write is not None and type(write) is not int):
        return None
    return usage_of_counts(uncached, output, total, read, write)


def usage_of_counts(uncached: int, output: int, total: int, read: int | None, write: int | None) -> Usage:
    """The usage of a ``TokenUsage`` of these counts only (the cache counts ``None`` when left
    out): the input the uncached count and the cached ones (see the module docstring)."""
    return Usage(uncached + (read or 0) + (write or 0), output, total, read, write)


def decode_usage(raw: Any, path: str = "$.usage") -> Usage:
    """Decode a ``TokenUsage`` object (see the module docstring for the arithmetic)."""
    if type(raw) is dict and raw.keys() <= _KNOWN_USAGE:  # counts only (the common shape): the IR
        fast = _counts(raw)  # the code below makes of them, without its checks
        if fast is not None:
            return fast
    usage = as_dict(raw, path)
    extra: Extra = {k: v for k, v in usage.items() if k not in _KNOWN_USAGE}
    uncached = opt_int(usage, _INPUT, path)
    read = opt_int(usage, _READ, path)
    write = opt_int(usage, _WRITE, path)
    present = [k for k in (_INPUT, _OUTPUT, _TOTAL) if k not in usage]
    if present:
        extra["~absent"] = present
    return Usage(
        input_tokens=None if uncached is None else uncached + (read or 0) + (write or 0),
        output_tokens=opt_int(usage, _OUTPUT, path),
        total_tokens=opt_int(usage, _TOTAL, path),
        cached_tokens=read,
        cache_creation_tokens=write,
        extra=extra,
    )


def encode_usage(usage: Usage | None, same: bool, notes: Notes, path: str = "$.usage") -> dict[str, Any]:
    """Encode a usage as ``TokenUsage`` (its three counts are required: missing ones are 0, noted)."""
    usage = usage if usage is not None else Usage()
    absent = usage.extra.get("~absent", ()) if same else ()
    inp = usage.input_tokens
    uncached = None if inp is None else inp - (usage.cached_tokens or 0) - (usage.cache_creation_tokens or 0)
    if uncached is not None and uncached < 0:
        notes.add(f"{path}.inputTokens", "approximated", "cached tokens exceed input tokens; sent 0")
        uncached = 0
    out: dict[str, Any] = {}
    for key, value in ((_INPUT, uncached), (_OUTPUT, usage.output_tokens)):
        if value is not None or key not in absent:
            out[key] = value if value is not None else 0
    total = usage.total_tokens
    if total is None and _TOTAL not in absent:
        total = (inp or 0) + (usage.output_tokens or 0)
    if total is not None:
        out[_TOTAL] = total
    if usage.cached_tokens is not None:
        out[_READ] = usage.cached_tokens
    if usage.cache_creation_tokens is not None:
        out[_WRITE] = usage.cache_creation_tokens
    if usage.reasoning_tokens is not None and not same:
        notes.info(path, "dropped", "reasoning token count has no Bedrock field (counted in outputTokens)")
    emit_extra(out, usage.extra, same, notes, path)
    return out
