"""Bedrock ConverseStream: decoder, encoder and event-order checker.

A ConverseStream body is AWS event-stream binary (:mod:`toolwire.framing.aws_eventstream`);
a wire event here is one message as decoded JSON keyed by its event type,
``{"contentBlockDelta": {...}}``, as botocore yields it (see :mod:`._stream_frames`).

- :class:`StreamDecoder`: events -> canonical stream events (:mod:`._stream_decode`).
- :class:`StreamEncoder`: canonical events of any format -> events (:mod:`._stream_encode`).
- :func:`check_stream`: the legal event order as a transition table.
- :func:`wire_event` / :func:`encode_frame`: event-stream message <-> wire event.
"""

from __future__ import annotations

from toolwire.formats.bedrock_converse._stream_check import TRANSITIONS, check_stream
from toolwire.formats.bedrock_converse._stream_decode import StreamDecoder
from toolwire.formats.bedrock_converse._stream_encode import StreamEncoder
from toolwire.formats.bedrock_converse._stream_frames import CONTENT_TYPE, encode_frame, wire_event

__all__ = [
    "CONTENT_TYPE",
    "TRANSITIONS",
    "StreamDecoder",
    "StreamEncoder",
    "check_stream",
    "encode_frame",
    "wire_event",
]
