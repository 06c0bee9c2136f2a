"""Anthropic Messages request bodies (``CreateMessageParams``) <-> IR :class:`~toolwire.ir.Request`.

Named in the IR: ``model``, ``system`` (leading system message), ``messages``, ``tools``,
``tool_choice`` (with ``disable_parallel_tool_use`` as ``parallel_tool_calls``),
``max_tokens``, ``temperature``, ``top_p``, ``top_k``, ``stop_sequences``, ``stream``,
``metadata.user_id`` (as ``user``; other metadata fields in ``metadata``), ``thinking`` and
``output_config.effort`` (reasoning), ``output_config.format`` / ``output_format``
(structured output). Everything else (``service_tier``, ``container``, ``mcp_servers``,
``context_management``, ``cache_control``, ``inference_geo``...) is kept in ``Request.extra``.

A request without ``max_tokens`` (a ``count_tokens`` body) is re-encoded without it for
Anthropic; from other formats ``max_tokens`` is synthesized (see ``_generation``).
"""

from __future__ import annotations

from typing import Any

from toolwire.formats import ToolConfig
from toolwire.formats._choice import drop_choice_without_tools, fit_tool_choice
from toolwire.formats._history import refuse_unsendable_history
from toolwire.formats._ranges import fit_request
from toolwire.formats._wire import (
    as_dict,
    emit_extra,
    fail,
    opt_bool,
    opt_dict,
    opt_float,
    opt_int,
    opt_list,
    opt_str,
    req_list,
)
from toolwire.formats.anthropic._decode_messages import decode_messages, decode_system
from toolwire.formats.anthropic._encode_messages import encode_messages
from toolwire.formats.anthropic._generation import (
    decode_reasoning,
    decode_response_format,
    encode_output,
    encode_thinking_cross,
    fit_max_tokens,
)
from toolwire.formats.anthropic.tools import TOOL_FIELDS, encode_config, split_tool_config
from toolwire.ir.base import Extra
from toolwire.ir.content import Message
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request

__all__ = ["decode_request", "encode_request"]

_KNOWN = TOOL_FIELDS | {
    "model",
    "messages",
    "system",
    "max_tokens",
    "temperature",
    "top_p",
    "top_k",
    "stop_sequences",
    "stream",
    "metadata",
    "thinking",
    "output_config",
    "output_format",
}

# ---------------------------------------------------------------- decode


def _stop(p: dict[str, Any]) -> tuple[str, ...] | None:
    stop = opt_list(p, "stop_sequences", "$")
    if stop is None:
        return None
    for index, item in enumerate(stop):
        if type(item) is not str:
            fail(f"$.stop_sequences[{index}]", "expected a string")
    return tuple(stop)


def _metadata(p: dict[str, Any]) -> tuple[str | None, dict[str, Any] | None]:
    """``(user, metadata)``: ``metadata.user_id`` and the other metadata fields."""
    metadata = opt_dict(p, "metadata", "$")
    if metadata is None:
        return None, None
    user = metadata.get("user_id")
    if type(user) is not str:
        return None, metadata
    rest = {k: v for k, v in metadata.items() if k != "user_id"}
    return user, rest or None


_NULLABLE = (
    "model",
    "max_tokens",
    "temperature",
    "top_p",
    "top_k",
    "stop_sequences",
    "stream",
    "metadata",
    "system",
)


def _nulls(p: dict[str, Any], extra: Extra) -> None:
    """Known scalar fields present as ``null`` are kept as is."""
    if None in p.values():
        for key in _NULLABLE:
            if key in p and p[key] is None:
                extra[key] = None


def decode_request(payload: Any, notes: Notes, *, model: str | None = None) -> Request:
    """Decode an Anthropic Messages request body (``model`` is used when the body has none)."""
    p = as_dict(payload, "$")
    messages: list[Message] = []
    extra: Extra = {k: v for k, v in p.items() if k not in _KNOWN}
    _nulls(p, extra)
    system = p.get("system")
    if system is not None:
        leading = decode_system(system)
        if leading is None:
            extra["system"] = system
        else:
            messages.append(leading)
    messages.extend(decode_messages(req_list(p, "messages", "$")))
    config, rest = split_tool_config(p, notes)
    extra.update(rest)
    response_format, effort = decode_response_format(p, extra)
    user, metadata = _metadata(p)
    wire_model = opt_str(p, "model", "$")
    return Request(
        messages=tuple(messages),
        model=wire_model if wire_model is not None else model,
        tools=config.tools,
        tool_choice=config.tool_choice,
        parallel_tool_calls=config.parallel_tool_calls,
        max_tokens=opt_int(p, "max_tokens", "$"),
        temperature=opt_float(p, "temperature", "$"),
        top_p=opt_float(p, "top_p", "$"),
        top_k=opt_int(p, "top_k", "$"),
        stop=_stop(p),
        response_format=response_format,
        reasoning=decode_reasoning(p, effort, extra),
        stream=opt_bool(p, "stream", "$"),
        user=user,
        metadata=metadata,
        origin="anthropic",
        extra=extra,
    )


# ---------------------------------------------------------------- encode


