"""Typed schemas of plain responses: a response reader's shape checks made by msgspec, in C.

``translate_response_bytes`` decodes a JSON body of a source with a schema straight into it
(``msgspec.json.Decoder(Schema)``, :func:`toolwire._plain._response_lane.typed_response_lane`):
msgspec checks every key and each value's type while it parses, faster than parsing to a dict
and the reader's Python checks, and the reader's ``read_typed`` checks the values left (non-empty
ids, ids used once, a text first...). A schema takes a subset of what the reader takes (other
usages, for one, are not in it), never more, and ``read_typed`` makes the same
:class:`~toolwire._plain._response_form.PlainResponse` of it as the reader makes of the dict
(``tests/plain/test_response_wire.py``); a body the schema refuses goes the dict's way.

JSON bodies only: ``msgspec.convert`` of a dict takes more than JSON values (a tuple or a set as
an array, an ``IntEnum`` as an integer, a ``dict`` subclass as an object), which the reader and
the general path refuse, so the dict API keeps the readers' own checks.

``gc=False``: what JSON decodes holds no cycle, so the garbage collector need not track the
Structs (cheaper to make and free). Kept Python (``pyproject``'s mypyc ``exclude``): msgspec
Structs are not mypyc classes. A count
typed ``int`` that defaults to ``None`` is one the wire may leave out but not send as ``null``
(which the codec's decoder keeps as a hint: the dict's way takes it).
"""

from __future__ import annotations

from typing import Any, Literal

from msgspec import UNSET, Struct, field

__all__ = [
    "AnthropicMessage",
    "AnthropicText",
    "AnthropicToolUse",
    "AnthropicUsage",
    "BedrockBlock",
    "BedrockMessage",
    "BedrockOutput",
    "BedrockResponse",
    "BedrockToolUse",
    "BedrockUsage",
    "ChatCall",
    "ChatChoice",
    "ChatCompletion",
    "ChatCompletionDetails",
    "ChatFunction",
    "ChatMessage",
    "ChatPromptDetails",
    "ChatUsage",
    "GeminiCall",
    "GeminiCandidate",
    "GeminiContent",
    "GeminiPart",
    "GeminiResponse",
    "GeminiUsage",
    "ResponsesCall",
    "ResponsesInputDetails",
    "ResponsesMessage",
    "ResponsesOutputDetails",
    "ResponsesResponse",
    "ResponsesText",
    "ResponsesUsage",
]


class AnthropicText(Struct, tag="text", tag_field="type", forbid_unknown_fields=True, gc=False):
    """An Anthropic ``text`` block (no citations)."""

    text: str


class AnthropicToolUse(Struct, tag="tool_use", tag_field="type", forbid_unknown_fields=True, gc=False):
    """An Anthropic ``tool_use`` block."""

    id: str
    name: str
    input: dict[str, Any]


class AnthropicUsage(Struct, forbid_unknown_fields=True, gc=False):
    """An Anthropic ``usage`` of integer counts only (each may be left out, none ``null``)."""

    input_tokens: int = None  # type: ignore[assignment]
    output_tokens: int = None  # type: ignore[assignment]
    cache_creation_input_tokens: int = None  # type: ignore[assignment]
    cache_read_input_tokens: int = None  # type: ignore[assignment]


class AnthropicMessage(Struct, forbid_unknown_fields=True, gc=False):
    """An Anthropic ``message`` of every field, text and ``tool_use`` blocks, no stop sequence
    (its ``type`` a field, not a tag: a tag may be left out)."""

    id: str
    type: Literal["message"]
    role: Literal["assistant"]
    model: str
    content: list[AnthropicText | AnthropicToolUse]
    stop_reason: str
    stop_sequence: None
    usage: AnthropicUsage


class GeminiCall(Struct, forbid_unknown_fields=True, gc=False):
    """A Gemini ``functionCall`` of a name, object arguments and an id."""

    name: str
    args: dict[str, Any]
    id: str


