"""Google Gemini ``generateContent`` (REST JSON) codec, format name ``gemini``.

Requests, responses, errors, tool definitions and tool choice, both directions, for the
Gemini Developer API and Vertex AI bodies (camelCase, snake_case accepted). Same-format
round trips are lossless (``extra`` and ``~`` hints); conversions from other formats
produce valid Gemini payloads and note every loss. The model lives in the URL: see
:func:`model_path` and :func:`endpoint_path`.
"""

from __future__ import annotations

from toolwire.formats import Codec
from toolwire.formats.gemini._messages import record_request as record_request
from toolwire.formats.gemini.errors import decode_error, encode_error, error_to_exception
from toolwire.formats.gemini.request import decode_request, encode_request, endpoint_path, model_path
from toolwire.formats.gemini.response import decode_response, encode_response
from toolwire.formats.gemini.response import record_response as record_response
from toolwire.formats.gemini.stream import StreamDecoder, StreamEncoder, check_stream
from toolwire.formats.gemini.tools import (
    SchemaMode,
    decode_tool_choice,
    decode_tool_config,
    decode_tools,
    encode_tool_choice,
    encode_tool_config,
    encode_tools,
)

__all__ = [
    "CODEC",
    "SchemaMode",
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
    "model_path",
]

CODEC = Codec(
    name="gemini",
    decode_tools=decode_tools,
    encode_tools=encode_tools,
    decode_tool_config=decode_tool_config,
    encode_tool_config=encode_tool_config,
)
"""The Gemini codec."""
