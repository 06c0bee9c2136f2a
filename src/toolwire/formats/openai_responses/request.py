"""Responses ``POST /v1/responses`` request bodies <-> IR :class:`~toolwire.ir.Request`.

``instructions`` becomes a leading system message (hint ``~instructions``); ``input`` as a
string becomes one user message (hint ``~input``), as a list the items are decoded by
:mod:`._messages`. ``max_output_tokens``, ``temperature``, ``top_p``, ``reasoning``
(``effort``, ``summary``), ``text.format`` (structured output), ``stream``, ``user``,
``metadata`` and the tool fields map to IR fields; everything else (``store``, ``include``,
``previous_response_id``, ``truncation``, ``service_tier``, ``text.verbosity``...) is kept
in ``extra``.

From another format the encoder hoists a leading single-text system message into
``instructions``; later system and developer messages stay input messages (Responses
accepts them anywhere), so no order is lost.
"""

from __future__ import annotations

from typing import Any

from toolwire.formats import ToolConfig
from toolwire.formats._choice import drop_choice_without_tools, fit_tool_choice
from toolwire.formats._history import refuse_unsendable_history
from toolwire.formats._ranges import fit_request
from toolwire.formats._wire import as_dict, opt_bool, opt_dict, opt_float, opt_int, opt_str
from toolwire.formats.openai_responses._encode_items import Ctx
from toolwire.formats.openai_responses._extra import FORMAT, emit_fields, split_fields
from toolwire.formats.openai_responses._messages import decode_input, encode_messages
from toolwire.formats.openai_responses.tools import TOOL_FIELDS, decode_tool_config, encode_config
from toolwire.ir.base import Extra
from toolwire.ir.content import Message, TextPart
from toolwire.ir.notes import Notes
from toolwire.ir.request import ReasoningConfig, Request, ResponseFormat

__all__ = ["decode_request", "encode_request"]

_KNOWN = TOOL_FIELDS | {
    "model",
    "input",
    "instructions",
    "max_output_tokens",
    "temperature",
    "top_p",
    "reasoning",
    "text",
    "stream",
    "user",
    "metadata",
}
_REASONING_KNOWN = frozenset({"effort", "summary"})
_FMT_KNOWN = frozenset({"type", "name", "schema", "strict", "description"})
_FMT_TYPES = frozenset({"text", "json_object", "json_schema"})
_EFFORT_BY_BUDGET = ((2048, "low"), (8192, "medium"))
"""Budgets up to each limit map to that effort, larger ones to ``high``: the inverse of the
Anthropic codec's effort budgets, so effort -> budget -> effort is stable."""


# ---------------------------------------------------------------- decode


def _decode_text(text: dict[str, Any], extra: Extra) -> ResponseFormat | None:
    """``text.format`` as a response format; the rest of ``text`` (``verbosity``) stays in extra."""
    fmt = text.get("format")
    result = None
    if type(fmt) is dict and type(fmt.get("type")) is str and fmt["type"] in _FMT_TYPES:
        path = "$.text.format"
        result = ResponseFormat(
            type=fmt["type"],
            name=opt_str(fmt, "name", path),
            schema=opt_dict(fmt, "schema", path),
            strict=opt_bool(fmt, "strict", path),
            description=opt_str(fmt, "description", path),
            extra=split_fields(fmt, _FMT_KNOWN),
        )
    rest = {key: value for key, value in text.items() if key != "format" or result is None}
    if rest:
        extra["text"] = rest
    return result


def _decode_reasoning(value: dict[str, Any]) -> ReasoningConfig:
    return ReasoningConfig(
        effort=opt_str(value, "effort", "$.reasoning"),
        summary=opt_str(value, "summary", "$.reasoning"),
        extra=split_fields(value, _REASONING_KNOWN),
    )


def _decode_messages(p: dict[str, Any], extra: Extra, notes: Notes) -> list[Message]:
    messages: list[Message] = []
    instructions = p.get("instructions")
    if type(instructions) is str:
        messages.append(
            Message(role="system", parts=(TextPart(text=instructions),), extra={"~instructions": True})
        )
        if notes.recording:
            notes.came_from(("messages", 0), ("instructions",))
            notes.came_from(("messages", 0, "parts", 0), ("instructions",))
    elif instructions is not None:
        extra["instructions"] = instructions  # an item list: kept for this format only
    value = p.get("input")
    if type(value) is str:
        if notes.recording:
            notes.came_from(("messages", len(messages)), ("input",))
            notes.came_from(("messages", len(messages), "parts", 0), ("input",))
        messages.append(Message(role="user", parts=(TextPart(text=value),), extra={"~input": True}))
    elif value is not None:
        messages.extend(decode_input(value, notes=notes if notes.recording else None, first=len(messages)))
    return messages


def decode_request(payload: Any, notes: Notes, *, model: str | None = None) -> Request:
    """Decode a Responses request body (``model`` is used when the body has none)."""
    p = as_dict(payload, "$")
    extra = split_fields(p, _KNOWN)
    cfg = decode_tool_config(p, notes)
    text = opt_dict(p, "text", "$")
    reasoning = opt_dict(p, "reasoning", "$")
    metadata = opt_dict(p, "metadata", "$")
    messages = _decode_messages(p, extra, notes)
    return Request(
        messages=tuple(messages),
        model=opt_str(p, "model", "$") or model,
        tools=cfg.tools,
        tool_choice=cfg.tool_choice,
        parallel_tool_calls=cfg.parallel_tool_calls,
        max_tokens=opt_int(p, "max_output_tokens", "$"),
        temperature=opt_float(p, "temperature", "$"),
        top_p=opt_float(p, "top_p", "$"),
        response_format=_decode_text(text, extra) if text is not None else None,
        reasoning=_decode_reasoning(reasoning) if reasoning is not None else None,
        stream=opt_bool(p, "stream", "$"),
        user=opt_str(p, "user", "$"),
        metadata=metadata,
        origin=FORMAT,
        extra=extra,
    )


