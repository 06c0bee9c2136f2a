"""Amazon Bedrock Converse (``POST /model/{modelId}/converse``) codec, format name ``bedrock-converse``.

Requests, responses, errors, tool definitions and tool choice, both directions. The model
lives in the URL (like Gemini's): decoders take it as an argument. Same-format round trips
are lossless (``extra`` and ``~`` hints); conversions from other formats produce valid Bedrock
payloads and note every loss. Shared tables (stop reasons, usage, block kinds, media formats,
error types) are in :mod:`._keys`, read by the ConverseStream codec as well.
"""

from __future__ import annotations

from toolwire.formats import Codec
from toolwire.formats.bedrock_converse._origins import record_request as record_request
from toolwire.formats.bedrock_converse._origins import record_response as record_response
from toolwire.formats.bedrock_converse.errors import decode_error, encode_error, error_to_exception
from toolwire.formats.bedrock_converse.request import decode_request, encode_request, endpoint_path
from toolwire.formats.bedrock_converse.response import decode_response, encode_response
from toolwire.formats.bedrock_converse.stream import StreamDecoder, StreamEncoder, check_stream
from toolwire.formats.bedrock_converse.tools import (
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
    "endpoint_path",
    "error_to_exception",
]

CODEC = Codec(
    name="bedrock-converse",
    decode_tools=decode_tools,
    encode_tools=encode_tools,
    decode_tool_config=decode_tool_config,
    encode_tool_config=encode_tool_config,
)
"""The Bedrock Converse codec."""
