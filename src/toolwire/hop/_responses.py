"""The OpenAI Responses request builder, following the Codex reference client.

Starting from the encoded (or native) body it fills in what the reference client always sends:
``tool_choice: "auto"``, ``parallel_tool_calls`` (default ``False``), ``reasoning`` from the
options, ``store`` (``False`` for OpenAI, ``True`` for Azure), ``include:
["reasoning.encrypted_content"]`` when reasoning is on and nothing is stored, ``prompt_cache_key``
= the conversation id, ``text.verbosity`` for GPT-5-family models only, and ``stream``.

With ``store: false`` the input items go without their item ids (the server keeps nothing to
refer to), except reasoning items: the API spec requires their id and the encrypted content makes
them self-contained (the reference client drops those ids too, which the live API tolerates but the
spec, and so :func:`toolwire.validate.validate`, does not). With ``store: true`` (Azure) every item
id is kept.
"""

from __future__ import annotations

import logging
from typing import Any

from toolwire.hop._options import ResponsesOptions
from toolwire.ir.notes import Notes

__all__ = ["ENCRYPTED_REASONING", "build_responses_body", "responses_headers", "supports_verbosity"]

ENCRYPTED_REASONING = "reasoning.encrypted_content"
"""The ``include`` value that returns reasoning state for stateless (``store: false``) use."""

_VERBOSITY_FAMILIES = ("gpt-5",)
# item_reference: the id is the reference itself; reasoning: the spec requires the id, and with
# encrypted_content the server needs nothing stored to use it.
_ID_KEPT_TYPES = frozenset({"item_reference", "reasoning"})
_log = logging.getLogger("toolwire.client")


def supports_verbosity(model: str | None) -> bool:
    """Whether ``model`` belongs to a family that accepts ``text.verbosity`` (GPT-5 and later)."""
    return model is not None and model.startswith(_VERBOSITY_FAMILIES)


def _instructions(body: dict[str, Any], opts: ResponsesOptions) -> None:
    base = opts.base_instructions
    if not base:
        return
    own = body.get("instructions")
    body["instructions"] = f"{base}\n\n{own}" if isinstance(own, str) and own else base


def _reasoning(body: dict[str, Any], opts: ResponsesOptions) -> None:
    if "reasoning" in body or (opts.reasoning_effort is None and opts.reasoning_summary is None):
        return
    reasoning: dict[str, Any] = {}
    if opts.reasoning_effort is not None:
        reasoning["effort"] = opts.reasoning_effort
    if opts.reasoning_summary is not None:
        reasoning["summary"] = opts.reasoning_summary
    body["reasoning"] = reasoning


def _strip_item_ids(body: dict[str, Any]) -> None:
    items = body.get("input")
    if not isinstance(items, list):
        return
    body["input"] = [
        {k: v for k, v in item.items() if k != "id"}
        if isinstance(item, dict) and "id" in item and item.get("type") not in _ID_KEPT_TYPES
        else item
        for item in items
    ]


def _include(body: dict[str, Any]) -> None:
    if not body.get("reasoning") or body.get("store") is not False:
        return
    include = body.get("include")
    values = list(include) if isinstance(include, list) else []
    if ENCRYPTED_REASONING not in values:
        values.append(ENCRYPTED_REASONING)
    body["include"] = values


def _verbosity(body: dict[str, Any], opts: ResponsesOptions, notes: Notes) -> None:
    if opts.verbosity is None:
        return
    model = body.get("model")
    if not supports_verbosity(model if isinstance(model, str) else None):
        message = f"text.verbosity is only sent to GPT-5-family models; not sent to {model!r}"
        _log.info("%s", message)
        notes.info("$.text.verbosity", "dropped", message)
        return
    text = body.get("text")
    text = dict(text) if isinstance(text, dict) else {}
    text.setdefault("verbosity", opts.verbosity)
    body["text"] = text


def build_responses_body(
    body: dict[str, Any], opts: ResponsesOptions, *, azure: bool, stream: bool, notes: Notes
) -> dict[str, Any]:
    """The Responses request body to send: ``body`` with the reference client's fields filled in."""
    out = dict(body)
    _instructions(out, opts)
    out.setdefault("tool_choice", "auto")
    out.setdefault("parallel_tool_calls", opts.parallel_tool_calls)
    _reasoning(out, opts)
    out.setdefault("store", azure if opts.store is None else opts.store)
    if out["store"] is False:
        _strip_item_ids(out)
    _include(out)
    if opts.conversation_id is not None:
        out.setdefault("prompt_cache_key", opts.conversation_id)
    _verbosity(out, opts, notes)
    out["stream"] = stream
    return out


def responses_headers(opts: ResponsesOptions, *, stream: bool) -> dict[str, str]:
    """The Responses-specific request headers (authentication excluded)."""
    headers: dict[str, str] = {"accept": "text/event-stream" if stream else "application/json"}
    if opts.openai_beta:
        headers["openai-beta"] = "responses=experimental"
    if opts.conversation_id is not None:
        headers["conversation_id"] = opts.conversation_id
        headers["session_id"] = opts.conversation_id
    if opts.chatgpt_account_id is not None:
        headers["chatgpt-account-id"] = opts.chatgpt_account_id
    if opts.originator is not None:
        headers["originator"] = opts.originator
    return headers
