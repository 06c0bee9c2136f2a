"""Responses ``response`` objects <-> IR :class:`~toolwire.ir.Response`.

``output`` items become the IR parts in order (see :mod:`._decode_items`; a non-assistant
message item in the output is kept verbatim as a built-in item). The stop reason is derived
from ``status`` and ``incomplete_details`` (table in :mod:`._stop`). Request parameters the
response echoes (``instructions``, ``tools``, ``temperature``...) are kept for this format
only (hint ``~responses``); other fields the IR does not name are ordinary ``extra``.

From another format the encoder builds a complete Response: ``object``, ``status`` and
``incomplete_details`` from the stop reason, item ids derived deterministically from the
response id, and the echo fields the schema requires filled with neutral values.
"""

from __future__ import annotations

from typing import Any

import msgspec

from toolwire.formats._wire import as_dict, as_list, opt_dict, opt_str
from toolwire.formats.openai_responses._content import _DECODERS as CONTENT_DECODERS
from toolwire.formats.openai_responses._decode_items import decode_item
from toolwire.formats.openai_responses._encode_items import Built, Ctx, encode_assistant
from toolwire.formats.openai_responses._extra import FORMAT, emit_fields, split_fields
from toolwire.formats.openai_responses._ids import derived_id
from toolwire.formats.openai_responses._messages import item_slots
from toolwire.formats.openai_responses._stop import decode_stop, encode_status
from toolwire.formats.openai_responses._usage import decode_usage, encode_usage
from toolwire.ir.base import Extra
from toolwire.ir.content import Part
from toolwire.ir.notes import Notes
from toolwire.ir.response import ErrorInfo, Response

__all__ = ["decode_response", "echo_defaults", "encode_response", "record_response"]

_KNOWN = frozenset(
    {"id", "object", "created_at", "status", "error", "incomplete_details", "model", "output", "usage"}
)
ECHO_FIELDS = frozenset(
    {
        "incomplete_details",
        "instructions",
        "tools",
        "tool_choice",
        "parallel_tool_calls",
        "temperature",
        "top_p",
        "max_output_tokens",
        "max_tool_calls",
        "previous_response_id",
        "reasoning",
        "text",
        "truncation",
        "store",
        "user",
        "metadata",
        "background",
        "prompt",
        "prompt_cache_key",
        "prompt_cache_retention",
        "safety_identifier",
        "top_logprobs",
        "frequency_penalty",
        "presence_penalty",
        "include",
        "context_management",
    }
)
"""Response fields that echo request parameters (or restate the stop reason): this format only."""

_ERROR_KNOWN = frozenset({"code", "message"})


def echo_defaults() -> dict[str, Any]:
    """The request echo fields a response of another format gets, at their neutral values (a new
    dict each time: a caller may change the payload it is given)."""
    return {
        "instructions": None,
        "tools": [],
        "tool_choice": "auto",
        "parallel_tool_calls": True,
        "metadata": {},
        "temperature": None,
        "top_p": None,
    }


# ---------------------------------------------------------------- decode


def _decode_output(value: Any, notes: Notes) -> tuple[Part, ...]:
    parts: list[Part] = []
    for index, item in enumerate(as_list(value, "$.output")):
        kind, got = decode_item(item, f"$.output[{index}]", output=True)
        start = len(parts)
        if kind == "assistant":
            parts.extend(got)  # type: ignore[arg-type]
        else:
            parts.append(got)  # type: ignore[arg-type]
        if notes.recording:
            for j, slot in enumerate(item_slots(item, ("output", index), len(parts) - start), start):
                notes.came_from(("parts", j), slot)
    return tuple(parts)


def _item_parts(item: Any) -> int:
    """How many IR parts an ``output`` item decodes into (``_decode_items``): an assistant message's
    content entries when each is of a known part type, else one (the item kept whole)."""
    if type(item) is not dict or item.get("role") != "assistant" or item.get("type") not in (None, "message"):
        return 1
    content = item.get("content")
    if type(content) is not list or not content:
        return 1
    for entry in content:
        kind = entry.get("type") if type(entry) is dict else None
        if type(kind) is not str or kind not in CONTENT_DECODERS:
            return 1
    return len(content)


def record_response(payload: dict[str, Any], ir: Response, notes: Notes) -> None:
    """Record where the parts of ``ir``, decoded from ``payload``, came from (only when a note
    needs it): each ``output`` item's parts by :func:`_item_parts`, or, should those not add up
    to the decoded parts, the items decoded again on the recording ``notes``."""
    output = payload.get("output") if type(payload) is dict else None
    if type(output) is not list:
        return
    counts = [_item_parts(item) for item in output]
    if sum(counts) != len(ir.parts):
        _decode_output(output, notes)
        return
    j = 0
    for index, (item, count) in enumerate(zip(output, counts, strict=True)):
        for slot in item_slots(item, ("output", index), count):
            notes.came_from(("parts", j), slot)
            j += 1


