"""Sans-IO stream framing: bytes in, events out (and back), in the style of h11.

- :class:`SSEDecoder` / :class:`SSEEncoder`: server-sent events (OpenAI, Anthropic, Gemini
  ``alt=sse``), WHATWG parsing rules, chunk splits at any byte.
- :class:`JSONArrayDecoder` / :class:`JSONArrayEncoder`: a top-level JSON array streamed element by
  element (Gemini ``streamGenerateContent`` without ``alt=sse``).
- :class:`NDJSONDecoder` / :func:`encode_ndjson`: newline-delimited JSON.

Every decoder has ``feed(data: bytes) -> list[...]`` and ``close() -> list[...]``; none does I/O.
"""

from toolwire.framing.jsonarray import JSONArrayDecoder, JSONArrayEncoder
from toolwire.framing.ndjson import NDJSONDecoder, encode_ndjson
from toolwire.framing.sse import DEFAULT_MAX_SIZE, SSEDecoder, SSEEvent, is_done
from toolwire.framing.sse_encoder import DONE, SSEEncoder, encode_comment, encode_sse

__all__ = [
    "DEFAULT_MAX_SIZE",
    "DONE",
    "JSONArrayDecoder",
    "JSONArrayEncoder",
    "NDJSONDecoder",
    "SSEDecoder",
    "SSEEncoder",
    "SSEEvent",
    "encode_comment",
    "encode_ndjson",
    "encode_sse",
    "is_done",
]