def _encode_metadata(req: Request, same: bool, notes: Notes) -> dict[str, Any] | None:
    if req.user is None and req.metadata is None:
        return None
    out: dict[str, Any] = {} if req.user is None else {"user_id": req.user}
    if req.metadata:
        if same:
            out.update(req.metadata)
        else:
            for key in req.metadata:
                notes.add(f"$.metadata.{key}", "dropped", "Anthropic metadata only has user_id")
    return out if out or same else None


def _strip_prefill(messages: list[dict[str, Any]], notes: Notes) -> None:
    """Anthropic answers 400 to a final assistant message (a prefill) ending in whitespace, and
    to an empty text block: trailing whitespace goes, then text blocks left empty, then a
    prefill left with no content at all."""
    last = messages[-1] if messages else None
    content = last.get("content") if last is not None and last.get("role") == "assistant" else None
    if not isinstance(content, list):
        return
    changed = False
    while content and isinstance(content[-1], dict) and content[-1].get("type") == "text":
        text = content[-1]["text"]
        if text == text.rstrip():
            break
        changed = True
        if text.rstrip():
            content[-1] = {**content[-1], "text": text.rstrip()}
            break
        content.pop()
    if not changed:
        return
    path = f"$.messages[{len(messages) - 1}]"
    if content:
        notes.add(path, "approximated", "trailing whitespace of the prefill removed")
    else:
        messages.pop()
        notes.add(path, "dropped", "a prefill of only whitespace removed")


def _unless_tool_forced(thinking: dict[str, Any] | None, req: Request, notes: Notes) -> dict[str, Any] | None:
    """Anthropic answers 400 to a forced tool choice (``any``/``tool``) with ``enabled`` thinking:
    the forced tool wins (the caller's output depends on it), thinking is dropped."""
    choice = req.tool_choice
    if thinking is None or thinking["type"] != "enabled" or choice is None or not req.tools:
        return thinking
    if choice.mode not in ("required", "named"):
        return thinking
    notes.add("$.reasoning", "dropped", "thinking: Anthropic cannot think while a tool is forced")
    return None


def _sampling_cross(req: Request, thinking: dict[str, Any] | None, out: dict[str, Any], notes: Notes) -> None:
    """Sampling fields for another format's request; those thinking forbids are dropped."""
    thinking_on = thinking is not None and thinking["type"] != "disabled"
    if req.temperature is not None:
        if thinking_on and req.temperature != 1:
            notes.add("$.temperature", "dropped", "temperature must be 1 when thinking is enabled")
        else:
            out["temperature"] = req.temperature
    if req.top_p is not None:
        if thinking_on and req.top_p < 0.95:
            notes.add("$.top_p", "dropped", "top_p must be at least 0.95 when thinking is enabled")
        else:
            out["top_p"] = req.top_p
    if req.top_k is not None:
        if thinking_on:
            notes.add("$.top_k", "dropped", "top_k cannot be set when thinking is enabled")
        else:
            out["top_k"] = req.top_k


def _sampling_same(req: Request, out: dict[str, Any]) -> None:
    if req.temperature is not None:
        out["temperature"] = req.temperature
    if req.top_p is not None:
        out["top_p"] = req.top_p
    if req.top_k is not None:
        out["top_k"] = req.top_k


def encode_request(req: Request, notes: Notes) -> dict[str, Any]:
    """Encode an IR request as an Anthropic Messages request body."""
    same = req.origin == "anthropic"
    if not same:
        refuse_unsendable_history(req, "anthropic")
        req = fit_request(req, "anthropic", notes)
        req = fit_tool_choice(req, notes)
    system, messages = encode_messages(req.messages, notes, same)
    if not same:
        _strip_prefill(messages, notes)
    out: dict[str, Any] = {}
    if req.model is not None:
        out["model"] = req.model
    if system is not None:
        out["system"] = system
    out["messages"] = messages
    thinking = None
    if same:
        if req.max_tokens is not None:
            out["max_tokens"] = req.max_tokens
        _sampling_same(req, out)
    else:
        thinking = (
            encode_thinking_cross(req.reasoning, notes, req.model) if req.reasoning is not None else None
        )
        thinking = _unless_tool_forced(thinking, req, notes)
        out["max_tokens"], thinking = fit_max_tokens(req.max_tokens, thinking, notes)
        if thinking is not None:
            out["thinking"] = thinking
        _sampling_cross(req, thinking, out, notes)
    if req.stop is not None:
        out["stop_sequences"] = list(req.stop)
    if req.stream is not None:
        out["stream"] = req.stream
    metadata = _encode_metadata(req, same, notes)
    if metadata is not None:
        out["metadata"] = metadata
    out.update(encode_output(req, same, notes))
    cfg = ToolConfig(
        tools=req.tools, tool_choice=req.tool_choice, parallel_tool_calls=req.parallel_tool_calls
    )
    out.update(encode_config(cfg, notes, same))
    if not same and req.tools:
        drop_choice_without_tools(out, req, notes)
    if req.extra:
        emit_extra(out, req.extra, same, notes, "$")
    return out
