"""Tool-call arguments parsed so far, from a stream's IR events (re-exported by :mod:`toolwire.streaming`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolwire._partial_parser import PartialParser
from toolwire.ir.content import ToolCall
from toolwire.ir.stream import PartEnd, PartStart, StreamEvent, ToolCallDelta

__all__ = ["ArgumentsView"]


class ArgumentsView:
    """Follows IR stream events and offers each tool call's arguments parsed so far.

    ``parsed(index)`` is ``parse_partial(text(index))`` at every step, but costs only the new
    text: each call's arguments have an incremental parser (:mod:`toolwire._partial_parser`)
    that keeps completed values and rebuilds only the unfinished item at the end. So the value it
    returns is shared and live: later events update it in place (the root and complete values
    stay the same objects; the unfinished last item is rebuilt). Read it (render it, serialize
    it), don't change it; ``copy.deepcopy`` it to keep a snapshot.

    Example:
        >>> view = ArgumentsView()
        >>> for event in ir_events:           # doctest: +SKIP
        ...     view.feed(event)
        ...     render(view.parsed(0))
    """

    __slots__ = ("_appends", "_calls")

    def __init__(self) -> None:
        self._calls: dict[int, PartialParser] = {}
        self._appends: dict[int, Callable[[str], None]] = {}  # each call's PartialParser.feed_raw

    def feed(self, event: StreamEvent) -> None:
        """Apply one IR event."""
        if type(event) is ToolCallDelta or isinstance(event, ToolCallDelta):
            try:  # the hot lane: one dict lookup and an append
                self._appends[event.index](event.arguments)
            except KeyError:
                self._restart(event.index, event.arguments)
        elif isinstance(event, PartStart) and isinstance(event.part, ToolCall):
            self._restart(event.index, event.part.arguments)
        elif isinstance(event, PartEnd) and isinstance(event.part, ToolCall):
            call = self._calls.get(event.index)
            if call is None or call.text() != event.part.arguments:
                self._restart(event.index, event.part.arguments)

    def _restart(self, index: int, arguments: str) -> None:
        call = self._calls[index] = PartialParser()
        call.feed(arguments)
        self._appends[index] = call.feed_raw

    def text(self, index: int) -> str:
        """The raw argument text of the tool call at ``index`` so far."""
        call = self._calls.get(index)
        return call.text() if call is not None else ""

    def parsed(self, index: int) -> Any:
        """The arguments of the tool call at ``index`` as far as they have arrived (partial JSON).

        Equal to ``parse_partial(self.text(index))``; shared with later calls (see the class).
        """
        call = self._calls.get(index)
        return call.value() if call is not None else None
