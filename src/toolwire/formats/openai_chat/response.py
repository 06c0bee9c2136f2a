"""Chat Completions response bodies (``chat.completion``) <-> IR :class:`~toolwire.ir.Response`.

The IR response is ONE assistant turn: the first choice. Further choices (``n > 1``) are
kept whole in ``extra["more_choices"]`` (re-emitted to Chat, noted as dropped
elsewhere). Unknown fields of the first choice and of its message are lifted into
``Response.extra`` under their own names (the ``~lifted`` hint says where they go back);
empty ones and layout details stay in the ``~choice`` / ``~message`` hints.
"""

from __future__ import annotations

from typing import Any

import msgspec

from toolwire.formats._openai_usage import UsageNames, counts_only
from toolwire.formats._wire import as_dict, opt_dict, opt_int, opt_str, req_dict, req_list
from toolwire.formats.openai_chat._decode_messages import decode_assistant, tag_reasoning
from toolwire.formats.openai_chat._encode_messages import encode_assistant
from toolwire.formats.openai_chat._extra import emit_fields, split_fields
from toolwire.formats.openai_chat._ids import synthesized_completion_id
from toolwire.formats.openai_chat.dialects import Dialect, get_dialect
from toolwire.ir.base import Extra
from toolwire.ir.content import Message
from toolwire.ir.notes import Notes
from toolwire.ir.response import Response, StopReason, Usage

__all__ = [
    "FINISH_REASONS",
    "decode_response",
    "decode_usage",
    "encode_finish_reason",
    "encode_response",
    "encode_usage",
    "finish_of",
    "foreign_usage",
]

FINISH_REASONS: dict[str, StopReason] = {
    "stop": "end_turn",
    "length": "max_tokens",
    "tool_calls": "tool_calls",
    "function_call": "tool_calls",
    "content_filter": "content_filter",
}
"""Chat ``finish_reason`` -> IR stop reason (the raw value is kept in ``raw_stop_reason``)."""

_TO_FINISH: dict[str, tuple[str, bool]] = {  # stop reason -> (finish_reason, exact)
    "end_turn": ("stop", True),
    "max_tokens": ("length", True),
    "tool_calls": ("tool_calls", True),
    "stop_sequence": ("stop", True),
    "content_filter": ("content_filter", True),
    "refusal": ("content_filter", False),
    "pause": ("stop", False),
    "error": ("stop", False),
    "other": ("stop", False),
}
_OBJECT = "chat.completion"
_TOP_KNOWN = frozenset({"id", "object", "created", "model", "choices", "usage"})
_CHOICE_KNOWN = frozenset({"index", "message", "finish_reason"})
_USAGE_KNOWN = frozenset(
    {
        "prompt_tokens",
        "completion_tokens",
        "total_tokens",
        "prompt_tokens_details",
        "completion_tokens_details",
    }
)
_PROMPT_DETAILS = frozenset({"cached_tokens", "cache_write_tokens"})
_COMPLETION_DETAILS = frozenset({"reasoning_tokens"})


# ---------------------------------------------------------------- usage


_NAMES = UsageNames(
    "prompt_tokens", "completion_tokens", "prompt_tokens_details", "completion_tokens_details"
)


def decode_usage(value: Any, path: str = "$.usage") -> Usage:
    """Decode a Chat ``usage`` object (cached, cache-write and reasoning token details included)."""
    if type(value) is dict:
        fast = counts_only(value, _NAMES)
        if fast is not None:
            return fast
    usage = as_dict(value, path)
    extra = split_fields(usage, _USAGE_KNOWN)
    prompt = opt_dict(usage, "prompt_tokens_details", path)
    completion = opt_dict(usage, "completion_tokens_details", path)
    cached = cache_write = reasoning = None
    if prompt is not None:
        cached = opt_int(prompt, "cached_tokens", f"{path}.prompt_tokens_details")
        cache_write = opt_int(prompt, "cache_write_tokens", f"{path}.prompt_tokens_details")
        extra["~prompt_tokens_details"] = split_fields(prompt, _PROMPT_DETAILS)
    if completion is not None:
        reasoning = opt_int(completion, "reasoning_tokens", f"{path}.completion_tokens_details")
        extra["~completion_tokens_details"] = split_fields(completion, _COMPLETION_DETAILS)
    return Usage(
        input_tokens=opt_int(usage, "prompt_tokens", path),
        output_tokens=opt_int(usage, "completion_tokens", path),
        total_tokens=opt_int(usage, "total_tokens", path),
        cached_tokens=cached,
        cache_creation_tokens=cache_write,
        reasoning_tokens=reasoning,
        extra=extra,
    )


def _details(
    pairs: tuple[tuple[str, int | None], ...], hint: Any, notes: Notes, path: str
) -> dict[str, Any] | None:
    out = {key: value for key, value in pairs if value is not None}
    if hint is not None:
        emit_fields(out, hint, True, notes, path)
    elif not out:
        return None
    return out


