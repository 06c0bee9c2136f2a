"""Typed shapes of the responses the lanes write, for the bytes API (issue 18).

``translate_response_bytes`` encodes the lane's response
straight from these msgspec Structs (each target's ``write_wire``, e.g.
:func:`toolwire._plain.chat_response.write_wire`): msgspec writes a Struct's fields in their
order with its keys encoded once, faster than building the dict and encoding its keys, and a
Struct is made in C. The bytes are those of the dict the format's ``write_response`` writes (the
same keys in the same order, the same values: ``tests/plain/test_response_wire_out.py``).

The Responses request echo fields are the top-level Structs' last field, taken from
``echo_defaults`` (the general encoder's one definition) and encoded once: the first one's
name, its default the JSON after that name (``msgspec.Raw``, written as it is), so that a lane
passes the fields before it only. ``gc=False``: a written response holds no cycle (its lists
and dicts are the lane's own, or values decoded from JSON), so the garbage collector need not
track its Structs, which makes them cheaper to make and free. Kept Python (``pyproject``'s mypyc
``exclude``): msgspec Structs are not mypyc classes.
"""

from __future__ import annotations

from typing import Any

from msgspec import Raw, Struct, defstruct

from toolwire._json import dumps
from toolwire.formats.openai_responses.response import echo_defaults

__all__ = [
    "AnthropicOut",
    "AnthropicTextOut",
    "AnthropicToolUseOut",
    "ChatCallOut",
    "ChatChoiceOut",
    "ChatFunctionOut",
    "ChatMessageOut",
    "ChatOut",
    "ChatOutBare",
    "ChatTextOut",
    "GeminiBareCallOut",
    "GeminiCallOut",
    "GeminiCandidateOut",
    "GeminiContentOut",
    "GeminiOut",
    "GeminiOutBare",
    "GeminiPartOut",
    "GeminiTextOut",
    "InputDetailsOut",
    "OutputCall",
    "OutputDetailsOut",
    "OutputMessage",
    "OutputText",
    "ResponseOut",
    "ResponseOutBare",
    "UsageOut",
]


class OutputText(Struct, gc=False):
    """An ``output_text`` part: ``type``, ``text``, empty ``annotations`` and ``logprobs``."""

    type: str
    text: str
    annotations: list[Any]
    logprobs: list[Any]


class OutputMessage(Struct, gc=False):
    """An assistant ``message`` item, its fields in the encoder's order."""

    id: str
    type: str
    status: str
    role: str
    content: list[OutputText]


class OutputCall(Struct, gc=False):
    """A ``function_call`` item, its fields in the encoder's order."""

    type: str
    call_id: str
    name: str
    arguments: str
    id: str
    status: str


_HEAD: list[tuple[str, Any]] = [
    ("id", str),
    ("object", str),
    ("created_at", int),
    ("status", str),
    ("incomplete_details", Any),
    ("error", None),
    ("model", str),
    ("output", list[Any]),
]


def _echo() -> list[tuple[str, Any, Any]]:
    """The echo fields as one field: the first one's name, the JSON of all after its key."""
    echo = echo_defaults()
    first = next(iter(echo))
    head = len(dumps({first: None})) - len(b"null}")  # {"<first>":
    return [(first, Any, Raw(dumps(echo)[head:-1]))]


_ECHO = _echo()

ResponseOut: Any = defstruct("ResponseOut", [*_HEAD, ("usage", Any), *_ECHO], gc=False)
"""A ``response`` with a usage: ``ResponseOut(id, "response", created_at, status,
incomplete_details, None, model, output, usage)``, the echo fields after."""

ResponseOutBare: Any = defstruct("ResponseOutBare", [*_HEAD, *_ECHO], gc=False)
"""A ``response`` without a usage (none written): :data:`ResponseOut` less ``usage``."""


class ChatFunctionOut(Struct, gc=False):
    """A Chat call's ``function``: its name and arguments text."""

    name: str
    arguments: str


