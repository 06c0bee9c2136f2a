"""``validate(payload, format=..., kind=...)``: the entry point over the per-format tables.

Each format module (``openai_chat``, ``openai_responses``, ``anthropic``, ``gemini``) holds
declarative tables of its request and response bodies, checked by the shared engine
(``_engine``; structural codes are listed there), plus cross-item rules with these codes:

================================  ==============================================================
``orphan_tool_call``              a tool call no result answers (in time)
``orphan_tool_result``            a result answering no call of the turn before it
``duplicate_call_id``             two calls share an id
``duplicate_result``              two results answer one call (Anthropic)
``duplicate_item_id``             two Responses input items share an ``id``
``call_not_assistant``            a ``tool_use`` block in a user turn (Anthropic)
``call_not_after_user``           a Gemini function call turn not after a user turn
``reasoning_without_follower``    a Responses reasoning item without its following output item
``missing_content``               a Chat assistant message with neither content nor tool calls
``empty_content``                 a message/content with no content (Anthropic, Gemini)
``empty_part``                    a Gemini part without a data field
``oneof_conflict``                a Gemini part with two data fields
``invalid_role``                  a role the format does not have (``system`` in Anthropic
                                  messages; Gemini roles other than ``user``/``model``)
``thinking_placement``            Anthropic thinking blocks where the API refuses them
``budget_exceeds_max_tokens``     Anthropic ``thinking.budget_tokens`` >= ``max_tokens``
``duplicate_tool_name``           two tools share a name
``tool_choice_unknown_tool``      tool choice (or Gemini ``allowedFunctionNames``) names no tool
``tool_choice_without_tools``     a tool choice without tools
``invalid_function_parameters``   an OpenAI ``strict`` function schema that is not strict-valid,
                                  or a function ``parameters`` schema whose root is not an object
``thinking_sampling``             Anthropic ``temperature`` other than 1 (or ``top_k``) with thinking
``thinking_tool_choice``          Anthropic forced ``tool_choice`` (``any``/``tool``) with thinking
``too_many_cache_breakpoints``    more than 4 Anthropic ``cache_control`` blocks
``prefill_trailing_whitespace``   an Anthropic final assistant message ending in whitespace
``input_text_in_assistant``       a Responses assistant message with ``input_text`` content
``refusal_in_input``              a Responses assistant input message (no ``id``/``status``) with
                                  a ``refusal`` part: the spec has refusals in output items only
``empty_messages``                an Anthropic request with ``messages: []``
``missing_schema_name``           a Responses ``text.format`` json_schema without ``name``
``empty_contents``                a Gemini request with ``contents: []``
``roles_not_alternating``         two Bedrock messages of one role in a row
``blank_text``                    an empty Bedrock text block
``result_not_user``               a Bedrock ``toolResult`` block in an assistant turn
``tool_config_missing``           Bedrock tool blocks in a request without ``toolConfig``
================================  ==============================================================

Bedrock reuses ``empty_messages``, ``empty_content``, ``oneof_conflict`` and ``empty_part``
(unions: content blocks, tool-result items, system blocks, tools, tool choice, sources).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from toolwire._choices import unknown_choice
from toolwire.ir.base import FORMAT_ALIASES, FormatName
from toolwire.ir.problem import Problem
from toolwire.validate import anthropic, bedrock_converse, gemini, openai_chat, openai_responses
from toolwire.validate._engine import Ctx, Dialect, Obj

__all__ = ["FORMATS", "KINDS", "validate"]

_Check = Callable[[dict[str, Any], Ctx], None]

# format -> (dialect, request checker, response checker)
_TABLE: dict[str, tuple[Dialect, _Check, _Check]] = {
    "openai-chat": (openai_chat.DIALECT, openai_chat.check_request, openai_chat.check_response),
    "anthropic": (anthropic.DIALECT, anthropic.check_request, anthropic.check_response),
    "gemini": (gemini.DIALECT, gemini.check_request, gemini.check_response),
    "bedrock-converse": (
        bedrock_converse.DIALECT,
        bedrock_converse.check_request,
        bedrock_converse.check_response,
    ),
    "openai-responses": (
        openai_responses.DIALECT,
        openai_responses.check_request,
        openai_responses.check_response,
    ),
}

FORMATS: tuple[str, ...] = tuple(_TABLE)


def _check_dialect(payload: Any, format: str, kind: str, dialect: str) -> list[Problem]:
    from toolwire.errors import ToolwireError
    from toolwire.formats.openai_chat.dialects import get_dialect
    from toolwire.validate._chat_dialects import check_dialect

    if FORMAT_ALIASES.get(format, format) != "openai-chat" or kind != "request":
        raise ToolwireError(f"dialect {dialect!r}: only openai-chat requests have dialects")
    row = get_dialect(dialect)
    if not isinstance(payload, dict):
        return [Problem("$", "invalid_type", "the request body must be a JSON object")]
    return check_dialect(payload, row)


KINDS: tuple[str, ...] = ("request", "response")


def validate(
    payload: Any,
    *,
    format: FormatName,
    kind: Literal["request", "response"] = "request",
    beta: bool = False,
    warnings: bool = False,
    dialect: str | None = None,
) -> list[Problem]:
    """Check a wire payload of ``format``; returns the problems found (empty when valid).

    Args:
        payload: the parsed JSON body (a request body or a non-streamed response body).
        format: ``openai-chat``, ``openai-responses``, ``anthropic``, ``gemini`` or
            ``bedrock-converse`` (or an alias
            such as ``chat``, see :data:`~toolwire.ir.base.FORMAT_ALIASES`).
        kind: ``request`` (default) or ``response``.
        beta: the request goes to the provider's beta surface (Anthropic ``/v1/messages?beta=true``
            with an ``anthropic-beta`` header): newer block and tool types and inline ``system``
            messages are accepted.
        warnings: also return warnings (``severity == "warning"``): values the provider is known
            to accept and ignore. Without it only the problems the provider answers 400 come back.
        dialect: an ``openai-chat`` request goes to this Chat-compatible provider (a key of
            :data:`~toolwire.formats.openai_chat.dialects.DIALECTS` other than ``openai``):
            checked against that provider's documented differences (Mistral's call ids,
            ``tool_choice`` modes, closed schemas) instead of OpenAI's own tables.

    Raises:
        ValueError: unknown ``format`` (the message suggests the closest name) or ``kind``.
        ToolwireError: an unknown dialect, or one for another format or a response.
    """
    entry = _TABLE.get(FORMAT_ALIASES.get(format, format))
    if entry is None:
        raise ValueError(unknown_choice("format", format, (*FORMATS, *FORMAT_ALIASES), FORMATS))
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; expected request or response")
    if dialect is not None and dialect != "openai":
        return _check_dialect(payload, format, kind, dialect)
    wording, check_request, check_response = entry
    ctx = Ctx(wording, beta)
    if not isinstance(payload, dict):
        ctx.add((), "invalid_type", wording.wrong_type("body", Obj({}), payload))
        return ctx.problems
    (check_request if kind == "request" else check_response)(payload, ctx)
    return ctx.problems if warnings else [p for p in ctx.problems if p.severity == "error"]