class GeminiPart(Struct, forbid_unknown_fields=True, gc=False):
    """A Gemini part of a ``text`` or a ``functionCall`` (the reader checks it holds one: parts
    are not tagged, so not a union of two schemas). Its fields named as Bedrock's block's and its
    call's as Bedrock's ``toolUse``'s: ``_response_form.typed_parts`` reads both."""

    text: str = None  # type: ignore[assignment]
    call: GeminiCall = field(default=None, name="functionCall")  # type: ignore[assignment]


class GeminiContent(Struct, forbid_unknown_fields=True, gc=False):
    """A Gemini candidate's content: the model's parts."""

    role: Literal["model"]
    parts: list[GeminiPart]


class GeminiCandidate(Struct, gc=False):
    """A Gemini candidate (its other fields let be, as the reader lets them)."""

    finishReason: str
    content: GeminiContent


class GeminiUsage(Struct, forbid_unknown_fields=True, gc=False):
    """A Gemini ``usageMetadata`` of integer counts only, no tool-use prompt count."""

    promptTokenCount: int = None  # type: ignore[assignment]
    candidatesTokenCount: int = None  # type: ignore[assignment]
    totalTokenCount: int = None  # type: ignore[assignment]
    cachedContentTokenCount: int = None  # type: ignore[assignment]
    thoughtsTokenCount: int = None  # type: ignore[assignment]


class GeminiResponse(Struct, gc=False):
    """A Gemini ``generateContent`` response (its other fields let be, as the reader lets them)."""

    responseId: str
    modelVersion: str
    candidates: list[GeminiCandidate]
    usageMetadata: GeminiUsage = None  # type: ignore[assignment]
    createTime: str = None  # type: ignore[assignment]


class ChatFunction(Struct, forbid_unknown_fields=True, gc=False):
    """A Chat call's function: its name and arguments text."""

    name: str
    arguments: str


class ChatCall(Struct, forbid_unknown_fields=True, gc=False):
    """A Chat ``tool_calls`` entry of type ``function``."""

    id: str
    type: Literal["function"]
    function: ChatFunction


class ChatMessage(Struct, forbid_unknown_fields=True, gc=False):
    """A Chat choice's assistant message: a text or ``null``, calls, no refusal."""

    role: Literal["assistant"]
    content: str | None
    tool_calls: list[ChatCall] = None  # type: ignore[assignment]
    refusal: None = None


class ChatChoice(Struct, forbid_unknown_fields=True, gc=False):
    """The one choice of a Chat completion, without logprobs."""

    index: Literal[0]
    message: ChatMessage
    finish_reason: str
    logprobs: None = None


class ChatPromptDetails(Struct, forbid_unknown_fields=True, gc=False):
    """Chat ``prompt_tokens_details`` of integer counts (the reader checks it holds one)."""

    cached_tokens: int = None  # type: ignore[assignment]
    cache_write_tokens: int = None  # type: ignore[assignment]


class ChatCompletionDetails(Struct, forbid_unknown_fields=True, gc=False):
    """Chat ``completion_tokens_details`` of integer counts (the reader checks it holds one)."""

    reasoning_tokens: int = None  # type: ignore[assignment]


class ChatUsage(Struct, forbid_unknown_fields=True, gc=False):
    """A Chat ``usage`` of integer counts and details of integer counts only."""

    prompt_tokens: int = None  # type: ignore[assignment]
    completion_tokens: int = None  # type: ignore[assignment]
    total_tokens: int = None  # type: ignore[assignment]
    prompt_tokens_details: ChatPromptDetails = None  # type: ignore[assignment]
    completion_tokens_details: ChatCompletionDetails = None  # type: ignore[assignment]


class ChatCompletion(Struct, forbid_unknown_fields=True, gc=False):
    """A ``chat.completion`` of one choice."""

    id: str
    object: Literal["chat.completion"]
    created: int
    model: str
    choices: list[ChatChoice]
    usage: ChatUsage = None  # type: ignore[assignment]


class ResponsesText(Struct, forbid_unknown_fields=True, gc=False):
    """A Responses ``output_text`` part (the reader checks its lists are empty)."""

    type: Literal["output_text"]
    text: str
    annotations: list[Any] = []
    logprobs: list[Any] = []


class ResponsesMessage(Struct, tag="message", tag_field="type", forbid_unknown_fields=True, gc=False):
    """A Responses assistant ``message`` item (an id and status, when given, strings)."""

    role: Literal["assistant"]
    content: list[ResponsesText]
    id: str = ""
    status: str = ""


