"""Sans-IO stream framing: bytes in, events out (and back), in the style of h11.

- :class:`SSEDecoder` / :class:`SSEEncoder`: server-sent events (OpenAI, Anthropic, Gemini
  ``alt=sse``), WHATWG parsing rules, chunk splits at any byte.
- :class:`JSONArrayDecoder` / :class:`JSONArrayEncoder`: a top-level JSON array streamed element by
  element (Gemini ``streamGenerateContent`` without ``alt=sse``).
- :class:`NDJSONDecoder` / :func:`encode_ndjson`: newline-delimited JSON.
- :class:`EventStreamDecoder` / :func:`encode_message`: AWS event-stream binary messages
  (Bedrock ``ConverseStream``), CRC-checked.

Every decoder has ``feed(data: bytes) -> list[...]`` and ``close() -> list[...]``; none does I/O.
"""

from toolwire.framing.aws_eventstream import EventMessage, EventStreamDecoder, HeaderValue, encode_message
from toolwire.framing.jsonarray import JSONArrayDecoder, JSONArrayEncoder
from toolwire.framing.ndjson import NDJSONDecoder, encode_ndjson
from toolwire.framing.sse import DEFAULT_MAX_SIZE, SSEDecoder, SSEEvent, is_done
from toolwire.framing.sse_encoder import DONE, SSEEncoder, encode_comment, encode_sse

__all__ = [
    "DEFAULT_MAX_SIZE",
    "DONE",
    "EventMessage",
    "EventStreamDecoder",
    "HeaderValue",
    "JSONArrayDecoder",
    "JSONArrayEncoder",
    "NDJSONDecoder",
    "SSEDecoder",
    "SSEEncoder",
    "SSEEvent",
    "encode_comment",
    "encode_message",
    "encode_ndjson",
    "encode_sse",
    "is_done",
]
