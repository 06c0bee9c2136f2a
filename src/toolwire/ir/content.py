"""Message content in the canonical model: parts, tool calls, tool results, reasoning."""

from __future__ import annotations

from typing import Literal

import msgspec

from toolwire.ir.base import Extra, Format, IRStruct

__all__ = [
    "AudioPart",
    "ContentPart",
    "FilePart",
    "ImagePart",
    "Message",
    "Part",
    "ReasoningPart",
    "RefusalPart",
    "Role",
    "TextPart",
    "ToolCall",
    "ToolCallKind",
    "ToolResult",
]

Role = Literal["system", "developer", "user", "assistant", "tool"]
ToolCallKind = Literal["function", "custom", "builtin"]


class TextPart(IRStruct, frozen=True, tag="text"):
    """Plain text.

    Attributes:
        text: the text.
        thought_signature: Gemini ``thoughtSignature`` carried on this part (replayed
            only to Gemini).
    """

    text: str
    thought_signature: str | None = None
    extra: Extra = msgspec.field(default_factory=dict)


class ImagePart(IRStruct, frozen=True, tag="image"):
    """An image, by URL, inline base64 data or provider file id.

    Attributes:
        url: an http(s) URL or a ``data:`` URL (kept as given).
        data: base64 data without a ``data:`` prefix.
        media_type: MIME type (``image/png``) when known.
        file_id: a provider file id.
        detail: OpenAI ``detail`` (``low``/``high``/``auto``).
    """

    url: str | None = None
    data: str | None = None
    media_type: str | None = None
    file_id: str | None = None
    detail: str | None = None
    extra: Extra = msgspec.field(default_factory=dict)


class FilePart(IRStruct, frozen=True, tag="file"):
    """A document or other file (PDF, text), by URL, inline data, text or file id."""

    url: str | None = None
    data: str | None = None
    text: str | None = None
    media_type: str | None = None
    file_id: str | None = None
    filename: str | None = None
    extra: Extra = msgspec.field(default_factory=dict)


class AudioPart(IRStruct, frozen=True, tag="audio"):
    """Audio as base64 data, with its format (``wav``, ``mp3``) or MIME type."""

    data: str
    format: str | None = None
    media_type: str | None = None
    extra: Extra = msgspec.field(default_factory=dict)


class RefusalPart(IRStruct, frozen=True, tag="refusal"):
    """A model refusal (OpenAI ``refusal``)."""

    text: str
    extra: Extra = msgspec.field(default_factory=dict)


class ReasoningPart(IRStruct, frozen=True, tag="reasoning"):
    """Model reasoning, readable and/or opaque.

    The opaque state is tagged with its ``origin`` and replayed only to that format:
    Anthropic ``signature`` / redacted ``data``, OpenAI ``encrypted_content`` and item
    ``id``, Gemini ``thoughtSignature``. It is never fabricated.

    Attributes:
        text: full reasoning text (Anthropic ``thinking``, Gemini thought text,
            Responses ``reasoning_text`` content).
        summary: Responses summary texts, one per ``summary_text`` entry.
        signature: Anthropic thinking signature or Gemini thought signature.
        redacted: Anthropic ``redacted_thinking`` data.
        encrypted: OpenAI ``encrypted_content``.
        id: OpenAI reasoning item id.
        origin: the format the opaque state belongs to.
    """

    text: str | None = None
    summary: tuple[str, ...] = ()
    signature: str | None = None
    redacted: str | None = None
    encrypted: str | None = None
    id: str | None = None
    origin: Format | None = None
    extra: Extra = msgspec.field(default_factory=dict)


class ToolCall(IRStruct, frozen=True, tag="tool_call"):
    """A call of a tool by the model.

    Attributes:
        id: the call id (Chat ``tool_calls[].id``, Responses ``call_id``, Anthropic
            ``tool_use.id``, Gemini ``functionCall.id``); ``None`` when the source had none.
        name: the tool name.
        arguments: the raw argument text, byte-exact as received. For function calls a
            JSON object text (``""`` means ``{}``); for custom tools free text.
        kind: ``function``, ``custom`` (free-form input) or ``builtin`` (provider tool).
        item_id: OpenAI Responses item id (``fc_...``), when the source had one.
        namespace: the Responses namespace of the called tool, when it had one.
        thought_signature: Gemini ``thoughtSignature`` on the functionCall part.
    """

    name: str
    arguments: str = ""
    id: str | None = None
    kind: ToolCallKind = "function"
    item_id: str | None = None
    namespace: str | None = None
    thought_signature: str | None = None
    extra: Extra = msgspec.field(default_factory=dict)


ContentPart = TextPart | ImagePart | FilePart | AudioPart | RefusalPart
"""Parts that may appear inside a tool result."""


class ToolResult(IRStruct, frozen=True, tag="tool_result"):
    """The result of a tool call, sent back to the model.

    Attributes:
        call_id: the id of the :class:`ToolCall` answered.
        name: the tool name when the format carries it (Gemini, legacy functions).
        content: the result as parts (text, images...). A plain string result is one
            :class:`TextPart` (the codec remembers the string form in ``extra``).
        is_error: ``True`` when the tool failed; ``None`` when the source did not say.
        kind: ``function`` or ``custom`` (Responses ``custom_tool_call_output``).
    """

    call_id: str | None
    content: tuple[ContentPart, ...] = ()
    name: str | None = None
    is_error: bool | None = None
    kind: ToolCallKind = "function"
    extra: Extra = msgspec.field(default_factory=dict)


Part = TextPart | ImagePart | FilePart | AudioPart | RefusalPart | ReasoningPart | ToolCall | ToolResult
"""Any part of a message."""


class Message(IRStruct, frozen=True):
    """One turn of a conversation.

    ``system`` and ``developer`` messages may appear anywhere (formats with a single
    top-level system slot hoist them). Tool results live in ``tool`` messages, one or
    more :class:`ToolResult` parts each; decoders may also leave them inside a ``user``
    message when the source put them there (Anthropic), and encoders accept both.

    Attributes:
        role: who speaks.
        parts: the content.
        name: participant name (Chat ``name``), when given.
        id: message item id (Responses ``msg_...``), when given.
    """

    role: Role
    parts: tuple[Part, ...] = ()
    name: str | None = None
    id: str | None = None
    extra: Extra = msgspec.field(default_factory=dict)
