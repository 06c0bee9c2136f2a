"""Chat Completions request bodies (``CreateChatCompletionRequest``) <-> IR :class:`~toolwire.ir.Request`.

Named in the IR: ``model``, ``messages``, tools (``tools``/``functions``, ``tool_choice``/
``function_call``, ``parallel_tool_calls``), ``max_completion_tokens``/``max_tokens`` (which
one is remembered), ``temperature``, ``top_p``, ``top_k`` (non-standard, some compatible
servers), ``stop`` (string or array, remembered), ``response_format``,
``reasoning_effort``, ``stream``, ``user``, ``metadata``. Everything else (``n``, ``seed``,
``logprobs``, ``stream_options``, penalties...) is kept in ``Request.extra``.
"""

from __future__ import annotations

from typing import Any

from toolwire.formats import ToolConfig
from toolwire.formats._choice import fit_tool_choice
from toolwire.formats._history import refuse_unsendable_history
from toolwire.formats._ranges import fit_request
from toolwire.formats._wire import (
    as_dict,
    as_list,
    child,
    fail,
    opt_bool,
    opt_dict,
    opt_float,
    opt_int,
    opt_str,
    req_dict,
    req_list,
)
from toolwire.formats.openai_chat._decode_messages import decode_messages, tag_reasoning
from toolwire.formats.openai_chat._dialect_fit import fit_dialect
from toolwire.formats.openai_chat._encode_messages import encode_messages
from toolwire.formats.openai_chat._extra import DIALECT, emit_fields, split_fields
from toolwire.formats.openai_chat.dialects import DIALECTS, Dialect, get_dialect
from toolwire.formats.openai_chat.tools import TOOL_FIELDS, encode_config, split_tool_config
from toolwire.ir.notes import Notes
from toolwire.ir.request import ReasoningConfig, Request, ResponseFormat

__all__ = ["DIALECTS", "decode_request", "encode_request"]

_KNOWN = TOOL_FIELDS | {
    "messages",
    "model",
    "max_tokens",
    "max_completion_tokens",
    "temperature",
    "top_p",
    "top_k",
    "stop",
    "response_format",
    "reasoning_effort",
    "stream",
    "user",
    "metadata",
}
_SCHEMA_KNOWN = frozenset({"name", "schema", "strict", "description"})
_FORMAT_OUTER = frozenset({"type", "json_schema"})
_MAX_STOP = 4


# ---------------------------------------------------------------- decode


def _decode_stop(value: Any, extra: dict[str, Any]) -> tuple[str, ...] | None:
    if value is None:
        return None
    if type(value) is str:
        extra["~stop"] = "string"
        return (value,)
    items = as_list(value, "$.stop")
    for index, item in enumerate(items):
        if type(item) is not str:
            fail(f"$.stop[{index}]", "expected a string")
    return tuple(items)


def _decode_response_format(value: Any, extra: dict[str, Any]) -> ResponseFormat | None:
    if value is None:
        return None
    value = as_dict(value, "$.response_format")
    kind = value.get("type")
    if kind in ("text", "json_object"):
        return ResponseFormat(type=kind, extra=split_fields(value, frozenset({"type"})))
    if kind != "json_schema":
        extra["response_format"] = value  # a type the IR does not name: passed through
        return None
    path = "$.response_format.json_schema"
    spec = req_dict(value, "json_schema", "$.response_format")
    fmt_extra = split_fields(spec, _SCHEMA_KNOWN)
    if len(value) != 2:
        outer = split_fields(value, _FORMAT_OUTER)
        if outer:
            fmt_extra["~outer"] = outer
    return ResponseFormat(
        type="json_schema",
        name=opt_str(spec, "name", path),
        schema=opt_dict(spec, "schema", path),
        strict=opt_bool(spec, "strict", path),
        description=opt_str(spec, "description", path),
        extra=fmt_extra,
    )