def encode_usage(usage: Usage, notes: Notes, *, same: bool, path: str = "$.usage") -> dict[str, Any]:
    """Encode IR usage as a Chat ``usage`` object (token counts the source lacked synthesized)."""
    out: dict[str, Any] = {}
    counts = (("prompt_tokens", usage.input_tokens), ("completion_tokens", usage.output_tokens))
    for key, value in counts:
        if value is not None:
            out[key] = value
        elif not same:
            notes.add(f"{path}.{key}", "synthesized", f"{key} unknown; reported as 0")
            out[key] = 0
    if usage.total_tokens is not None:
        out["total_tokens"] = usage.total_tokens
    elif not same:
        out["total_tokens"] = out["prompt_tokens"] + out["completion_tokens"]
    hints = usage.extra if same else {}
    prompt = _details(
        (("cached_tokens", usage.cached_tokens), ("cache_write_tokens", usage.cache_creation_tokens)),
        hints.get("~prompt_tokens_details"),
        notes,
        path,
    )
    if prompt is not None:
        out["prompt_tokens_details"] = prompt
    completion = _details(
        (("reasoning_tokens", usage.reasoning_tokens),), hints.get("~completion_tokens_details"), notes, path
    )
    if completion is not None:
        out["completion_tokens_details"] = completion
    if usage.extra:
        emit_fields(out, usage.extra, same, notes, path)
    return out


# ---------------------------------------------------------------- decode


def _lift(extra: Extra, sub: Extra, level: str, lifted: dict[str, str]) -> None:
    """Move the fields of a choice or message extra into the response extra."""
    hidden: Extra = {}
    for key, value in sub.items():
        if key[:1] == "~" or key in extra or key in _TOP_KNOWN:
            hidden[key] = value
        else:
            extra[key] = value
            lifted[key] = level
    if hidden:
        extra[f"~{level}"] = hidden


def _decode_choice(choice: dict[str, Any], notes: Notes, extra: Extra) -> tuple[Message, str | None]:
    path = "$.choices[0]"
    message = decode_assistant(req_dict(choice, "message", path), notes, f"{path}.message")
    choice_extra = split_fields(choice, _CHOICE_KNOWN)
    if choice.get("index") != 0:
        choice_extra["~index"] = choice.get("index", "absent")
    if "finish_reason" not in choice:
        choice_extra["~finish_reason"] = "absent"
    lifted: dict[str, str] = {}
    _lift(extra, choice_extra, "choice", lifted)
    message_extra = message.extra
    if message.name is not None:  # not a response field; kept as an unknown one
        message_extra = {**message_extra, "name": message.name}
    _lift(extra, message_extra, "message", lifted)
    if lifted:
        extra["~lifted"] = lifted
    return message, opt_str(choice, "finish_reason", path)


def decode_response(payload: Any, notes: Notes, *, dialect: str | Dialect | None = None) -> Response:
    """Decode a ``chat.completion`` body: the first choice becomes the IR assistant turn.

    ``dialect``: the provider that answered; its reasoning parts remember it, so that they go
    back only to that provider (see :mod:`~toolwire.formats.openai_chat.dialects`).
    """
    p = as_dict(payload, "$")
    choices = req_list(p, "choices", "$")
    extra = split_fields(p, _TOP_KNOWN)
    if p.get("object") != _OBJECT:
        extra["~object"] = p.get("object", "absent")
    parts: tuple[Any, ...] = ()
    finish = None
    if choices:
        message, finish = _decode_choice(as_dict(choices[0], "$.choices[0]"), notes, extra)
        if dialect is not None:
            (message,) = tag_reasoning((message,), get_dialect(dialect).name)
        parts = message.parts
        if len(choices) > 1:
            extra["more_choices"] = choices[1:]
    else:
        extra["~choices"] = "empty"
    usage = p.get("usage")
    return Response(
        parts=parts,
        id=opt_str(p, "id", "$"),
        model=opt_str(p, "model", "$"),
        stop_reason=None if finish is None else FINISH_REASONS.get(finish, "other"),
        raw_stop_reason=finish,
        usage=decode_usage(usage) if usage is not None else None,
        created=opt_int(p, "created", "$"),
        origin="openai-chat",
        extra=extra,
    )


# ---------------------------------------------------------------- encode


def _finish_reason(resp: Response, has_calls: bool, same: bool, notes: Notes) -> str | None:
    if same:
        return resp.raw_stop_reason
    return encode_finish_reason(resp.stop_reason, resp.raw_stop_reason, has_calls, notes)


def finish_of(stop: StopReason, has_calls: bool) -> str:
    """What :func:`encode_finish_reason` returns for ``stop``, without its notes (the response
    lanes' Chat writer)."""
    reason = _TO_FINISH[stop][0]
    return "tool_calls" if has_calls and reason == "stop" else reason


