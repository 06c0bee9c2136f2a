"""OpenAI Chat Completions (``/v1/chat/completions``) codec, format name ``openai-chat``.

Requests (incl. legacy function calling), responses, streams, errors, tool definitions
and tool choice, both directions. Same-format round trips are lossless (``extra`` and ``~`` hints);
conversions from other formats produce valid Chat payloads and note every loss.
"""

from __future__ import annotations

from toolwire.formats import Codec
from toolwire.formats.openai_chat._ids import mistral_call_id
from toolwire.formats.openai_chat._origins import record_request as record_request
from toolwire.formats.openai_chat._origins import record_response as record_response
from toolwire.formats.openai_chat.errors import decode_error, encode_error, error_to_exception
from toolwire.formats.openai_chat.request import decode_request, encode_request
from toolwire.formats.openai_chat.response import decode_response, encode_response
from toolwire.formats.openai_chat.stream import StreamDecoder, StreamEncoder, check_stream
from toolwire.formats.openai_chat.tools import (
    decode_tool_choice,
    decode_tool_config,
    decode_tools,
    encode_tool_choice,
    encode_tool_config,
    encode_tools,
)

__all__ = [
    "CODEC",
    "StreamDecoder",
    "StreamEncoder",
    "check_stream",
    "decode_error",
    "decode_request",
    "decode_response",
    "decode_tool_choice",
    "decode_tool_config",
    "decode_tools",
    "encode_error",
    "encode_request",
    "encode_response",
    "encode_tool_choice",
    "encode_tool_config",
    "encode_tools",
    "error_to_exception",
    "mistral_call_id",
]

CODEC = Codec(
    name="openai-chat",
    decode_tools=decode_tools,
    encode_tools=encode_tools,
    decode_tool_config=decode_tool_config,
    encode_tool_config=encode_tool_config,
)
"""The Chat Completions codec."""
