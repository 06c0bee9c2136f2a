"""Full response objects: the fields the real APIs always return, and the request echoed back.

The format encoders write what the canonical response holds; the real APIs return more. This
module completes the emulator's wire answers, non-streamed and streamed, so the official SDKs'
typed models and the official OpenAPI response schemas accept them field for field:

====================  =========================================================================
format                completed
====================  =========================================================================
``openai-responses``  the response object (body, and ``response`` of ``response.created``,
                      ``response.in_progress``, ``response.completed``) echoes the request
                      (:data:`ECHOED` with the API's defaults; function tools with ``strict``,
                      ``description``, ``parameters``) and carries ``store``, ``text``,
                      ``truncation``, ``completed_at``, ``usage`` token details; output items
                      carry ``status`` (``in_progress`` when added to a stream; reasoning items
                      none), messages ``phase`` for the models that send it (:data:`PHASED`),
                      reasoning items ``encrypted_content`` only when
                      ``include`` asks for it (:data:`ENCRYPTED`); ``output_text`` parts
                      ``annotations`` and ``logprobs``;
                      text delta/done events ``logprobs``
``anthropic``         the message (body and ``message_start``) carries ``stop_details``,
                      ``container`` and the full ``usage`` (cache counts, ``server_tool_use``,
                      ``service_tier``, ``inference_geo``); text blocks ``citations``, tool use
                      blocks ``caller``; ``message_delta`` its full usage and ``stop_details``
``openai-chat``       ``service_tier`` and ``system_fingerprint`` (body and every chunk); message
                      ``annotations``; ``usage`` token details; with ``include_usage``,
                      ``usage: null`` on every chunk before the usage chunk
``gemini``            no ``createTime`` (a Vertex AI field, not in the Gemini API's proto);
                      candidates with ``index``;
                      ``usageMetadata`` with ``promptTokensDetails``, on every stream chunk
                      (the candidate tokens so far), as recorded Gemini streams carry it
``gemini`` stream     the content-less last chunk (``finishReason`` and usage only) is merged into
                      the chunk before it, as the real API sends the last text together with
                      ``finishReason`` (recordings in tests/data/fixtures/*/gemini*); a stream
                      of one content chunk keeps two, the last with an empty text part
====================  =========================================================================

The Chat stream's ``finish_reason`` comes from the raw stop reason set in
:mod:`toolwire.emulator.render`. Recorded answers behind each row: tests/data/fixtures
(vercel-ai ``openai-text``, ``openai-reasoning-encrypted-content``; pydantic-ai openai-responses).
"""

from __future__ import annotations

import copy
import hashlib
import re
from collections.abc import Callable
from typing import Any

from toolwire.emulator.render import estimate_tokens
from toolwire.formats._stream import WireEvent
from toolwire.ir import Format
from toolwire.schema.openai_strict import can_be_strict

__all__ = ["ECHOED", "ENCRYPTED", "PHASED", "complete_events", "complete_response"]

_OMIT = object()
"""An :data:`ECHOED` default: the field is left out when the request omits it (``user``: the real
API answers ``null``, which the official spec's ``type: string`` does not allow)."""

ECHOED: dict[str, Any] = {
    "instructions": None,
    "metadata": {},
    "tools": [],
    "tool_choice": "auto",
    "temperature": 1.0,
    "top_p": 1.0,
    "parallel_tool_calls": True,
    "max_output_tokens": None,
    "max_tool_calls": None,
    "previous_response_id": None,
    "prompt_cache_key": None,
    "prompt_cache_retention": None,
    "safety_identifier": None,
    "user": _OMIT,
    "presence_penalty": 0.0,
    "frequency_penalty": 0.0,
    "background": False,
    "store": True,
    "service_tier": "default",
    "top_logprobs": 0,
    "truncation": "disabled",
}
"""Request fields a Responses object echoes -> the value the API reports when the request omits it
(recorded answers, e.g. tests/data/fixtures/vercel-ai/openai-responses/openai-client-tool-search.2.json,
which also carries ``presence_penalty``/``frequency_penalty`` the spec does not list yet)."""

