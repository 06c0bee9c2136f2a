"""The runners: call the model, run its tool calls, send the results back, until it answers.

``run`` / ``arun`` return a :class:`RunResult`; ``run_stream`` / ``arun_stream`` yield the model's
canonical stream events as they arrive plus :class:`ToolResultEvent`, :class:`TurnEnd` and a final
:class:`RunEnd`. All four drive the same :class:`~toolwire.runner._loop.RunState`.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Iterable, Iterator
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from toolwire.hooks import ConversionInfo, Observer, emit
from toolwire.ir.accumulate import Accumulator
from toolwire.ir.content import ToolCall, ToolResult
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request
from toolwire.ir.response import Response
from toolwire.ir.stream import StreamEvent
from toolwire.runner._execute import Approver, execute_async, execute_sync
from toolwire.runner._loop import Hooks, RunResult, RunState
from toolwire.runner._toolbox import Toolbox

__all__ = ["RunEnd", "RunEvent", "ToolResultEvent", "TurnEnd", "arun", "arun_stream", "run", "run_stream"]


@dataclass(frozen=True, slots=True)
class ToolResultEvent:
    """A tool call of the current turn finished (results arrive in call order)."""

    call: ToolCall
    result: ToolResult


@dataclass(frozen=True, slots=True)
class TurnEnd:
    """The model finished one turn; ``response`` is that turn's accumulated response."""

    turn: int
    response: Response


@dataclass(frozen=True, slots=True)
class RunEnd:
    """The run is over."""

    result: RunResult


RunEvent = StreamEvent | ToolResultEvent | TurnEnd | RunEnd
"""What the streaming runners yield."""


class _Creates(Protocol):
    """What :func:`run` calls: a :class:`toolwire.Client` (``create`` returns a ``Result``)."""

    def create(self, request: Request, /) -> object: ...


class _ACreates(Protocol):
    """What :func:`arun` calls: a :class:`toolwire.AsyncClient`."""

    def create(self, request: Request, /) -> Awaitable[object]: ...


class _Streams(Protocol):
    """What :func:`run_stream` calls: a :class:`toolwire.Client`."""

    def stream(self, request: Request, /) -> AbstractContextManager[Iterable[StreamEvent]]: ...


class _AsyncEvents(AbstractAsyncContextManager[object], AsyncIterable[StreamEvent], Protocol):
    """An :class:`~toolwire.client.AsyncStream`: entered, then iterated itself."""


class _AStreams(Protocol):
    """What :func:`arun_stream` calls: a :class:`toolwire.AsyncClient`."""

    def stream(self, request: Request, /) -> Awaitable[_AsyncEvents]: ...


def _format_of(client: Any) -> str:
    """The wire format a client speaks (``client.core.format`` for toolwire clients)."""
    fmt = getattr(getattr(client, "core", client), "format", None)
    if not isinstance(fmt, str):
        raise TypeError("the client must be a toolwire Client/AsyncClient (or have a 'format' attribute)")
    return fmt


def _observer_of(client: Any, observer: Observer | None) -> Observer | None:
    """The observer of a run: the one given, else the client's (``client.core.observer``)."""
    if observer is not None:
        return observer
    found = getattr(getattr(client, "core", None), "observer", None)
    return found if isinstance(found, Observer) else None


def _start(
    client: Any,
    request: Request | dict[str, Any],
    toolbox: Toolbox,
    max_turns: int,
    hooks: Hooks | None,
    observer: Observer | None,
) -> RunState:
    if isinstance(request, dict):
        from toolwire.translate import format_module

        fmt, notes, started = _format_of(client), Notes("warn"), time.time_ns()
        decoded: Request = format_module(fmt).decode_request(request, notes)
        info = ConversionInfo(fmt, "ir", "request", tuple(notes), started, time.time_ns())
        emit(observer, "on_conversion", info)
        return RunState(decoded, toolbox, max_turns, hooks or Hooks())
    return RunState(request, toolbox, max_turns, hooks or Hooks())


def _response_of(result: Any) -> Response:
    if isinstance(result, Response):
        return result
    response = getattr(result, "response", None)
    if not isinstance(response, Response):
        raise TypeError("client.create must return a toolwire Response or an object with .response")
    return response


