"""Chat Completions streaming (``stream: true``): decoder, encoder and event-order checker.

A Chat stream is a sequence of unnamed SSE events whose data is a ``chat.completion.chunk``
object, an ``{"error": {...}}`` object, or the terminator ``[DONE]``. Wire events here are
those data values parsed (``"[DONE]"`` stays a string); see :mod:`toolwire.formats._stream`.

- :class:`StreamDecoder`: chunks -> canonical stream events (choice 0; see
  :mod:`~toolwire.formats.openai_chat._stream_decode` for every decision, e.g. a stream with a
  ``finish_reason`` but no ``[DONE]`` counts as complete).
- :class:`StreamEncoder`: canonical events of any format -> chunks, ``[DONE]`` last.
- :func:`check_stream`: the legal event order as a transition table, plus chunk invariants.
"""

from __future__ import annotations

from toolwire.formats.openai_chat._stream_check import check_stream
from toolwire.formats.openai_chat._stream_decode import StreamDecoder
from toolwire.formats.openai_chat._stream_encode import StreamEncoder

__all__ = ["StreamDecoder", "StreamEncoder", "check_stream"]