_STREAM_RESPONSES = frozenset({"response.created", "response.in_progress", "response.completed"})


def _dict(value: Any) -> dict[str, Any]:
    """``value`` when it is an object, else ``{}``."""
    return value if isinstance(value, dict) else {}


def _text(request: dict[str, Any]) -> dict[str, Any]:
    given = _dict(request.get("text"))
    fmt = given.get("format") or {"type": "text"}
    return {"format": fmt, "verbosity": given.get("verbosity") or "medium"}


def _tool(tool: Any) -> Any:
    """A function tool as the API echoes it: ``description`` and ``parameters`` (null when not
    given) and ``strict``. Omitted, ``strict`` is true when the schema can be made strict: the
    Responses API then normalizes it into strict mode and otherwise falls back to non-strict
    (OpenAI's function-calling guide, "strict mode")."""
    if not isinstance(tool, dict) or tool.get("type") != "function":
        return tool
    parameters = tool.get("parameters")
    strict = tool.get("strict")
    if strict is None:
        strict = isinstance(parameters, dict) and not can_be_strict(parameters)
    return {"description": None, "parameters": None, **tool, "strict": strict}


def _reasoning(request: dict[str, Any]) -> dict[str, Any]:
    given = _dict(request.get("reasoning"))
    return {"effort": given.get("effort"), "summary": given.get("summary")}


ENCRYPTED = "reasoning.encrypted_content"
"""The ``include`` value that asks for reasoning items' ``encrypted_content`` (without it the
API leaves the field out, whatever ``store`` says: recorded answers in
tests/data/fixtures/pydantic-ai/openai-responses, e.g. test_openai_responses_reasoning_effort.yaml
without it and test_openai_model_thinking_part.yaml with it)."""


_WITH_STATUS = frozenset({"message", "function_call", "custom_tool_call"})
"""Output item types the API gives a ``status`` (``in_progress`` when added to a stream); a
``reasoning`` item has none (recorded streams and bodies in tests/data/fixtures)."""


def _item(
    item: dict[str, Any], status: str, request: dict[str, Any], *, opening: bool = False
) -> dict[str, Any]:
    out = {**item}
    include = request.get("include")
    kind = out.get("type")
    if kind == "reasoning":
        out.pop("status", None)
        if not (isinstance(include, list) and ENCRYPTED in include):
            out.pop("encrypted_content", None)
    if kind in _WITH_STATUS:
        if opening:
            out["status"] = status
        else:
            out.setdefault("status", status)
    if out.get("type") == "message":
        out["content"] = [_part(p) for p in out.get("content", [])]
    return out


def _part(part: dict[str, Any]) -> dict[str, Any]:
    if part.get("type") != "output_text":
        return part
    return {"annotations": [], "logprobs": [], **part}


def _usage(usage: Any) -> Any:
    if not isinstance(usage, dict):
        return usage
    return {
        **usage,
        "input_tokens_details": {
            "cached_tokens": 0,
            "cache_write_tokens": 0,
            **(usage.get("input_tokens_details") or {}),
        },
        "output_tokens_details": {"reasoning_tokens": 0, **(usage.get("output_tokens_details") or {})},
    }


PHASED = re.compile(r"gpt-5\.(?:[4-9]|[1-9]\d)|gpt-5\.3-codex")
"""Models whose assistant messages carry ``phase`` (recorded: gpt-5.3-codex, gpt-5.4, gpt-5.5 and
gpt-5.6 answers in tests/data/fixtures/*/openai-responses; earlier models send none)."""
_CALLS = frozenset({"function_call", "custom_tool_call"})