class ResponsesCall(Struct, tag="function_call", tag_field="type", forbid_unknown_fields=True, gc=False):
    """A Responses ``function_call`` item (an id and status, when given, strings)."""

    call_id: str
    name: str
    arguments: str
    id: str = ""
    status: str = ""


class ResponsesInputDetails(Struct, forbid_unknown_fields=True, gc=False):
    """Responses ``input_tokens_details`` of integer counts (the reader checks it holds one)."""

    cached_tokens: int = None  # type: ignore[assignment]
    cache_write_tokens: int = None  # type: ignore[assignment]


class ResponsesOutputDetails(Struct, forbid_unknown_fields=True, gc=False):
    """Responses ``output_tokens_details`` of integer counts (the reader checks it holds one)."""

    reasoning_tokens: int = None  # type: ignore[assignment]


class ResponsesUsage(Struct, forbid_unknown_fields=True, gc=False):
    """A Responses ``usage`` of integer counts and details of integer counts only."""

    input_tokens: int = None  # type: ignore[assignment]
    output_tokens: int = None  # type: ignore[assignment]
    total_tokens: int = None  # type: ignore[assignment]
    input_tokens_details: ResponsesInputDetails = None  # type: ignore[assignment]
    output_tokens_details: ResponsesOutputDetails = None  # type: ignore[assignment]


class ResponsesResponse(Struct, gc=False):
    """A Responses ``response`` (its other fields let be, as the reader lets them: the request
    echo fields and those the decoder does not name)."""

    id: str
    object: Literal["response"]
    model: str
    status: str
    output: list[ResponsesMessage | ResponsesCall]
    error: None = None
    incomplete_details: Any = None
    created_at: Any = None
    usage: ResponsesUsage | None = None


class BedrockToolUse(Struct, forbid_unknown_fields=True, gc=False):
    """A Bedrock ``toolUse`` block's body: an id, a name and an object input (named as
    :class:`GeminiCall`'s fields)."""

    id: str = field(name="toolUseId")
    name: str
    args: dict[str, Any] = field(name="input")


class BedrockBlock(Struct, omit_defaults=True, forbid_unknown_fields=True, gc=False):
    """A Bedrock content block of a ``text`` or a ``toolUse`` (the reader checks it holds one:
    blocks are not tagged; named as :class:`GeminiPart`'s fields). A field left out is ``None``
    and encodes as left out (``null`` is not of its type), so that the block encodes as the
    object it was decoded from."""

    text: str = None  # type: ignore[assignment]
    call: BedrockToolUse = field(default=None, name="toolUse")  # type: ignore[assignment]


class BedrockMessage(Struct, forbid_unknown_fields=True, gc=False):
    """A Bedrock ``output.message`` of the assistant."""

    role: Literal["assistant"]
    content: list[BedrockBlock]


class BedrockOutput(Struct, forbid_unknown_fields=True, gc=False):
    """A Bedrock ``output``: its message."""

    message: BedrockMessage


class BedrockUsage(Struct, rename="camel", omit_defaults=True, forbid_unknown_fields=True, gc=False):
    """A Bedrock ``usage`` of its three integer counts and integer cache counts (each may be
    left out, none ``null``: a cache count left out is ``None`` and encodes as left out)."""

    input_tokens: int
    output_tokens: int
    total_tokens: int
    cache_read_input_tokens: int = None  # type: ignore[assignment]
    cache_write_input_tokens: int = None  # type: ignore[assignment]


class BedrockResponse(Struct, rename="camel", forbid_unknown_fields=True, gc=False):
    """A Bedrock ``Converse`` response of the fields the reader takes, no other; the metrics
    JSON as it came (only hashed). A usage or metrics left out is ``UNSET``, which encodes as
    left out, and a ``null`` one ``None``, kept, so that the response encodes, keys sorted, as
    the object it was decoded from (its id is a hash of that:
    ``formats.bedrock_converse.response.body_id``)."""

    output: BedrockOutput
    stop_reason: str
    usage: BedrockUsage | None = UNSET  # type: ignore[assignment]
    metrics: Any = UNSET