def _decode_max_tokens(p: dict[str, Any], extra: dict[str, Any]) -> int | None:
    completion = opt_int(p, "max_completion_tokens", "$")
    legacy = opt_int(p, "max_tokens", "$")
    if completion is not None:
        if legacy is not None:
            extra["max_tokens"] = legacy
        return completion
    if legacy is not None:
        extra["~max_tokens"] = "max_tokens"
    return legacy


def _or(value: str | None, default: str | None) -> str | None:
    return default if value is None else value


def decode_request(
    payload: Any, notes: Notes, *, model: str | None = None, dialect: str | Dialect | None = None
) -> Request:
    """Decode a Chat Completions request body (``model`` is used when the body has none).

    ``dialect``: the provider the body was written for (see :data:`DIALECTS`); remembered on the
    request and on its reasoning parts, so that reasoning goes back only to that provider.
    Every dialect's forms decode without it.
    """
    p = as_dict(payload, "$")
    source = None if dialect is None else get_dialect(dialect)
    messages = decode_messages(req_list(p, "messages", "$"), notes)
    config, rest = split_tool_config(p, notes, source)
    extra = split_fields(p, _KNOWN)
    if source is not None:
        extra[DIALECT] = source.name
        messages = tag_reasoning(messages, source.name)
    if rest:
        extra.update(rest)
    effort = opt_str(p, "reasoning_effort", "$")
    return Request(
        messages=messages,
        model=_or(opt_str(p, "model", "$"), model),
        tools=config.tools,
        tool_choice=config.tool_choice,
        parallel_tool_calls=config.parallel_tool_calls,
        max_tokens=_decode_max_tokens(p, extra),
        temperature=opt_float(p, "temperature", "$"),
        top_p=opt_float(p, "top_p", "$"),
        top_k=opt_int(p, "top_k", "$"),
        stop=_decode_stop(p.get("stop"), extra),
        response_format=_decode_response_format(p.get("response_format"), extra),
        reasoning=ReasoningConfig(effort=effort) if effort is not None else None,
        stream=opt_bool(p, "stream", "$"),
        user=opt_str(p, "user", "$"),
        metadata=opt_dict(p, "metadata", "$"),
        origin="openai-chat",
        extra=extra,
    )


# ---------------------------------------------------------------- encode


def _encode_response_format(fmt: ResponseFormat, same: bool, notes: Notes) -> dict[str, Any]:
    path = "$.response_format"
    out: dict[str, Any] = {"type": fmt.type}
    if fmt.type != "json_schema":
        emit_fields(out, fmt.extra, same, notes, path)
        return out
    name = fmt.name
    if name is None:
        name = "response"
        notes.info(
            "$",
            "synthesized",
            "json_schema needs a name; using 'response'",
            target="$.response_format.json_schema.name",
        )
    spec: dict[str, Any] = {"name": name}
    if fmt.description is not None:
        spec["description"] = fmt.description
    if fmt.schema is not None:
        spec["schema"] = fmt.schema
    if fmt.strict is not None:
        spec["strict"] = fmt.strict
    out["json_schema"] = spec
    if fmt.extra:
        emit_fields(spec, fmt.extra, same, notes, child(path, "json_schema"))
        if same and "~outer" in fmt.extra:
            emit_fields(out, fmt.extra["~outer"], True, notes, path)
    return out


def _effort_for_budget(budget: int) -> str:
    """The effort whose Anthropic budget (low 2048, medium 8192, high 16384) covers ``budget``;
    ``0`` is none, a negative (Gemini dynamic) budget medium."""
    if budget == 0:
        return "none"
    if budget < 0:
        return "medium"
    return "low" if budget <= 2048 else "medium" if budget <= 8192 else "high"


