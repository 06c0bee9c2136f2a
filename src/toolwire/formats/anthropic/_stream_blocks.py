"""What the Anthropic stream decoder (:mod:`._stream_decode`) keeps of a stream: the open content
block, and which deltas extend which blocks."""

from __future__ import annotations

from typing import Any

from toolwire._args_check import TRIM, ArgumentsCheck
from toolwire.formats._stream import Lent
from toolwire.ir.content import ToolCall
from toolwire.ir.stream import (
    ReasoningDelta,
    TextDelta,
    ToolCallDelta,
)

__all__ = ["CALL_BLOCKS", "DELTA_BLOCKS", "FAST_DELTAS", "Malformed", "OpenBlock", "TRIM_MASK", "UNHELD"]

UNHELD = frozenset({"text", "thinking"})
"""Block types whose streamed text is passed on, not held (see the module docstring)."""

CALL_BLOCKS = frozenset({"tool_use", "server_tool_use", "mcp_tool_use"})
"""Block types whose ``input`` streams as ``input_json_delta``."""

FAST_DELTAS: dict[str, tuple[str, str, type]] = {
    "text": ("text_delta", "text", TextDelta),
    "thinking": ("thinking_delta", "thinking", ReasoningDelta),
    **dict.fromkeys(CALL_BLOCKS, ("input_json_delta", "partial_json", ToolCallDelta)),
}
"""Block type -> its hot-path delta type, the delta's text field, the IR event (see ``feed``)."""

DELTA_BLOCKS: dict[str, frozenset[str]] = {
    "text_delta": frozenset({"text"}),
    "citations_delta": frozenset({"text"}),
    "input_json_delta": CALL_BLOCKS,
    "thinking_delta": frozenset({"thinking"}),
    "signature_delta": frozenset({"thinking"}),
    "compaction_delta": frozenset({"compaction"}),
}
"""Delta type -> the block types it may extend."""


class OpenBlock:
    """The open content block: its start, the chunks so far, and its IR index (None: opaque).

    A plain class, not a dataclass: compiled, its constructor is native (a dataclass's is
    generated Python, about 6,700 instructions per block, three blocks a benchmark stream).
    """

    __slots__ = (
        "call",
        "chunks",
        "citations",
        "dropped",
        "fast",
        "fast_args",
        "fast_event",
        "fast_field",
        "ir",
        "keep",
        "kind",
        "lent",
        "merged",
        "signature",
        "start",
        "wire",
    )

    def __init__(
        self,
        wire: int,
        start: dict[str, Any],
        kind: str,
        ir: int | None,
        *,
        keep: bool = True,
        merged: dict[str, Any] | None = None,
    ) -> None:
        self.wire = wire
        self.start = start
        self.kind = kind
        self.ir = ir
        self.chunks: list[str] | ArgumentsCheck = []
        """Text held to build the final part; a tool call's arguments in an :class:`ArgumentsCheck`
        when the decoder does not hold whole calls (``hold_calls``)."""
        self.keep = keep
        self.dropped = False
        self.citations: list[Any] = []
        self.signature: str | None = None
        self.merged: dict[str, Any] = merged if merged is not None else {}
        self.fast: str | None = None
        """The delta type decoded by the hot path of :meth:`StreamDecoder.feed` (None: no hot path)."""
        self.fast_field = ""
        """The field of that delta that carries its text."""
        self.fast_event: Any = None
        """The IR event that delta becomes: TextDelta, ReasoningDelta (text) or ToolCallDelta."""
        self.fast_args = False
        """That IR event is ToolCallDelta (tested per delta: a field, not a module global, compiled)."""
        self.lent: Lent | None = None
        """The encoder's part this block's deltas are written to (``borrow``; None: not asked yet)."""
        self.call: ToolCall | None = None
        """A ``tool_use`` block's call as its start decoded (arguments ``""``): its final part but
        for the arguments (``input`` is no field of the part's extra, see ``_finish_call``)."""


TRIM_MASK = TRIM - 1
"""Every TRIM events, an argument check held in bounded memory is trimmed (see ``hold_calls``)."""


class Malformed(Exception):
    """An event breaks the grammar (not its shape): reported as ``malformed_event``."""