def decode_response_error(value: dict[str, Any], path: str = "$.error") -> ErrorInfo:
    """Decode the ``error`` object of a failed response (``{"code", "message"}``)."""
    return ErrorInfo(
        message=opt_str(value, "message", path) or "",
        code=opt_str(value, "code", path),
        origin=FORMAT,
        extra=split_fields(value, _ERROR_KNOWN),
    )


def decode_response(payload: Any, notes: Notes) -> Response:
    """Decode a Responses ``response`` object."""
    p = as_dict(payload, "$")
    extra: Extra = split_fields(p, _KNOWN, ECHO_FIELDS)
    if p.get("object") != "response":
        extra["~object"] = p.get("object", "absent")
    created = p.get("created_at")
    if created is not None and type(created) is not int:
        extra["~created_at"] = created
        created = None
    output = p.get("output")
    parts = _decode_output(output, notes) if output is not None else ()
    if "output" not in p:
        extra["~no_output"] = True
    status = opt_str(p, "status", "$")
    stop, raw = decode_stop(status, p.get("incomplete_details"), parts)
    error = opt_dict(p, "error", "$")
    usage = p.get("usage")
    return Response(
        parts=parts,
        id=opt_str(p, "id", "$"),
        model=opt_str(p, "model", "$"),
        stop_reason=stop,
        raw_stop_reason=raw,
        usage=decode_usage(usage) if usage is not None else None,
        created=created,
        status=status,
        error=decode_response_error(error) if error is not None else None,
        origin=FORMAT,
        extra=extra,
    )


# ---------------------------------------------------------------- encode


def _encode_error(err: ErrorInfo, same: bool, notes: Notes) -> dict[str, Any]:
    own = same and err.origin == FORMAT
    out: dict[str, Any] = {}
    if err.code is not None:
        out["code"] = err.code
    elif not own:
        out["code"] = "server_error"
        notes.add("$.error.code", "synthesized", "error without code reported as 'server_error'")
    out["message"] = err.message
    if err.extra:
        emit_fields(out, err.extra, own, notes, "$.error")
    return out


def _response_id(resp: Response, notes: Notes) -> str:
    if resp.id is not None:
        return resp.id
    seed = msgspec.json.encode(resp.parts).decode()
    new_id = derived_id("resp", f"{resp.model}\x00{resp.created}\x00{seed}")
    notes.add("$.id", "synthesized", f"response without id; using {new_id!r}")
    return new_id


def _same_top(resp: Response, out: dict[str, Any]) -> None:
    hints = resp.extra
    if resp.id is not None:
        out["id"] = resp.id
    obj = hints.get("~object", "response")
    if obj != "absent":
        out["object"] = obj
    if resp.created is not None:
        out["created_at"] = resp.created
    elif "~created_at" in hints:
        out["created_at"] = hints["~created_at"]
    if resp.status is not None:
        out["status"] = resp.status


def _cross_top(resp: Response, out: dict[str, Any], notes: Notes) -> None:
    out["id"] = _response_id(resp, notes)
    out["object"] = "response"
    if resp.created is not None:
        out["created_at"] = resp.created
    else:
        out["created_at"] = 0
        notes.info("$.created_at", "synthesized", "creation time unknown; 0")
    status, details = encode_status(resp.stop_reason, resp.raw_stop_reason, notes)
    out["status"] = status
    out["incomplete_details"] = details
    if status == "failed" and resp.error is None:
        out["error"] = {"code": "server_error", "message": ""}
        notes.add("$.error", "synthesized", "failed response without error details")
    else:
        out["error"] = None


def encode_response(resp: Response, notes: Notes, built: Built | None = None) -> dict[str, Any]:
    """Encode an IR response as a Responses ``response`` object.

    ``built``: its output items already encoded (a stream's, see :class:`Built`), reused when
    they are the ones this encoding gives.
    """
    same = resp.origin == FORMAT
    out: dict[str, Any] = {}
    if same:
        _same_top(resp, out)
    else:
        _cross_top(resp, out, notes)
    if resp.error is not None:
        out["error"] = _encode_error(resp.error, same, notes)
    if resp.model is not None:
        out["model"] = resp.model
    elif not same:
        out["model"] = ""
        notes.info("$", "synthesized", "response without model; ''", target="$.model")
    status = "incomplete" if out.get("status") == "incomplete" else "completed"
    ctx = Ctx(notes=notes, same=same, output=True, seed=str(out.get("id")), status=status)
    if resp.parts or not (same and resp.extra.get("~no_output")):
        items = built.output(resp.parts, ctx) if built is not None else None
        out["output"] = items if items is not None else encode_assistant(resp.parts, None, ctx, "$.parts")
    if ctx.synthesized_ids:
        notes.info("$.output", "synthesized", "output item ids derived from the response id")
    if resp.usage is not None:
        out["usage"] = encode_usage(resp.usage, notes, same=same)
    if not same:
        for key, value in echo_defaults().items():
            out.setdefault(key, value)
        notes.info("$", "synthesized", "request echo fields (tools, tool_choice...) set to neutral values")
    if resp.extra:
        emit_fields(out, resp.extra, same, notes, "$")
    return out