class ChatCallOut(Struct, gc=False):
    """A Chat ``tool_calls`` entry: ``ChatCallOut(id, "function", function)``."""

    id: str
    type: str
    function: ChatFunctionOut


class ChatMessageOut(Struct, gc=False):
    """A Chat assistant message with calls (``refusal`` ``null`` last)."""

    role: str
    content: str | None
    tool_calls: list[ChatCallOut]
    refusal: None = None


class ChatTextOut(Struct, gc=False):
    """A Chat assistant message without calls (``refusal`` ``null`` last)."""

    role: str
    content: str | None
    refusal: None = None


class ChatChoiceOut(Struct, gc=False):
    """The one choice: ``ChatChoiceOut(0, message, finish_reason)``, ``logprobs`` ``null``."""

    index: int
    message: ChatMessageOut | ChatTextOut
    finish_reason: str
    logprobs: None = None


class ChatOut(Struct, gc=False):
    """A ``chat.completion`` with a usage."""

    id: str
    object: str
    created: int
    model: str
    choices: list[ChatChoiceOut]
    usage: dict[str, Any]


class ChatOutBare(Struct, gc=False):
    """A ``chat.completion`` without a usage (none written)."""

    id: str
    object: str
    created: int
    model: str
    choices: list[ChatChoiceOut]


class AnthropicTextOut(Struct, gc=False):
    """An Anthropic ``text`` block: ``AnthropicTextOut("text", text)``."""

    type: str
    text: str


class AnthropicToolUseOut(Struct, gc=False):
    """An Anthropic ``tool_use`` block: ``AnthropicToolUseOut("tool_use", id, name, input)``."""

    type: str
    id: str
    name: str
    input: dict[str, Any]


class AnthropicOut(Struct, gc=False):
    """An Anthropic ``message``: ``AnthropicOut(id, "message", "assistant", model, content,
    stop_reason, None, usage)``."""

    id: str
    type: str
    role: str
    model: str
    content: list[AnthropicTextOut | AnthropicToolUseOut]
    stop_reason: str
    stop_sequence: None
    usage: dict[str, Any]


class InputDetailsOut(Struct, gc=False):
    """Responses ``input_tokens_details``, cached tokens first (``foreign_usage``'s order when
    some are cached or none written)."""

    cached_tokens: int
    cache_write_tokens: int


class OutputDetailsOut(Struct, gc=False):
    """Responses ``output_tokens_details``."""

    reasoning_tokens: int


class UsageOut(Struct, gc=False):
    """A Responses ``usage``."""

    input_tokens: int
    output_tokens: int
    input_tokens_details: Any
    output_tokens_details: OutputDetailsOut
    total_tokens: int


class GeminiTextOut(Struct, gc=False):
    """A Gemini ``{"text"}`` part."""

    text: str


class GeminiCallOut(Struct, gc=False):
    """A ``functionCall``'s ``{"name", "args", "id"}``."""

    name: str
    args: dict[str, Any]
    id: str


class GeminiBareCallOut(Struct, gc=False):
    """A ``functionCall``'s ``{"name", "id"}`` (arguments of empty text: no ``args``)."""

    name: str
    id: str


class GeminiPartOut(Struct, gc=False):
    """A Gemini ``{"functionCall"}`` part."""

    functionCall: GeminiCallOut | GeminiBareCallOut


class GeminiContentOut(Struct, gc=False):
    """A candidate's ``content``: ``GeminiContentOut("model", parts)``."""

    role: str
    parts: list[GeminiTextOut | GeminiPartOut]


class GeminiCandidateOut(Struct, gc=False):
    """The one candidate: its content and ``finishReason``."""

    content: GeminiContentOut
    finishReason: str


class GeminiOut(Struct, gc=False):
    """A Gemini response with a usage."""

    candidates: list[GeminiCandidateOut]
    usageMetadata: dict[str, Any]
    modelVersion: str
    responseId: str


class GeminiOutBare(Struct, gc=False):
    """A Gemini response without a usage: zero counts written last."""

    candidates: list[GeminiCandidateOut]
    modelVersion: str
    responseId: str
    usageMetadata: dict[str, Any]
