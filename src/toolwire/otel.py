"""OpenTelemetry spans for toolwire's observer events (needs the ``otel`` extra).

:class:`OpenTelemetryObserver` is an :class:`~toolwire.hooks.Observer`: pass it to
``Client(..., observer=...)`` and every model call, conversion and tool run becomes a span. Each
span is recorded when its work ends, with the start time the event carries, in the context of the
code that did the work (so it nests under the application's current span). Attribute names follow
the OpenTelemetry GenAI semantic conventions where one exists; the others are ``toolwire.*``.

=================== ====================================== =================================================
span                name                                   attributes
=================== ====================================== =================================================
model call (CLIENT) ``chat {model}``                       ``gen_ai.operation.name`` (``chat``),
                                                           ``gen_ai.system``, ``gen_ai.request.model``,
                                                           ``gen_ai.response.model``, ``gen_ai.response.id``,
                                                           ``gen_ai.response.finish_reasons``,
                                                           ``gen_ai.usage.input_tokens``,
                                                           ``gen_ai.usage.output_tokens``, ``server.address``,
                                                           ``toolwire.format``, ``toolwire.stream``,
                                                           ``error.type`` (on failure)
tool run (INTERNAL) ``execute_tool {name}``                ``gen_ai.operation.name`` (``execute_tool``),
                                                           ``gen_ai.tool.name``, ``gen_ai.tool.call.id``,
                                                           ``error.type`` (``tool_error``, on an error result)
conversion          ``toolwire.convert {kind}``            ``toolwire.conversion.source``/``.target``/
                                                           ``.kind``/``.notes`` (count); one span event
                                                           ``toolwire.note`` per note (path, kind, message)
=================== ====================================== =================================================

Nothing secret is recorded: no headers, no message contents, no tool arguments or results.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from toolwire._extras import require
from toolwire.hooks import CallInfo, ConversionInfo, Observer
from toolwire.ir.content import ToolCall, ToolResult
from toolwire.ir.response import Response

if TYPE_CHECKING:
    from opentelemetry.trace import Span, Tracer

__all__ = ["SYSTEMS", "OpenTelemetryObserver"]

SYSTEMS: dict[str, str] = {
    "openai-chat": "openai",
    "openai-responses": "openai",
    "azure-openai": "az.ai.openai",
    "anthropic": "anthropic",
    "gemini": "gcp.gemini",
}
"""Provider name -> ``gen_ai.system`` value (the semantic conventions' well-known values)."""


def _trace_api() -> Any:
    require("toolwire.otel", "opentelemetry.trace")  # names the otel extra when missing
    from opentelemetry import trace

    return trace


def _set(span: Span, attributes: dict[str, Any]) -> None:
    span.set_attributes({k: v for k, v in attributes.items() if v is not None})


class OpenTelemetryObserver(Observer):
    """Records toolwire's events as OpenTelemetry spans.

    Args:
        tracer: the tracer to use (default: ``opentelemetry.trace.get_tracer("toolwire")``).

    Raises:
        MissingDependencyError: ``opentelemetry-api`` is not installed (the ``otel`` extra);
            also an :class:`ImportError`.
    """

    def __init__(self, tracer: Tracer | None = None) -> None:
        self._trace = _trace_api()
        self.tracer: Tracer = tracer if tracer is not None else self._trace.get_tracer("toolwire")

    def _call_span(self, call: CallInfo) -> Span:
        span = self.tracer.start_span(
            f"chat {call.model}" if call.model else "chat",
            kind=self._trace.SpanKind.CLIENT,
            start_time=call.started_ns,
        )
        _set(
            span,
            {
                "gen_ai.operation.name": "chat",
                "gen_ai.system": SYSTEMS.get(call.provider, call.provider),
                "gen_ai.request.model": call.model,
                "server.address": urlsplit(call.url).hostname,
                "toolwire.format": call.format,
                "toolwire.stream": call.stream,
            },
        )
        return span

    def on_response(self, call: CallInfo, response: Response) -> None:
        span = self._call_span(call)
        usage = response.usage
        _set(
            span,
            {
                "gen_ai.response.model": response.model,
                "gen_ai.response.id": response.id,
                "gen_ai.response.finish_reasons": [response.raw_stop_reason]
                if response.raw_stop_reason
                else None,
                "gen_ai.usage.input_tokens": usage.input_tokens if usage else None,
                "gen_ai.usage.output_tokens": usage.output_tokens if usage else None,
            },
        )
        span.end()

    def on_error(self, call: CallInfo, error: BaseException) -> None:
        span = self._call_span(call)
        span.set_attribute("error.type", type(error).__qualname__)
        span.record_exception(error)
        span.set_status(self._trace.Status(self._trace.StatusCode.ERROR, type(error).__qualname__))
        span.end()

    def on_tool_end(self, call: ToolCall, result: ToolResult, seconds: float) -> None:
        end = time.time_ns()
        span = self.tracer.start_span(
            f"execute_tool {call.name}",
            kind=self._trace.SpanKind.INTERNAL,
            start_time=end - int(seconds * 1e9),
        )
        _set(
            span,
            {
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": call.name,
                "gen_ai.tool.call.id": call.id,
                "error.type": "tool_error" if result.is_error else None,
            },
        )
        if result.is_error:
            span.set_status(self._trace.Status(self._trace.StatusCode.ERROR, "tool_error"))
        span.end(end_time=end)

    def on_conversion(self, conversion: ConversionInfo) -> None:
        span = self.tracer.start_span(f"toolwire.convert {conversion.kind}", start_time=conversion.started_ns)
        _set(
            span,
            {
                "toolwire.conversion.source": conversion.source,
                "toolwire.conversion.target": conversion.target,
                "toolwire.conversion.kind": conversion.kind,
                "toolwire.conversion.notes": len(conversion.notes),
            },
        )
        for note in conversion.notes:
            span.add_event("toolwire.note", {"path": note.path, "kind": note.kind, "message": note.message})
        span.end(end_time=conversion.ended_ns)
