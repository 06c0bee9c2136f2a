"""Anthropic Messages streaming: decoder, encoder and event-order checker.

* :class:`StreamDecoder`: Anthropic SSE data (parsed JSON) -> canonical stream events.
* :class:`StreamEncoder`: canonical stream events from any format -> Anthropic events
  (one block at a time; interleaved parallel calls are buffered until their turn).
* :func:`check_stream`: the event grammar as a transition table, plus its invariants.

Events are named SSE events whose name equals the data's ``type``
(:func:`toolwire.formats._stream.sse_event_name`).
"""

from __future__ import annotations

from toolwire.formats.anthropic._stream_check import TRANSITIONS, check_stream
from toolwire.formats.anthropic._stream_decode import StreamDecoder
from toolwire.formats.anthropic._stream_encode import StreamEncoder

__all__ = ["TRANSITIONS", "StreamDecoder", "StreamEncoder", "check_stream"]