def _phases(output: list[Any], model: Any) -> dict[str, str]:
    """Message id -> its ``phase``: ``commentary`` when tool calls follow it in the output,
    else ``final_answer``; empty for models without phases."""
    if not (isinstance(model, str) and PHASED.match(model)):
        return {}
    phases: dict[str, str] = {}
    for i, item in enumerate(output):
        if isinstance(item, dict) and item.get("type") == "message" and isinstance(item.get("id"), str):
            calls = any(isinstance(o, dict) and o.get("type") in _CALLS for o in output[i + 1 :])
            phases[item["id"]] = "commentary" if calls else "final_answer"
    return phases


def _phased(item: dict[str, Any], phases: dict[str, str]) -> dict[str, Any]:
    key = item.get("id")
    phase = phases.get(key) if isinstance(key, str) else None
    return {**item, "phase": item.get("phase", phase)} if phase is not None else item


def _responses_object(body: dict[str, Any], request: dict[str, Any]) -> dict[str, Any]:
    out = {**body}
    for key, default in ECHOED.items():
        value = request.get(key)
        if value is not None:
            out[key] = copy.deepcopy(value)
        elif default is not _OMIT:
            out[key] = default
    if isinstance(out.get("tools"), list):
        out["tools"] = [_tool(t) for t in out["tools"]]
    out["text"] = _text(request)
    out["reasoning"] = _reasoning(request)
    done = out.get("status") == "completed"
    out["completed_at"] = out.get("created_at") if done else None
    item_status = "completed" if done else "in_progress"
    output = [_item(i, item_status, request) for i in out.get("output", [])]
    phases = _phases(output, out.get("model"))
    out["output"] = [_phased(i, phases) for i in output]
    # null until the response completes, as recorded streams show (the official spec lags: it
    # has no null usage; tests/emulator/test_shapes.py names the gap)
    out["usage"] = _usage(out.get("usage"))
    out.setdefault("error", None)
    out.setdefault("incomplete_details", None)
    return out


def _responses_event(
    event: dict[str, Any], request: dict[str, Any], phases: dict[str, str]
) -> dict[str, Any]:
    kind = event.get("type")
    if kind in _STREAM_RESPONSES and isinstance(event.get("response"), dict):
        return {**event, "response": _responses_object(event["response"], request)}
    if kind in ("response.output_item.added", "response.output_item.done"):
        opening = kind.endswith("added")
        status = "in_progress" if opening else "completed"
        item = _item(event["item"], status, request, opening=opening)
        return {**event, "item": _phased(item, phases)}
    if kind in ("response.content_part.added", "response.content_part.done"):
        return {**event, "part": _part(event["part"])}
    if kind in ("response.output_text.delta", "response.output_text.done"):
        return {"logprobs": [], **event}
    return event


def _responses_events(events: list[WireEvent], request: dict[str, Any]) -> list[WireEvent]:
    last = events[-1] if events and isinstance(events[-1], dict) else {}
    final = _dict(last.get("response"))
    phases = _phases(final.get("output", []), final.get("model"))
    return [_responses_event(e, request, phases) if isinstance(e, dict) else e for e in events]


_ANTHROPIC_USAGE: dict[str, Any] = {
    "cache_creation": {"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": 0},
    "cache_creation_input_tokens": 0,
    "cache_read_input_tokens": 0,
    "inference_geo": "global",
    "server_tool_use": None,
    "service_tier": "standard",
}
"""Usage fields every Anthropic message reports (values as the real API sends them uncached)."""
_DELTA_USAGE = ("cache_creation_input_tokens", "cache_read_input_tokens", "server_tool_use")
_BLOCK_DEFAULTS: dict[str, dict[str, Any]] = {
    "text": {"citations": None},
    "tool_use": {"caller": {"type": "direct"}},
}


def _anthropic_block(block: Any) -> Any:
    if not isinstance(block, dict):
        return block
    return {**_BLOCK_DEFAULTS.get(block.get("type", ""), {}), **block}


