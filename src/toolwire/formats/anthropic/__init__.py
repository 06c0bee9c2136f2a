"""Anthropic Messages API (``/v1/messages``) codec, format name ``anthropic``.

Requests, responses, errors, tool definitions and tool choice, both directions, and streams
(``StreamDecoder``, ``StreamEncoder``, ``check_stream``).
Same-format round trips are lossless (``extra`` and ``~`` hints, opaque blocks kept by
position); conversions from other formats produce valid Messages payloads (``max_tokens``
synthesized, system hoisted, tool results at the start of the next user turn, thinking
replayed only with its Anthropic signature) and note every loss.
"""

from __future__ import annotations

from toolwire.formats import Codec
from toolwire.formats.anthropic._decode_messages import record_request as record_request
from toolwire.formats.anthropic._decode_messages import record_response as record_response
from toolwire.formats.anthropic.errors import decode_error, encode_error, error_to_exception
from toolwire.formats.anthropic.request import decode_request, encode_request
from toolwire.formats.anthropic.response import decode_response, encode_response
from toolwire.formats.anthropic.stream import StreamDecoder, StreamEncoder, check_stream
from toolwire.formats.anthropic.tools import (
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
    name="anthropic",
    decode_tools=decode_tools,
    encode_tools=encode_tools,
    decode_tool_config=decode_tool_config,
    encode_tool_config=encode_tool_config,
)
"""The Anthropic Messages codec."""
