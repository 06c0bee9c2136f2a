"""The conversation loop as a sans-IO state machine, shared by the sync and async runners.

:class:`RunState` knows what to send next and what a response means; drivers (``run``,
``arun``, their streaming variants) only move data between it, the client and the tools.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

import msgspec

from toolwire.errors import ToolwireError
from toolwire.ir.base import FormatName
from toolwire.ir.content import Message, ToolCall, ToolResult
from toolwire.ir.request import Request
from toolwire.ir.response import Response, Usage
from toolwire.runner._calls import not_run_result
from toolwire.runner._toolbox import Toolbox
from toolwire.usage import Prices, total_usage

__all__ = ["Hooks", "RunResult", "RunState", "RunUsageError", "StopKind"]

StopKind = Literal["completed", "max_turns"]
"""Why a run ended: the model answered without tool calls, or the turn limit was reached."""


class RunUsageError(ToolwireError, ValueError):
    """The runner was used out of its contract: ``max_turns`` below 1, or
    :meth:`RunState.result` asked for before the run ended."""


@dataclass(slots=True)
class Hooks:
    """Callbacks to observe or change each turn; each may return a replacement or ``None``.

    They run inside the loop and their exceptions end the run; to trace without changing anything
    (and without ever breaking the run) use an observer (:mod:`toolwire.hooks`).

    Attributes:
        before_request: ``(turn, request) -> Request | None`` before each model call; a
            replacement is sent, and later turns start from it (with the conversation so far).
        after_response: ``(turn, response) -> Response | None`` after each model answer.
        after_tool: ``(call, result) -> ToolResult | None`` after each tool call.
    """

    before_request: Callable[[int, Request], Request | None] | None = None
    after_response: Callable[[int, Response], Response | None] | None = None
    after_tool: Callable[[ToolCall, ToolResult], ToolResult | None] | None = None


@dataclass(frozen=True, slots=True)
class RunResult:
    """The outcome of a run.

    Attributes:
        response: the last model response (the final answer when ``stop == "completed"``).
        messages: the whole conversation in the canonical model, the final answer included.
        turns: how many model calls were made.
        stop: why the run ended.
        request: the last request sent (canonical model).
        responses: every model response of the run, one per turn.
    """

    response: Response
    messages: tuple[Message, ...]
    turns: int
    stop: StopKind
    request: Request
    responses: tuple[Response, ...] = ()

    @property
    def turns_usage(self) -> tuple[Usage, ...]:
        """The usage each turn reported, in order (an empty :class:`Usage` when a turn reported none)."""
        return tuple(r.usage or Usage() for r in self.responses)

    @property
    def usage(self) -> Usage:
        """The usage of the whole run: each count summed over the turns (see ``total_usage``)."""
        return total_usage(r.usage for r in self.responses)

    def cost(self, prices: Prices) -> Decimal:
        """The estimated cost of the run: each turn priced by the model that answered it.

        A turn's model is the one its response names, else the one requested.

        Raises:
            KeyError: a turn's model has no price in ``prices``.
        """
        return sum((prices.cost(r.usage, r.model or self.request.model) for r in self.responses), Decimal(0))

    @property
    def text(self) -> str:
        """The text of the last response."""
        return self.response.text

    def native(self, fmt: FormatName) -> dict[str, Any]:
        """The whole conversation as a request payload of format ``fmt`` (the provider's own)."""
        from toolwire.ir.notes import Notes
        from toolwire.translate import format_module

        conversation = msgspec.structs.replace(self.request, messages=self.messages)
        payload: dict[str, Any] = format_module(fmt).encode_request(conversation, Notes("drop"))
        return payload


@dataclass(slots=True)
class RunState:
    """Where a run stands: the conversation so far and the turn count."""

    request: Request
    toolbox: Toolbox
    max_turns: int
    hooks: Hooks = field(default_factory=Hooks)
    messages: list[Message] = field(default_factory=list)
    responses: list[Response] = field(default_factory=list)
    turns: int = 0
    last: Response | None = None
    stop: StopKind | None = None

    def __post_init__(self) -> None:
        if self.max_turns < 1:
            raise RunUsageError(f"max_turns must be at least 1 (got {self.max_turns})")
        self.messages = list(self.request.messages)
        known = {getattr(t, "name", None) for t in self.request.tools}
        extra_tools = tuple(t for t in self.toolbox.tools if t.name not in known)
        if extra_tools:
            self.request = msgspec.structs.replace(self.request, tools=(*self.request.tools, *extra_tools))

    def next_request(self) -> Request:
        """The request for the next model call."""
        request = msgspec.structs.replace(self.request, messages=tuple(self.messages))
        if self.hooks.before_request is not None:
            request = self.hooks.before_request(self.turns + 1, request) or request
        self.request = request
        return request

    def take_response(self, response: Response) -> list[ToolCall]:
        """Record a model answer; the tool calls to run (empty when the run is over).

        When the turn limit stops the run on a turn with tool calls, each call is answered with
        an error result ("not run: max_turns reached"), so the conversation stays a valid request
        to continue (``result.native(fmt)`` plus a user turn).
        """
        self.turns += 1
        if self.hooks.after_response is not None:
            response = self.hooks.after_response(self.turns, response) or response
        self.last = response
        self.responses.append(response)
        self.messages.append(Message(role="assistant", parts=response.parts))
        calls = response.tool_calls
        if not calls:
            self.stop = "completed"
        elif self.turns >= self.max_turns:
            self.stop = "max_turns"
            unanswered = tuple(not_run_result(c, "max_turns reached") for c in calls)
            self.messages.append(Message(role="tool", parts=unanswered))
            return []
        return calls

    def take_results(self, calls: list[ToolCall], results: list[ToolResult]) -> None:
        """Record the results of the calls, in the order of the calls.

        Raises:
            RunUsageError: not one result per call.
        """
        if len(results) != len(calls):
            raise RunUsageError(f"{len(results)} tool results for {len(calls)} tool calls: one per call")
        if self.hooks.after_tool is not None:
            results = [self.hooks.after_tool(c, r) or r for c, r in zip(calls, results, strict=True)]
        self.messages.append(Message(role="tool", parts=tuple(results)))

    @property
    def done(self) -> bool:
        """Whether the run has ended."""
        return self.stop is not None

    def result(self) -> RunResult:
        """The outcome of the ended run.

        Raises:
            RunUsageError: the run has not ended (check :attr:`done` first).
        """
        if self.last is None or self.stop is None:
            raise RunUsageError("the run has not ended: result() is available once done is true")
        return RunResult(
            self.last, tuple(self.messages), self.turns, self.stop, self.request, tuple(self.responses)
        )
