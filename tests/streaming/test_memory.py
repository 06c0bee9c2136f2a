"""Constant memory per stream: what a :class:`StreamTranslator` holds does not grow with the
number of text deltas, for targets that need no whole item (Chat, Gemini, Anthropic).

Two measures on synthetic Anthropic-, Chat- and Gemini-source streams of plain text deltas:

- the objects the translator retains (a deep size of everything reachable from it), taken on
  one stream after 2k and after 40k deltas;
- the ``tracemalloc`` peak of a whole translation (input generated lazily, output dropped),
  2k vs 20k deltas, on one target per source (tracemalloc slows every allocation).

Responses is left out on purpose: its ``output_item.done`` and ``response.completed`` events
carry the whole text, so it must hold it.
"""

from __future__ import annotations

import sys
import tracemalloc
from collections.abc import Callable, Iterator
from types import BuiltinFunctionType, FunctionType, ModuleType
from typing import Any

import pytest

from toolwire.formats._stream import DONE, WireEvent
from toolwire.streaming import StreamTranslator

Stream = Callable[[int], Iterator[WireEvent]]


def anthropic_text(deltas: int) -> Iterator[WireEvent]:
    """An Anthropic stream of ``deltas`` text deltas in one block (built lazily)."""
    yield {
        "type": "message_start",
        "message": {
            "id": "msg_mem",
            "type": "message",
            "role": "assistant",
            "model": "claude-test",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 3, "output_tokens": 1},
        },
    }
    yield {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}
    for i in range(deltas):
        yield {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": f"w{i} "}}
    yield {"type": "content_block_stop", "index": 0}
    yield {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": deltas}}
    yield {"type": "message_stop"}


def chat_text(deltas: int) -> Iterator[WireEvent]:
    """A Chat Completions stream of ``deltas`` content chunks (built lazily)."""
    head = {"id": "chatcmpl-mem", "object": "chat.completion.chunk", "created": 1, "model": "gpt-test"}
    yield {
        **head,
        "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}],
    }
    for i in range(deltas):
        yield {**head, "choices": [{"index": 0, "delta": {"content": f"w{i} "}, "finish_reason": None}]}
    yield {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    yield DONE


def gemini_text(deltas: int) -> Iterator[WireEvent]:
    """A Gemini stream of ``deltas`` text chunks, the last with ``finishReason`` (built lazily)."""
    for i in range(deltas):
        yield {
            "candidates": [{"content": {"role": "model", "parts": [{"text": f"w{i} "}]}}],
            "modelVersion": "g",
        }
    usage = {"promptTokenCount": 3, "candidatesTokenCount": deltas, "totalTokenCount": deltas + 3}
    signed = [{"text": "", "thoughtSignature": "c2ln"}]  # Gemini signs a text run on its last chunk
    yield {
        "candidates": [{"content": {"role": "model", "parts": signed}, "finishReason": "STOP"}],
        "usageMetadata": usage,
    }


def gemini_thought(deltas: int) -> Iterator[WireEvent]:
    """A Gemini stream of ``deltas`` thought chunks, then the signature and the answer (built lazily)."""
    for i in range(deltas):
        yield {
            "candidates": [{"content": {"role": "model", "parts": [{"text": f"w{i} ", "thought": True}]}}],
            "modelVersion": "g",
        }
    parts = [{"text": "", "thought": True, "thoughtSignature": "c2ln"}, {"text": "done"}]
    yield {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}]}


def anthropic_thinking(deltas: int) -> Iterator[WireEvent]:
    """An Anthropic stream of ``deltas`` thinking deltas in one block (built lazily)."""
    head = next(anthropic_text(0))
    yield head
    block = {"type": "thinking", "thinking": "", "signature": ""}
    yield {"type": "content_block_start", "index": 0, "content_block": block}
    for i in range(deltas):
        yield {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "thinking_delta", "thinking": f"w{i} "},
        }
    yield {
        "type": "content_block_delta",
        "index": 0,
        "delta": {"type": "signature_delta", "signature": "c2ln"},
    }
    yield {"type": "content_block_stop", "index": 0}
    yield {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": deltas}}
    yield {"type": "message_stop"}


SOURCES: dict[str, Stream] = {"anthropic": anthropic_text, "openai-chat": chat_text, "gemini": gemini_text}
TARGETS = ("openai-chat", "gemini", "anthropic")
STREAMS: dict[str, tuple[Stream, str]] = {
    "anthropic-thinking": (anthropic_thinking, "anthropic"),
    "gemini-thought": (gemini_thought, "gemini"),
}
"""Other part kinds checked against one target (Chat)."""

_SHARED = (type, ModuleType, FunctionType, BuiltinFunctionType)


def retained(root: object) -> int:
    """Bytes of every object reachable from ``root`` (modules, classes and functions excluded)."""
    seen: set[int] = set()
    stack: list[Any] = [root]
    total = 0
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, _SHARED):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            stack.extend(obj)
        elif not isinstance(obj, (str, bytes, int, float, bool)) and obj is not None:
            stack.extend(_fields(obj))
    return total


def _fields(obj: object) -> list[Any]:
    out: list[Any] = list(getattr(obj, "__dict__", {}).values())
    for cls in type(obj).__mro__:
        for slot in getattr(cls, "__slots__", ()):
            if hasattr(obj, slot):
                out.append(getattr(obj, slot))
    return out


def _retained_growth(src: str, stream: Stream, target: str, deltas: int) -> tuple[int, int]:
    """What the translator holds after 2k deltas and after ``deltas``, the part still open."""
    translator = StreamTranslator(src, target, policy="drop")
    sizes: list[int] = []
    for count, event in enumerate(stream(deltas)):
        translator.feed(event)
        if count in (2_000, deltas - 1):
            sizes.append(retained(translator))
    translator.close()
    return sizes[0], sizes[1]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("src", list(SOURCES))
def test_retained_state_does_not_grow(src: str, target: str) -> None:
    """After 40k text deltas the translator holds about what it held after 2k."""
    small, big = _retained_growth(src, SOURCES[src], target, 40_000)
    assert big < small * 1.5 + 4096, f"{src}->{target}: {small} B after 2k deltas, {big} B after 40k"


@pytest.mark.parametrize("case", list(STREAMS))
def test_other_decoders_hold_nothing_per_delta(case: str) -> None:
    """Anthropic thinking blocks and Gemini thought runs: constant too (to Chat, 2k vs 20k)."""
    stream, src = STREAMS[case]
    small, big = _retained_growth(src, stream, "openai-chat", 20_000)
    assert big < small * 1.5 + 4096, f"{case}: {small} B after 2k deltas, {big} B after 20k"


def _peak(src: str, target: str, deltas: int) -> int:
    translator = StreamTranslator(src, target, policy="drop")
    events = SOURCES[src](deltas)
    tracemalloc.start()
    try:
        for event in events:
            translator.feed(event)
        translator.close()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(("src", "target"), [("anthropic", "openai-chat"), ("openai-chat", "gemini")])
def test_tracemalloc_peak_is_flat(src: str, target: str) -> None:
    """The allocation peak of a 20k-delta translation stays near that of a 2k-delta one."""
    small, big = _peak(src, target, 2_000), _peak(src, target, 20_000)
    assert big < small * 2 + 64 * 1024, f"{src}->{target}: peak {small} B at 2k deltas, {big} B at 20k"
