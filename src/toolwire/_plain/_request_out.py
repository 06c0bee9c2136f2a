"""Typed shapes of the request messages the lanes write, for the bytes API (issue 18).

``translate_request_bytes`` takes a lane's request with its conversation as these msgspec
Structs (each target's ``write_wire``, e.g. :func:`toolwire._plain.anthropic_write.write_wire`):
the writers' one loop builds a Struct where the dict API's writer builds a dict (the same
fields, in the same order), so the encoded bytes are those of the dict, and msgspec writes a
Struct's keys encoded once, from C. At 1,000 messages, building and encoding the Structs takes
about two thirds of the time of the dicts (fewer objects for the garbage collector: ``gc=False``,
a written conversation holds no cycle, its values come from a JSON body).

Kept Python (``pyproject``'s mypyc ``exclude``): msgspec Structs are not mypyc classes. The
values are typed ``Any``: a Struct does not check them when made, and the bytes are the dict's.
"""

from __future__ import annotations

from typing import Any

from msgspec import Struct

__all__ = [
    "AnthropicMessageOut",
    "AnthropicTextOut",
    "AnthropicToolResultOut",
    "AnthropicToolUseOut",
    "BedrockMessageOut",
    "BedrockTextOut",
    "BedrockToolResultBlockOut",
    "BedrockToolResultOut",
    "BedrockToolUseBlockOut",
    "BedrockToolUseOut",
    "ChatCallMessageOut",
    "ChatFunctionOut",
    "ChatMessageOut",
    "ChatToolCallOut",
    "ChatToolMessageOut",
    "GeminiArgsCallOut",
    "GeminiCallOut",
    "GeminiCallPartOut",
    "GeminiContentOut",
    "GeminiOutputOut",
    "GeminiResponseOut",
    "GeminiResponsePartOut",
    "GeminiTextOut",
]


class AnthropicMessageOut(Struct, gc=False):
    """``{"role", "content"}``: a message and its blocks."""

    role: Any
    content: Any  # a list, or a tuple (one item, or items added: the same JSON array)


class AnthropicTextOut(Struct, gc=False):
    """``{"type": "text", "text"}``."""

    type: Any
    text: Any


class AnthropicToolUseOut(Struct, gc=False):
    """``{"type": "tool_use", "id", "name", "input"}``."""

    type: Any
    id: Any
    name: Any
    input: Any


class AnthropicToolResultOut(Struct, gc=False):
    """``{"type": "tool_result", "tool_use_id", "content"}``."""

    type: Any
    tool_use_id: Any
    content: Any


class GeminiContentOut(Struct, gc=False):
    """``{"role", "parts"}``: a content and its parts."""

    role: Any
    parts: Any  # a list, or a tuple (one item, or items added: the same JSON array)


class GeminiTextOut(Struct, gc=False):
    """``{"text"}``."""

    text: Any


class GeminiArgsCallOut(Struct, gc=False):
    """``{"name", "args", "id"}``: a call with arguments."""

    name: Any
    args: Any
    id: Any


class GeminiCallOut(Struct, gc=False):
    """``{"name", "id"}``: a call without arguments (its text empty)."""

    name: Any
    id: Any


class GeminiCallPartOut(Struct, gc=False):
    """``{"functionCall"}``."""

    functionCall: Any  # the wire's name


class GeminiOutputOut(Struct, gc=False):
    """``{"output"}``: a text result wrapped."""

    output: Any


class GeminiResponseOut(Struct, gc=False):
    """``{"name", "id", "response"}``."""

    name: Any
    id: Any
    response: Any


class GeminiResponsePartOut(Struct, gc=False):
    """``{"functionResponse"}``."""

    functionResponse: Any  # the wire's name


class ChatMessageOut(Struct, gc=False):
    """``{"role", "content"}``: a Chat message of one text (system, developer, user, assistant)."""

    role: Any
    content: Any


class ChatCallMessageOut(Struct, gc=False):
    """``{"role": "assistant", "content", "tool_calls"}``: an assistant message with calls."""

    role: Any
    content: Any
    tool_calls: list[Any]


class ChatToolCallOut(Struct, gc=False):
    """``{"id", "type": "function", "function"}``."""

    id: Any
    type: Any
    function: Any


class ChatFunctionOut(Struct, gc=False):
    """``{"name", "arguments"}``."""

    name: Any
    arguments: Any


class ChatToolMessageOut(Struct, gc=False):
    """``{"role": "tool", "tool_call_id", "content"}``: the result of one call."""

    role: Any
    tool_call_id: Any
    content: Any


BedrockMessageOut = AnthropicMessageOut
"""A Bedrock message, ``{"role", "content"}``: the shape of Anthropic's."""

BedrockTextOut = GeminiTextOut
"""A Bedrock text block, ``{"text"}``: the shape of a Gemini text part."""


class BedrockToolUseOut(Struct, gc=False):
    """``{"toolUseId", "name", "input"}``."""

    toolUseId: Any  # the wire's name
    name: Any
    input: Any


class BedrockToolUseBlockOut(Struct, gc=False):
    """``{"toolUse"}``: a call's block."""

    toolUse: Any  # the wire's name


class BedrockToolResultOut(Struct, gc=False):
    """``{"toolUseId", "content"}``: a result of its content blocks."""

    toolUseId: Any  # the wire's name
    content: Any


class BedrockToolResultBlockOut(Struct, gc=False):
    """``{"toolResult"}``: a result's block."""

    toolResult: Any  # the wire's name
