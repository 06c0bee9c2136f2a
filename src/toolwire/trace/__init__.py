"""Traces of gateway calls: what the client sent, what went upstream, what came back, the notes.

Pure data (:mod:`toolwire.trace.record`); capturing lives in the gateway shell, keeping in the
store backends, showing in the gateway's ``/ui`` pages and ``toolwire trace``.
"""

from toolwire.trace.record import (
    TRACE_VERSION,
    TraceBody,
    TraceEvent,
    TraceLatency,
    TraceNote,
    TraceQuery,
    TraceRecord,
    TraceSummary,
    decode_trace,
    encode_trace,
)

__all__ = [
    "TRACE_VERSION",
    "TraceBody",
    "TraceEvent",
    "TraceLatency",
    "TraceNote",
    "TraceQuery",
    "TraceRecord",
    "TraceSummary",
    "decode_trace",
    "encode_trace",
]
