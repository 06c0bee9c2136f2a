"""A canonical event stream from a complete response, as a model would stream it.

Each part becomes ``PartStart`` (a skeleton), deltas of ``chunk_size`` characters, and
``PartEnd`` with the final part; then ``UsageUpdate`` and ``ResponseEnd``. Feeding the events
to :func:`toolwire.ir.accumulate.accumulate` gives back the response.
"""

from __future__ import annotations

from collections.abc import Iterator

from toolwire.ir import (
    Format,
    Part,
    PartEnd,
    PartStart,
    ReasoningDelta,
    ReasoningPart,
    RefusalPart,
    Response,
    ResponseEnd,
    ResponseStart,
    StreamEvent,
    TextDelta,
    TextPart,
    ToolCall,
    ToolCallDelta,
    UsageUpdate,
)

__all__ = ["response_events"]


def _chunks(text: str, size: int) -> Iterator[str]:
    for start in range(0, len(text), size):
        yield text[start : start + size]


def _part_events(index: int, part: Part, size: int) -> Iterator[StreamEvent]:
    if isinstance(part, (TextPart, RefusalPart)):
        skeleton: Part = TextPart(text="") if isinstance(part, TextPart) else RefusalPart(text="")
        yield PartStart(index=index, part=skeleton)
        for chunk in _chunks(part.text, size):
            yield TextDelta(index=index, text=chunk)
    elif isinstance(part, ToolCall):
        yield PartStart(index=index, part=ToolCall(name=part.name, id=part.id, kind=part.kind))
        for chunk in _chunks(part.arguments, size):
            yield ToolCallDelta(index=index, arguments=chunk)
    elif isinstance(part, ReasoningPart):
        yield PartStart(index=index, part=ReasoningPart(id=part.id, origin=part.origin))
        for chunk in _chunks(part.text or "", size):
            yield ReasoningDelta(index=index, text=chunk)
        for n, summary in enumerate(part.summary):
            for chunk in _chunks(summary, size):
                yield ReasoningDelta(index=index, summary=chunk, summary_index=n)
        if part.signature is not None:
            yield ReasoningDelta(index=index, signature=part.signature)
    else:
        yield PartStart(index=index, part=part)
    yield PartEnd(index=index, part=part)


def response_events(
    response: Response, chunk_size: int = 12, *, origin: Format | None = None
) -> Iterator[StreamEvent]:
    """The canonical stream of ``response``, deltas cut every ``chunk_size`` characters.

    ``origin`` overrides the response's origin on the ``ResponseStart`` (a provider streaming
    its own answer sets it to its format, so the encoder emits the native fields).
    """
    size = max(1, chunk_size)
    start_origin = origin if origin is not None else response.origin
    yield ResponseStart(id=response.id, origin=start_origin, model=response.model, created=response.created)
    for index, part in enumerate(response.parts):
        yield from _part_events(index, part, size)
    if response.usage is not None:
        yield UsageUpdate(usage=response.usage)
    yield ResponseEnd(
        stop_reason=response.stop_reason,
        raw_stop_reason=response.raw_stop_reason,
        usage=response.usage,
        status=response.status,
    )