def run(
    client: _Creates,
    request: Request | dict[str, Any],
    toolbox: Toolbox,
    *,
    max_turns: int = 10,
    hooks: Hooks | None = None,
    approve: Approver | None = None,
    max_concurrency: int = 8,
    tool_timeout: float = 60.0,
    observer: Observer | None = None,
) -> RunResult:
    """Carry a conversation to the model's final answer, running its tool calls in between.

    Args:
        client: a :class:`toolwire.client.Client` (anything with ``format`` and ``create``).
        request: the first request, canonical or in the client's wire format.
        toolbox: the tools that may run (added to the request's tools when missing).
        max_turns: the most model calls; reaching it ends the run with ``stop="max_turns"``.
        hooks: callbacks to observe or change each turn.
        approve: decides calls of tools marked ``needs_approval`` (refused when absent).
        max_concurrency: tool calls of one turn running at once.
        tool_timeout: seconds a tool call may take unless its registration says otherwise.
        observer: hears each tool run (:mod:`toolwire.hooks`); default: the client's observer,
            which also hears the model calls. Tracing never changes the run; to change turns,
            use ``hooks``.

    Returns:
        The outcome; ``result.usage`` sums the tokens of every turn, ``result.cost(prices)``
        prices them.
    """
    observer = _observer_of(client, observer)
    state = _start(client, request, toolbox, max_turns, hooks, observer)
    while not state.done:
        calls = state.take_response(_response_of(client.create(state.next_request())))
        if calls:
            results = execute_sync(
                calls,
                toolbox,
                approve=approve,
                max_concurrency=max_concurrency,
                timeout=tool_timeout,
                observer=observer,
            )
            state.take_results(calls, results)
    return state.result()


async def arun(
    client: _ACreates,
    request: Request | dict[str, Any],
    toolbox: Toolbox,
    *,
    max_turns: int = 10,
    hooks: Hooks | None = None,
    approve: Approver | None = None,
    max_concurrency: int = 8,
    tool_timeout: float = 60.0,
    observer: Observer | None = None,
) -> RunResult:
    """Async :func:`run` (``client`` is a :class:`toolwire.client.AsyncClient`)."""
    observer = _observer_of(client, observer)
    state = _start(client, request, toolbox, max_turns, hooks, observer)
    while not state.done:
        calls = state.take_response(_response_of(await client.create(state.next_request())))
        if calls:
            results = await execute_async(
                calls,
                toolbox,
                approve=approve,
                max_concurrency=max_concurrency,
                timeout=tool_timeout,
                observer=observer,
            )
            state.take_results(calls, results)
    return state.result()


def run_stream(
    client: _Streams,
    request: Request | dict[str, Any],
    toolbox: Toolbox,
    *,
    max_turns: int = 10,
    hooks: Hooks | None = None,
    approve: Approver | None = None,
    max_concurrency: int = 8,
    tool_timeout: float = 60.0,
    observer: Observer | None = None,
) -> Iterator[RunEvent]:
    """Like :func:`run`, yielding stream events as they arrive; the last event is :class:`RunEnd`."""
    observer = _observer_of(client, observer)
    state = _start(client, request, toolbox, max_turns, hooks, observer)
    while not state.done:
        acc = Accumulator()
        with client.stream(state.next_request()) as stream:
            for event in stream:
                acc.feed(event)
                yield event
        response = acc.response()
        calls = state.take_response(response)
        yield TurnEnd(state.turns, state.last or response)
        if calls:
            results = execute_sync(
                calls,
                toolbox,
                approve=approve,
                max_concurrency=max_concurrency,
                timeout=tool_timeout,
                observer=observer,
            )
            state.take_results(calls, results)
            yield from (ToolResultEvent(c, r) for c, r in zip(calls, results, strict=True))
    yield RunEnd(state.result())


async def arun_stream(
    client: _AStreams,
    request: Request | dict[str, Any],
    toolbox: Toolbox,
    *,
    max_turns: int = 10,
    hooks: Hooks | None = None,
    approve: Approver | None = None,
    max_concurrency: int = 8,
    tool_timeout: float = 60.0,
    observer: Observer | None = None,
) -> AsyncIterator[RunEvent]:
    """Async :func:`run_stream`."""
    observer = _observer_of(client, observer)
    state = _start(client, request, toolbox, max_turns, hooks, observer)
    while not state.done:
        acc = Accumulator()
        stream = await client.stream(state.next_request())
        async with stream:
            async for event in stream:
                acc.feed(event)
                yield event
        response = acc.response()
        calls = state.take_response(response)
        yield TurnEnd(state.turns, state.last or response)
        if calls:
            results = await execute_async(
                calls,
                toolbox,
                approve=approve,
                max_concurrency=max_concurrency,
                timeout=tool_timeout,
                observer=observer,
            )
            state.take_results(calls, results)
            for c, r in zip(calls, results, strict=True):
                yield ToolResultEvent(c, r)
    yield RunEnd(state.result())
