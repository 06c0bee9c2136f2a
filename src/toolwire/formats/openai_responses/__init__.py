"""OpenAI Responses API (``/v1/responses``) codec, format name ``openai-responses``.

Requests (instructions, input items, tools incl. custom and namespace tools, tool choice,
reasoning, structured output), response objects, errors, both directions. Same-format
round trips are lossless (``extra`` and ``~`` hints); conversions from other formats
produce valid Responses payloads and note every loss. Streams: :mod:`.stream`.
"""

from __future__ import annotations

from toolwire.formats import Codec
from toolwire.formats.openai_responses._origins import record_request as record_request
from toolwire.formats.openai_responses.errors import decode_error, encode_error, error_to_exception
from toolwire.formats.openai_responses.request import decode_request, encode_request
from toolwire.formats.openai_responses.response import decode_response, encode_response
from toolwire.formats.openai_responses.response import record_response as record_response
from toolwire.formats.openai_responses.stream import StreamDecoder, StreamEncoder, check_stream
from toolwire.formats.openai_responses.tools import (
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
]

CODEC = Codec(
    name="openai-responses",
    decode_tools=decode_tools,
    encode_tools=encode_tools,
    decode_tool_config=decode_tool_config,
    encode_tool_config=encode_tool_config,
)
"""The Responses API codec."""