# ---------------------------------------------------------------- encode


def _hints_only(extra: Extra) -> bool:
    return all(key[:1] == "~" for key in extra)


def _instructions(req: Request, same: bool) -> str | None:
    """The text of a leading system message that becomes ``instructions``."""
    if not req.messages:
        return None
    first = req.messages[0]
    part = first.parts[0] if len(first.parts) == 1 else None
    if type(part) is not TextPart:
        return None
    if same:
        return part.text if first.extra.get("~instructions") else None
    plain = _hints_only(part.extra) and _hints_only(first.extra) and first.name is None
    return part.text if first.role == "system" and plain else None


def _encode_input(req: Request, ctx: Ctx, start: int) -> Any:
    rest = req.messages[start:]
    if ctx.same:
        if len(rest) == 1 and rest[0].extra.get("~input") and len(rest[0].parts) == 1:
            part = rest[0].parts[0]
            if type(part) is TextPart:
                return part.text
        if not rest:
            return None
    return encode_messages(req.messages, ctx, start)


def _encode_format(fmt: ResponseFormat, same: bool, notes: Notes) -> dict[str, Any]:
    out: dict[str, Any] = {"type": fmt.type}
    if fmt.type == "json_schema":
        if fmt.name is not None:
            out["name"] = fmt.name
        elif not same:
            out["name"] = "response"
            notes.info(
                "$",
                "synthesized",
                "json_schema format without a name: 'response'",
                target="$.text.format.name",
            )
        if fmt.schema is not None:
            out["schema"] = fmt.schema
        elif not same:
            out["schema"] = {}
            notes.add("$.text.format.schema", "synthesized", "json_schema format without a schema: {}")
    if fmt.description is not None:
        out["description"] = fmt.description
    if fmt.strict is not None:
        out["strict"] = fmt.strict
    if fmt.extra:
        emit_fields(out, fmt.extra, same, notes, "$.text.format")
    return out


def _encode_reasoning(cfg: ReasoningConfig, same: bool, notes: Notes) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if cfg.effort is not None:
        out["effort"] = cfg.effort
    elif not same and cfg.budget_tokens is not None and cfg.enabled is not False:
        effort = next((name for limit, name in _EFFORT_BY_BUDGET if cfg.budget_tokens <= limit), "high")
        effort = "medium" if cfg.budget_tokens < 0 else effort  # Gemini's dynamic budget
        out["effort"] = effort
        notes.add(
            "$.reasoning.effort", "approximated", f"budget of {cfg.budget_tokens} tokens sent as {effort!r}"
        )
    if cfg.summary is not None:
        out["summary"] = cfg.summary
    elif not same and cfg.include_thoughts:
        out["summary"] = "auto"
        notes.add("$.reasoning.summary", "approximated", "include_thoughts sent as summary 'auto'")
    if not same and cfg.enabled is False:
        notes.add("$.reasoning", "dropped", "reasoning cannot be switched off explicitly")
    if cfg.extra:
        emit_fields(out, cfg.extra, same, notes, "$.reasoning")
    return out


def _encode_controls(req: Request, out: dict[str, Any], same: bool, notes: Notes) -> None:
    if req.max_tokens is not None:
        out["max_output_tokens"] = req.max_tokens
    for key, value in (("temperature", req.temperature), ("top_p", req.top_p)):
        if value is not None:
            out[key] = value
    if req.top_k is not None:
        notes.add("$.top_k", "dropped", "top_k has no Responses equivalent")
    if req.stop:
        notes.add("$.stop", "dropped", "stop sequences have no Responses equivalent")
    text = dict(req.extra["text"]) if same and type(req.extra.get("text")) is dict else {}
    if req.response_format is not None:
        text["format"] = _encode_format(req.response_format, same, notes)
    if text:
        out["text"] = text
    if req.reasoning is not None:
        out["reasoning"] = _encode_reasoning(req.reasoning, same, notes)
    if req.stream is not None:
        out["stream"] = req.stream
    if req.user is not None:
        out["user"] = req.user
    if req.metadata is not None:
        out["metadata"] = req.metadata


def encode_request(req: Request, notes: Notes) -> dict[str, Any]:
    """Encode an IR request as a Responses request body."""
    same = req.origin == FORMAT
    if not same:
        refuse_unsendable_history(req, FORMAT)
        req = fit_request(req, FORMAT, notes)
        req = fit_tool_choice(req, notes)
    ctx = Ctx(notes=notes, same=same)
    out: dict[str, Any] = {}
    if req.model is not None:
        out["model"] = req.model
    elif not same:
        notes.add("$.model", "dropped", "the request names no model; 'model' (required) left out")
    instructions = _instructions(req, same)
    if instructions is not None:
        out["instructions"] = instructions
    value = _encode_input(req, ctx, 0 if instructions is None else 1)
    if value is not None:
        out["input"] = value
    cfg = ToolConfig(
        tools=req.tools, tool_choice=req.tool_choice, parallel_tool_calls=req.parallel_tool_calls
    )
    out.update(encode_config(cfg, notes, same))
    if not same and req.tools:
        drop_choice_without_tools(out, req, notes)
    _encode_controls(req, out, same, notes)
    if req.extra:
        emit_fields(out, req.extra, same, notes, "$")
    return out
