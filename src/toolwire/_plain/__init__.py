"""Pair lanes: a plain request straight from its source dicts to the target payload (issue 18).

See :mod:`toolwire._plain._form` for what a plain request is and how a lane is checked. A lane
is a reader of the source format and a writer of the target format; :func:`plain_lane` runs the
pair's, and the general path runs for every request a lane does not take. The Responses -> Chat,
Anthropic -> Chat, Anthropic -> Responses, Responses -> Anthropic, Responses -> Gemini, Chat ->
Anthropic and Chat -> Gemini pairs first try their one pass (:data:`TO_CHAT`,
:data:`NOTING_PASSES`), which writes what the pair's reader and writer write, with nothing
between.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, get_args

from toolwire._plain import (
    anthropic_pass,
    anthropic_read,
    anthropic_write,
    bedrock_read,
    bedrock_write,
    chat_anthropic,
    chat_gemini,
    chat_read,
    chat_responses,
    chat_write,
    gemini_read,
    gemini_write,
    responses_anthropic,
    responses_chat,
    responses_gemini,
    responses_read,
    responses_write,
)
from toolwire._plain._form import Plain
from toolwire.ir.notes import Policy

__all__ = ["NOTING_PASSES", "READERS", "TO_CHAT", "WIRE_WRITERS", "WRITERS", "plain_lane"]

Reader = Callable[[Any, "str | None"], "Plain | None"]
Writer = Callable[[Plain], "dict[str, Any] | None"]

READERS: dict[str, Reader] = {
    "anthropic": anthropic_read.read,
    "openai-chat": chat_read.read,
    "openai-responses": responses_read.read,
    "gemini": gemini_read.read,
    "bedrock-converse": bedrock_read.read,
}
"""Each format's reader: its request as a :class:`Plain`, or ``None`` (not plain)."""

WRITERS: dict[str, Writer] = {
    "anthropic": anthropic_write.write,
    "openai-chat": chat_write.write,
    "openai-responses": responses_write.write,
    "gemini": gemini_write.write,
    "bedrock-converse": bedrock_write.write,
}
"""Each format's writer: a :class:`Plain` as its request, or ``None`` (the general path writes it)."""

WIRE_WRITERS: dict[str, Writer] = {
    **WRITERS,
    "anthropic": anthropic_write.write_wire,
    "gemini": gemini_write.write_wire,
    "openai-chat": chat_write.write_wire,
    "bedrock-converse": bedrock_write.write_wire,
}
"""The bytes API's writers: a target's request with its conversation as msgspec Structs that
encode as its writer's dicts (:mod:`toolwire._plain._request_out`; the other targets' dicts)."""


TO_CHAT: dict[str, Callable[[Any], dict[str, Any] | None]] = {
    "openai-responses": responses_chat.translate,
    "anthropic": anthropic_pass.to_chat,
}
"""The pairs into Chat written in one pass (the source read and its Chat written in one loop):
the Chat payload, or ``None`` when the pair's reader and writer must decide."""


def _anthropic_to_responses(payload: Any, wire: bool) -> tuple[dict[str, Any], bool] | None:
    return anthropic_pass.to_responses(payload)  # the Responses writer has no Structs


NOTING_PASSES: dict[tuple[str, str], Callable[[Any, bool], tuple[dict[str, Any], bool] | None]] = {
    ("anthropic", "openai-responses"): _anthropic_to_responses,
    ("openai-chat", "anthropic"): chat_anthropic.translate,
    ("openai-chat", "gemini"): chat_gemini.translate,
    ("openai-chat", "openai-responses"): chat_responses.translate,
    ("openai-responses", "anthropic"): responses_anthropic.translate,
    ("openai-responses", "gemini"): responses_gemini.translate,
}
"""The other pairs written in one pass (``(source, target)``; the source read and its target
written in one loop): the target payload (its conversation as Structs for the bytes API:
``wire``) and whether the pair's lane notes something for it, or ``None`` when the pair's reader
and writer must decide."""

_POLICIES = frozenset(get_args(Policy))  # what Notes accepts; the general path refuses others


def plain_lane(
    payload: Any, source: str, target: str, policy: str, model: str | None = None, wire: bool = False
) -> tuple[dict[str, Any], bool] | None:
    """The target payload of ``payload`` by the pair's lane and whether the general path notes
    something for it, or ``None`` (no lane for the pair, not plain, or noted under a policy other
    than ``drop``: the notes are then made, logged or raised by the general path; a format name
    or a policy of another type, or a policy the general path refuses: it says what is wrong).
    ``wire``: the payload is only to be encoded (the bytes API), its parts may be Structs
    (``WIRE_WRITERS``)."""
    if type(source) is not str or type(target) is not str or type(policy) is not str:
        return None
    if source == target or policy not in _POLICIES:  # a same-format request keeps its own forms
        return None  # (hints): the general path
    if target == "openai-chat":  # a pair in one pass, when it can
        one_pass = TO_CHAT.get(source)
        if one_pass is not None:
            chat = one_pass(payload)
            if chat is not None:
                return chat, False
    else:  # a pair in one pass, when it can
        noting = NOTING_PASSES.get((source, target))
        found = None if noting is None else noting(payload, wire)
        if found is not None:
            return None if found[1] and policy != "drop" else found
    reader = READERS.get(source)
    writer = (WIRE_WRITERS if wire else WRITERS).get(target)
    if reader is None or writer is None:
        return None
    plain = reader(payload, model)
    if plain is None:
        return None
    out = writer(plain)
    if out is None or (plain.noted and policy != "drop"):
        return None
    return out, plain.noted
