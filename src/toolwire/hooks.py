"""Observers: callbacks that see client calls, conversions and tool runs, for tracing and metrics.

Subclass :class:`Observer`, override the methods you need, and pass an instance to
``Client(..., observer=...)`` (calls and their conversions) and to the runners
(``run(..., observer=...)``, tool runs; by default the runners use the client's observer).
:class:`Observers` sends each event to several observers; :mod:`toolwire.otel` turns events into
OpenTelemetry spans.

An observer only looks. Its methods are called synchronously, in the thread or task that did the
work, and an exception raised by one is logged (logger ``toolwire.hooks``, ERROR, traceback
included) and swallowed: tracing never breaks a call or a run. To *change* requests, responses or
tool results during a run, use :class:`toolwire.runner.Hooks` instead.

================== ============================================================================
method             called
================== ============================================================================
``on_conversion``  a shell translated a payload: the request into the provider's format (from
                   the IR or another format), the answer back into the IR
``on_request``     a client call is built and about to be sent (once per call, not per retry)
``on_response``    its answer is decoded; for a stream, once the stream has been read to its end
``on_error``       the call failed after its retries (or its stream broke off)
``on_tool_start``  a tool's function starts running
``on_tool_end``    a tool call's result is known: exactly once per call, also for calls refused,
                   invalid or timed out (those may have had no ``on_tool_start``)
================== ============================================================================

A stream closed before its end reports neither ``on_response`` nor ``on_error``. Nothing secret is
passed: :class:`CallInfo` holds the URL, never the headers.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from toolwire.ir.content import ToolCall, ToolResult
from toolwire.ir.notes import Note
from toolwire.ir.response import Response

__all__ = ["EVENTS", "CallInfo", "ConversionInfo", "EventName", "Observer", "Observers", "emit"]

EventName = Literal["on_conversion", "on_request", "on_response", "on_error", "on_tool_start", "on_tool_end"]
"""The names of :class:`Observer`'s methods."""

EVENTS: tuple[EventName, ...] = (
    "on_conversion",
    "on_request",
    "on_response",
    "on_error",
    "on_tool_start",
    "on_tool_end",
)
"""Every event an observer can receive."""

_log = logging.getLogger("toolwire.hooks")


@dataclass(frozen=True, slots=True, eq=False)
class CallInfo:
    """One client call, as passed to ``on_request``, ``on_response`` and ``on_error``.

    The same object is passed to all three, so it can key per-call state.

    Attributes:
        provider: the provider name (``anthropic``, ``azure-openai``...).
        format: the wire format sent (``anthropic``, ``openai-chat``...).
        model: the model requested.
        stream: whether the call streams.
        url: the request URL (credentials are never in it: they go in headers).
        source: the format of the payload passed in; ``None`` for an IR request.
        started_ns: when the call started (``time.time_ns()``).
    """

    provider: str
    format: str
    model: str | None
    stream: bool
    url: str
    source: str | None = None
    started_ns: int = field(default_factory=time.time_ns)


@dataclass(frozen=True, slots=True)
class ConversionInfo:
    """One conversion done by a shell, as passed to ``on_conversion``.

    Attributes:
        source: the format converted from, or ``"ir"``.
        target: the format converted to, or ``"ir"``.
        kind: ``"request"`` or ``"response"``.
        notes: what the conversion dropped or approximated.
        started_ns: when it started (``time.time_ns()``).
        ended_ns: when it ended.
    """

    source: str
    target: str
    kind: Literal["request", "response"]
    notes: tuple[Note, ...]
    started_ns: int
    ended_ns: int


class Observer:
    """Receives events; every method does nothing until overridden."""

    def on_conversion(self, conversion: ConversionInfo) -> None:
        """A shell converted a request or a response."""

    def on_request(self, call: CallInfo) -> None:
        """A client call is about to be sent."""

    def on_response(self, call: CallInfo, response: Response) -> None:
        """The call's answer, decoded (usage in ``response.usage``)."""

    def on_error(self, call: CallInfo, error: BaseException) -> None:
        """The call failed."""

    def on_tool_start(self, call: ToolCall) -> None:
        """A tool's function starts running for ``call``."""

    def on_tool_end(self, call: ToolCall, result: ToolResult, seconds: float) -> None:
        """``call``'s result is known; ``seconds`` it ran (0 when it never started)."""


class Observers(Observer):
    """Several observers as one: each event goes to each, in order, each failure isolated.

    Args:
        observers: the observers.
    """

    def __init__(self, observers: Sequence[Observer]) -> None:
        self.observers = tuple(observers)

    def on_conversion(self, conversion: ConversionInfo) -> None:
        for observer in self.observers:
            emit(observer, "on_conversion", conversion)

    def on_request(self, call: CallInfo) -> None:
        for observer in self.observers:
            emit(observer, "on_request", call)

    def on_response(self, call: CallInfo, response: Response) -> None:
        for observer in self.observers:
            emit(observer, "on_response", call, response)

    def on_error(self, call: CallInfo, error: BaseException) -> None:
        for observer in self.observers:
            emit(observer, "on_error", call, error)

    def on_tool_start(self, call: ToolCall) -> None:
        for observer in self.observers:
            emit(observer, "on_tool_start", call)

    def on_tool_end(self, call: ToolCall, result: ToolResult, seconds: float) -> None:
        for observer in self.observers:
            emit(observer, "on_tool_end", call, result, seconds)


def emit(observer: Observer | None, event: EventName, *args: object) -> None:
    """Call ``observer.<event>(*args)``; log and swallow what it raises. No-op without an observer."""
    if observer is None:
        return
    try:
        getattr(observer, event)(*args)
    except Exception:
        _log.exception("observer %s.%s raised; ignored", type(observer).__name__, event)