def _encode_reasoning(reasoning: ReasoningConfig, same: bool, notes: Notes) -> str | None:
    path = "$.reasoning_effort"
    effort = reasoning.effort
    if effort is None and reasoning.budget_tokens is not None:
        effort = _effort_for_budget(reasoning.budget_tokens)
        notes.add(
            path, "approximated", f"thinking budget {reasoning.budget_tokens} sent as effort {effort!r}"
        )
    elif effort is None and reasoning.enabled is False:
        effort = "none"
        notes.add(path, "approximated", "reasoning disabled sent as effort 'none'")
    if reasoning.summary is not None:
        notes.add(path, "dropped", f"reasoning summary mode {reasoning.summary!r}")
    if reasoning.include_thoughts:
        notes.add(path, "dropped", "include thoughts: Chat returns no reasoning text")
    if reasoning.extra:
        emit_fields({}, reasoning.extra, False, notes, path)
    return effort


def _encode_stop(stop: tuple[str, ...], hint: Any, notes: Notes) -> Any:
    if hint == "string" and len(stop) == 1:
        return stop[0]
    if len(stop) > _MAX_STOP:
        notes.add(
            "$.stop", "dropped", f"Chat accepts {_MAX_STOP} stop sequences; {len(stop) - _MAX_STOP} dropped"
        )
        return list(stop[:_MAX_STOP])
    return list(stop)


def _max_tokens_field(req: Request, same: bool) -> str:
    if same and req.extra.get("~max_tokens") == "max_tokens":
        return "max_tokens"
    return "max_completion_tokens"


def _encode_sampling(req: Request, out: dict[str, Any], same: bool, notes: Notes) -> None:
    if req.max_tokens is not None:
        out[_max_tokens_field(req, same)] = req.max_tokens
    if req.temperature is not None:
        out["temperature"] = req.temperature
    if req.top_p is not None:
        out["top_p"] = req.top_p
    if req.top_k is not None:
        if same:
            out["top_k"] = req.top_k
        else:
            notes.add("$.top_k", "dropped", "Chat Completions has no top_k")
    if req.stop is not None:
        out["stop"] = _encode_stop(req.stop, req.extra.get("~stop") if same else None, notes)
    if req.response_format is not None:
        out["response_format"] = _encode_response_format(req.response_format, same, notes)
    if req.reasoning is not None:
        effort = _encode_reasoning(req.reasoning, same, notes)
        if effort is not None:
            out["reasoning_effort"] = effort


def encode_request(req: Request, notes: Notes, *, dialect: str | Dialect | None = None) -> dict[str, Any]:
    """Encode an IR request as a Chat Completions request body.

    Args:
        req: the request.
        notes: collects what could not be carried over.
        dialect: the provider it goes to (a name in :data:`DIALECTS`, or a
            :class:`~toolwire.formats.openai_chat.dialects.Dialect`): the request is fitted to
            it (Mistral's 9-character call ids, ``max_tokens``, no ``developer`` role, reasoning
            replayed only to the provider that wrote it...). ``None``: plain Chat, and a Chat
            request's own fields pass through.

    Raises:
        ToolwireError: an unknown dialect name.
    """
    target = None if dialect is None else get_dialect(dialect)
    same = req.origin == "openai-chat"
    if not same:
        refuse_unsendable_history(req, "openai-chat")
        req = fit_request(req, "openai-chat", notes)
        req = fit_tool_choice(req, notes)
    out: dict[str, Any] = {}
    if req.model is not None:
        out["model"] = req.model
    replay_to = target.name if target is not None else None
    out["messages"] = encode_messages(req.messages, notes, same=same, replay_to=replay_to)
    config = ToolConfig(
        tools=req.tools, tool_choice=req.tool_choice, parallel_tool_calls=req.parallel_tool_calls
    )
    out.update(encode_config(config, notes, same))
    _encode_sampling(req, out, same, notes)
    if req.stream is not None:
        out["stream"] = req.stream
    if req.user is not None:
        out["user"] = req.user
    if req.metadata is not None:
        out["metadata"] = req.metadata
    if req.extra:
        emit_fields(out, req.extra, same, notes, "$")
    if target is not None:
        fit_dialect(out, target, req.extra.get(DIALECT) if same else None, notes)
    return out