def _anthropic_message(message: dict[str, Any]) -> dict[str, Any]:
    usage = _dict(message.get("usage"))
    return {
        "stop_details": None,
        "container": None,
        **message,
        "content": [_anthropic_block(b) for b in message.get("content", [])],
        "usage": {**_ANTHROPIC_USAGE, **usage},
    }


def _anthropic_event(event: dict[str, Any]) -> dict[str, Any]:
    kind = event.get("type")
    if kind == "message_start" and isinstance(event.get("message"), dict):
        return {**event, "message": _anthropic_message(event["message"])}
    if kind == "content_block_start":
        return {**event, "content_block": _anthropic_block(event.get("content_block"))}
    if kind == "message_delta":
        usage = _dict(event.get("usage"))
        defaults = {k: _ANTHROPIC_USAGE[k] for k in _DELTA_USAGE}
        delta = {"container": None, "stop_details": None, **_dict(event.get("delta"))}
        return {**event, "delta": delta, "usage": {"input_tokens": 0, **defaults, **usage}}
    return event


_EMPTY_TEXT = {"role": "model", "parts": [{"text": ""}]}


def _gemini_events(events: list[WireEvent]) -> list[WireEvent]:
    """Merge a content-less finishing chunk into the chunk before it; when that would leave a
    single chunk (a lone function call), the finishing chunk carries an empty text part instead,
    as real streams often end."""
    if len(events) < 2 or not isinstance(events[-1], dict) or not isinstance(events[-2], dict):
        return events
    last, before = events[-1], events[-2]
    candidates = last.get("candidates")
    if not (isinstance(candidates, list) and len(candidates) == 1 and "content" not in candidates[0]):
        return events
    previous = before.get("candidates")
    if not (isinstance(previous, list) and len(previous) == 1 and "content" in previous[0]):
        return events
    if len(events) == 2:
        return [before, {**last, "candidates": [{"content": _EMPTY_TEXT, **candidates[0]}]}]
    merged = {**before, **last, "candidates": [{**previous[0], **candidates[0]}]}
    return [*events[:-2], merged]


def _gemini_body(body: Any) -> Any:
    """A Gemini answer without ``createTime`` (a Vertex AI field the Gemini API's
    ``GenerateContentResponse`` in generative_service.proto does not have), each candidate with
    its ``index`` and the usage with ``promptTokensDetails``, as the real API reports them
    (tests/data/fixtures/vercel-ai/gemini/google-text.json and .chunks.txt)."""
    if not isinstance(body, dict):
        return body
    out = {k: v for k, v in body.items() if k != "createTime"}
    candidates = out.get("candidates")
    if isinstance(candidates, list):
        out["candidates"] = [
            {**c, "index": c.get("index", i)} if isinstance(c, dict) else c for i, c in enumerate(candidates)
        ]
    usage = out.get("usageMetadata")
    if isinstance(usage, dict) and "promptTokensDetails" not in usage and "promptTokenCount" in usage:
        details = [{"modality": "TEXT", "tokenCount": usage["promptTokenCount"]}]
        out["usageMetadata"] = {**usage, "promptTokensDetails": details}
    return out


def _chunk_text(event: dict[str, Any]) -> str:
    candidates = event.get("candidates")
    content = candidates[0].get("content", {}) if isinstance(candidates, list) and candidates else {}
    parts = content.get("parts", []) if isinstance(content, dict) else []
    return "".join(
        str(p.get("text", "")) + str(p.get("functionCall", "")) for p in parts if isinstance(p, dict)
    )


def _gemini_usage(events: list[WireEvent]) -> list[WireEvent]:
    """Usage on every chunk, as real Gemini streams send it: the prompt count and the candidate
    tokens so far (an estimate of the text streamed, capped by the final count)."""
    final = events[-1].get("usageMetadata") if events and isinstance(events[-1], dict) else None
    if not isinstance(final, dict) or "promptTokenCount" not in final:
        return events
    prompt, cap, so_far = final["promptTokenCount"], final.get("candidatesTokenCount", 0), ""
    out: list[WireEvent] = []
    for event in events:
        if isinstance(event, dict) and "usageMetadata" not in event:
            so_far += _chunk_text(event)
            count = min(cap, estimate_tokens(so_far))
            usage = {
                "promptTokenCount": prompt,
                "candidatesTokenCount": count,
                "totalTokenCount": prompt + count,
            }
            event = {**event, "usageMetadata": usage}
        out.append(event)
    return out


