"""Responses streaming: ``StreamDecoder``, ``StreamEncoder`` and ``check_stream``.

The wire events are the parsed SSE ``data`` objects of ``POST /v1/responses`` with
``stream: true``; each is sent as a named SSE event whose name equals its ``type``. The
decoder is in :mod:`._stream_decode`, the encoder in :mod:`._stream_encode` (its items in
:mod:`._stream_items`), the event-order validator (transition tables) in :mod:`._stream_check`.
"""

from __future__ import annotations

from toolwire.formats.openai_responses._stream_check import ITEM_TABLE, RESPONSE_TABLE, check_stream
from toolwire.formats.openai_responses._stream_decode import StreamDecoder
from toolwire.formats.openai_responses._stream_encode import StreamEncoder

__all__ = ["ITEM_TABLE", "RESPONSE_TABLE", "StreamDecoder", "StreamEncoder", "check_stream"]