def foreign_usage(usage: Usage) -> dict[str, Any]:
    """What :func:`encode_usage` writes for ``usage`` of another format (``same=False``), without
    its notes (the response lanes' Chat writer): both counts (``0`` when unknown), the total
    (their sum when unknown), the details given."""
    prompt, completion, total = usage.input_tokens, usage.output_tokens, usage.total_tokens
    if prompt is None:
        prompt = 0
    if completion is None:
        completion = 0
    out: dict[str, Any] = {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion if total is None else total,
    }
    cached, write = usage.cached_tokens, usage.cache_creation_tokens
    if cached is not None:
        details = {"cached_tokens": cached}
        if write is not None:
            details["cache_write_tokens"] = write
        out["prompt_tokens_details"] = details
    elif write is not None:
        out["prompt_tokens_details"] = {"cache_write_tokens": write}
    if usage.reasoning_tokens is not None:
        out["completion_tokens_details"] = {"reasoning_tokens": usage.reasoning_tokens}
    return out


def encode_finish_reason(stop: StopReason | None, raw: str | None, has_calls: bool, notes: Notes) -> str:
    """The ``finish_reason`` of a response of another format (``has_calls``: its turn calls
    tools, so a plain stop is reported as ``tool_calls``)."""
    path = "$.choices[0].finish_reason"
    if stop is None:
        reason = "tool_calls" if has_calls else "stop"
        notes.add(path, "synthesized", f"no stop reason; reported as {reason!r}")
        return reason
    reason, exact = _TO_FINISH[stop]
    if not exact:
        notes.add(path, "approximated", f"stop reason {raw or stop!r} sent as {reason!r}")
    return "tool_calls" if has_calls and reason == "stop" else reason


def _split_lifted(extra: Extra) -> tuple[Extra, Extra, Extra]:
    """Top-level, choice-level and message-level parts of a same-format response extra."""
    lifted: dict[str, str] = extra.get("~lifted") or {}
    top: Extra = {}
    levels: dict[str, Extra] = {
        "choice": dict(extra.get("~choice") or {}),
        "message": dict(extra.get("~message") or {}),
    }
    for key, value in extra.items():
        level = lifted.get(key)
        if level is None:
            top[key] = value
        else:
            levels[level][key] = value
    return top, levels["choice"], levels["message"]


def _note_unsupported(resp: Response, notes: Notes) -> None:
    if resp.error is not None:
        notes.add(
            "$.error", "dropped", f"response error {resp.error.message!r}: a chat.completion has no error"
        )
    if resp.status not in (None, "completed"):
        notes.add("$.status", "dropped", f"response status {resp.status!r}")


def encode_response(resp: Response, notes: Notes) -> dict[str, Any]:
    """Encode an IR response as a ``chat.completion`` body with one choice (plus kept extra choices)."""
    same = resp.origin == "openai-chat"
    top, choice_extra, message_extra = _split_lifted(resp.extra) if same else (resp.extra, {}, {})
    more = top.pop("more_choices", None) if same else None
    message, calls = encode_assistant(
        Message(role="assistant", parts=resp.parts, extra=message_extra), notes, same=same
    )
    out: dict[str, Any] = {}
    if resp.id is not None:
        out["id"] = resp.id
    elif not same:  # required by the schema
        out["id"] = synthesized_completion_id(f"{resp.model}\x00{msgspec.json.encode(resp.parts).decode()}")
        notes.info("$.id", "synthesized", f"response without id; using {out['id']!r}")
    obj = top.get("~object", _OBJECT) if same else _OBJECT
    if obj != "absent":
        out["object"] = obj
    if resp.created is not None:
        out["created"] = resp.created
    elif not same:  # required by the schema
        out["created"] = 0
        notes.info("$.created", "synthesized", "creation time unknown; 0")
    if resp.model is not None:
        out["model"] = resp.model
    elif not same:  # required by the schema
        out["model"] = "unknown"
        notes.info("$", "synthesized", "the response names no model; 'unknown'", target="$.model")
    choice: dict[str, Any] = {"index": choice_extra.get("~index", 0), "message": message}
    if choice["index"] == "absent":
        del choice["index"]
    if not (same and choice_extra.get("~finish_reason") == "absent"):
        choice["finish_reason"] = _finish_reason(resp, bool(calls), same, notes)
    if same:
        emit_fields(choice, choice_extra, True, notes, "$.choices[0]")
    else:
        choice["logprobs"] = None
        _note_unsupported(resp, notes)
    if same and top.get("~choices") == "empty" and not resp.parts:
        out["choices"] = []
    else:
        out["choices"] = [choice, *more] if more else [choice]
    if resp.usage is not None:
        out["usage"] = encode_usage(resp.usage, notes, same=same)
    if top:
        emit_fields(out, top, same, notes, "$")
    return out