def _chat_tier(request: dict[str, Any]) -> str:
    given = request.get("service_tier")
    return given if isinstance(given, str) and given not in ("auto", "") else "default"


def _fingerprint(body: dict[str, Any]) -> str:
    """A ``system_fingerprint``: fixed per model, as the backend configuration it stands for."""
    return "fp_" + hashlib.sha256(str(body.get("model")).encode()).hexdigest()[:10]


def _chat_usage(usage: Any) -> Any:
    if not isinstance(usage, dict):
        return usage
    prompt = {"cached_tokens": 0, "audio_tokens": 0, **_dict(usage.get("prompt_tokens_details"))}
    completion = {**_CHAT_COMPLETION_DETAILS, **_dict(usage.get("completion_tokens_details"))}
    return {**usage, "prompt_tokens_details": prompt, "completion_tokens_details": completion}


_CHAT_COMPLETION_DETAILS = {
    "reasoning_tokens": 0,
    "audio_tokens": 0,
    "accepted_prediction_tokens": 0,
    "rejected_prediction_tokens": 0,
}


def _chat_body(body: dict[str, Any], request: dict[str, Any]) -> dict[str, Any]:
    choices = [
        {**c, "message": {"annotations": [], **_dict(c.get("message"))}} if isinstance(c, dict) else c
        for c in body.get("choices", [])
    ]
    out = {**body, "choices": choices, "service_tier": _chat_tier(request)}
    out.setdefault("system_fingerprint", _fingerprint(body))
    if "usage" in out:
        out["usage"] = _chat_usage(out["usage"])
    return out


def _chat_events(events: list[WireEvent], request: dict[str, Any]) -> list[WireEvent]:
    """Every chunk with ``service_tier`` and ``system_fingerprint``; with ``include_usage``,
    ``usage: null`` until the usage chunk."""
    counted = _dict(request.get("stream_options")).get("include_usage") is True
    out: list[WireEvent] = []
    for event in events:
        if isinstance(event, dict) and event.get("object") == "chat.completion.chunk":
            extra = {"service_tier": _chat_tier(request), "system_fingerprint": _fingerprint(event)}
            event = {**event, **extra}
            if counted:
                event["usage"] = _chat_usage(event.get("usage"))
        out.append(event)
    return out


_BODIES: dict[str, Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]] = {
    "openai-chat": _chat_body,
    "openai-responses": _responses_object,
    "anthropic": lambda body, request: _anthropic_message(body),
    "gemini": lambda body, request: _dict(_gemini_body(body)),
}


def complete_response(fmt: Format, body: dict[str, Any], request: dict[str, Any]) -> dict[str, Any]:
    """The full non-streamed answer of ``fmt`` to the wire ``request``."""
    step = _BODIES.get(fmt)
    return step(body, request) if step is not None else body


_EVENTS: dict[str, Callable[[list[WireEvent], dict[str, Any]], list[WireEvent]]] = {
    "openai-chat": _chat_events,
    "openai-responses": _responses_events,
    "anthropic": lambda events, request: [_anthropic_event(e) if isinstance(e, dict) else e for e in events],
    "gemini": lambda events, request: [_gemini_body(e) for e in _gemini_usage(_gemini_events(events))],
}


def complete_events(fmt: Format, events: list[WireEvent], request: dict[str, Any]) -> list[WireEvent]:
    """The full wire events of a streamed answer of ``fmt`` to the wire ``request``."""
    step = _EVENTS.get(fmt)
    return step(events, request) if step is not None else events
