"""Where a note is about, in the payload the user passed in (issue 13).

A note made while *decoding* already names a path in the source payload. A note made after
(hops, fallbacks, encoders) names an IR coordinate (``$.messages[2].parts[0]``, ``$.parts[1]``,
``$.tools[3].strict``, ``$.usage.cache_creation``) or, in a few encoders, a coordinate of the
output (``$.usageMetadata.x``, ``$.reasoning_effort``). :class:`Where` turns either into the
source path of the most specific element the note is about, when the note is made (so a strict
refusal carries it too; under ``drop``, when the notes are first read: :mod:`toolwire.ir.notes`),
in this order:

1. **Provenance**: decoders record, per IR message, part and tool, where it came from in the
   source, as index tuples (``notes.came_from(("messages", 1, "parts", 0), ("messages", 0,
   "content", 1))``); the longest recorded prefix of the path wins. Nothing is recorded while
   decoding: the first note about an IR message, part or tool calls ``again`` (given to
   ``Notes.decoded``) with a recording collector: the format's ``record_request`` /
   ``record_response``, which walk the payload beside the decoded IR, or its decoder run once
   more, recording where ``notes.recording`` says so.
2. **IR fields**: a top-level IR field (``reasoning``, ``usage``, ``max_tokens``...) sits under a
   source key the format names in :data:`SOURCE_KEYS` (Gemini: ``generationConfig.thinkingConfig``);
   a field not listed keeps its name.
3. **Output keys**: an output coordinate is first mapped to the IR coordinate it was written from
   (:data:`TARGET_KEYS`), then as above.

What follows the mapped prefix (``.caller``, ``.citations``, ``.strict``: extras keep the source's
key) is kept as far as the source holds it. A path that maps to nothing the source holds is about
a value made up for the output: ``path`` becomes ``$`` and ``target`` the output path.

Streams: stream decoders record, per IR part, the index of the event that started it
(``("parts", 2) -> (7,)``), and the translator calls ``notes.decoded(STREAM)``: a note about a
part then names that event (``$[7]``), as the decoders' own notes do; other paths stay as written.

Templates in the tables use ``"#"`` for any array index; indexes are filled in order.
Mapping costs nothing until a note is made (under ``drop``: read).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, final

from toolwire._jsonpath import parsed, render

__all__ = ["SOURCE_KEYS", "STREAM", "TARGET_KEYS", "Coord", "Where", "stream_path"]

Coord = tuple[str | int, ...]
"""A path as keys and indexes: ``("messages", 0, "content", 1)`` is ``$.messages[0].content[1]``."""

_T = tuple[Coord, ...]

SOURCE_KEYS: dict[str, dict[Coord, _T]] = {
    "openai-chat": {
        ("reasoning",): (("reasoning_effort",), ("reasoning",)),
        ("max_tokens",): (("max_completion_tokens",), ("max_tokens",)),
        ("tools", "#"): (("tools", "#"), ("tools", "#", "function")),
        ("parts",): (("choices", 0, "message"),),
        ("stop_reason",): (("choices", 0, "finish_reason"),),
        ("more_choices",): (("choices",),),
    },
    "anthropic": {
        ("reasoning",): (("thinking",), ("output_config",)),
        ("response_format",): (("output_config", "format"), ("output_format",)),
        ("stop",): (("stop_sequences",),),
        ("parts",): (("content",),),
        ("user",): (("metadata", "user_id"),),
        ("tools", "#"): (("tools", "#"),),
        ("opaque_blocks",): (("content",),),
        ("parallel_tool_calls",): (("tool_choice", "disable_parallel_tool_use"), ("tool_choice",)),
    },
    "openai-responses": {
        ("max_tokens",): (("max_output_tokens",),),
        ("response_format",): (("text", "format"), ("text",)),
        ("parts",): (("output",),),
        ("stop_reason",): (("incomplete_details",), ("status",)),
        ("messages", "#"): (("input", "#"), ("input",)),
        ("tools", "#"): (("tools", "#"),),
    },
    "gemini": {
        ("reasoning",): (("generationConfig", "thinkingConfig"), ("generationConfig",)),
        ("usage",): (("usageMetadata",),),
        ("max_tokens",): (("generationConfig", "maxOutputTokens"),),
        ("temperature",): (("generationConfig", "temperature"),),
        ("top_p",): (("generationConfig", "topP"),),
        ("top_k",): (("generationConfig", "topK"),),
        ("stop",): (("generationConfig", "stopSequences"),),
        ("response_format",): (
            ("generationConfig", "responseJsonSchema"),
            ("generationConfig", "responseSchema"),
            ("generationConfig", "responseMimeType"),
        ),
        ("tool_choice",): (("toolConfig", "functionCallingConfig"), ("toolConfig",)),
        ("parts",): (("candidates", 0, "content", "parts"), ("candidates", 0)),
        ("stop_reason",): (("candidates", 0, "finishReason"), ("promptFeedback",)),
        ("model",): (("modelVersion",),),
        ("id",): (("responseId",),),
    },
    "bedrock-converse": {
        ("tools", "#"): (("toolConfig", "tools", "#", "toolSpec"), ("toolConfig", "tools", "#")),
        ("tool_choice",): (("toolConfig", "toolChoice"),),
        ("max_tokens",): (("inferenceConfig", "maxTokens"),),
        ("temperature",): (("inferenceConfig", "temperature"),),
        ("top_p",): (("inferenceConfig", "topP"),),
        ("stop",): (("inferenceConfig", "stopSequences"),),
        ("reasoning",): (("additionalModelRequestFields",),),
        ("top_k",): (("additionalModelRequestFields", "top_k"), ("additionalModelRequestFields",)),
        ("bedrock_blocks",): (("output", "message", "content"),),
        ("response_format",): (("outputConfig",),),
        ("metadata",): (("requestMetadata",),),
        ("model",): (("modelId",),),
        ("parts",): (("output", "message", "content"), ("output",)),
        ("stop_reason",): (("stopReason",),),
    },
}
"""Per source format: an IR coordinate -> where the source holds it (the first it holds wins)."""

TARGET_KEYS: dict[str, dict[Coord, Coord]] = {
    "openai-chat": {
        ("reasoning_effort",): ("reasoning",),
        ("max_completion_tokens",): ("max_tokens",),
        ("tools", "#", "function"): ("tools", "#"),
        ("choices", "#", "message"): ("parts",),
        ("choices", "#", "finish_reason"): ("stop_reason",),
    },
    "anthropic": {
        ("thinking",): ("reasoning",),
        ("output_config", "format"): ("response_format",),
        ("output_config",): ("reasoning",),
        ("stop_sequences",): ("stop",),
        ("content",): ("parts",),
    },
    "openai-responses": {
        ("max_output_tokens",): ("max_tokens",),
        ("text", "format"): ("response_format",),
        ("output",): ("parts",),
        ("status",): ("stop_reason",),
    },
    "gemini": {
        ("usageMetadata",): ("usage",),
        ("generationConfig", "thinkingConfig"): ("reasoning",),
        ("generationConfig", "maxOutputTokens"): ("max_tokens",),
        ("generationConfig", "stopSequences"): ("stop",),
        ("generationConfig", "responseMimeType"): ("response_format",),
        ("generationConfig", "responseJsonSchema"): ("response_format",),
        ("generationConfig", "responseSchema"): ("response_format",),
        ("toolConfig",): ("tool_choice",),
        ("candidates", "#", "content"): ("parts",),
        ("candidates", "#", "finishReason"): ("stop_reason",),
        ("modelVersion",): ("model",),
        ("responseId",): ("id",),
    },
    "bedrock-converse": {
        ("toolConfig", "tools", "#", "toolSpec"): ("tools", "#"),
        ("toolConfig", "tools", "#"): ("tools", "#"),
        ("toolConfig", "toolChoice"): ("tool_choice",),
        ("inferenceConfig", "maxTokens"): ("max_tokens",),
        ("inferenceConfig", "stopSequences"): ("stop",),
        ("output", "message", "content"): ("parts",),
        ("stopReason",): ("stop_reason",),
    },
}
"""Per target format: an output coordinate -> the IR coordinate it is written from."""

_EMPTY: dict[str | int, list[tuple[Coord, Any]]] = {}
STREAM: Any = object()
"""The source of a stream translation (``notes.decoded(STREAM)``): its events are not kept."""
_INDEXED = frozenset({"messages", "parts", "tools"})  # IR arrays: only provenance maps them
_LONGEST = 4  # the longest recorded IR coordinate: ("messages", i, "parts", j)
# and the shortest looked up is 2, ("parts", j): every recorded coordinate ends with an index
# (decoders record array elements), so a note about a whole IR array (``$.parts``) loads nothing


_Index = dict[str | int, list[tuple[Coord, Any]]]


def _index(table: dict[Coord, Any]) -> _Index:
    """``table`` by first key, longest keys first (most paths share no first key with it)."""
    out: _Index = {}
    for key, value in sorted(table.items(), key=lambda item: -len(item[0])):
        out.setdefault(key[0], []).append((key, value))
    return out


_SOURCE_INDEX = {name: _index(table) for name, table in SOURCE_KEYS.items()}
_TARGET_INDEX = {name: _index(table) for name, table in TARGET_KEYS.items()}


def _matches(key: Coord, parts: Coord) -> bool:
    if len(key) > len(parts):
        return False
    return all(k == p or (k == "#" and type(p) is int) for k, p in zip(key, parts, strict=False))


def _lookup(index: _Index, parts: Coord) -> tuple[int, Any, list[int]] | None:
    """The longest prefix of ``parts`` in the table (``"#"`` matching any index): its length,
    the value, and the indexes the ``"#"`` stood for."""
    entries = index.get("#" if type(parts[0]) is int else parts[0])
    if entries is None:
        return None
    for key, value in entries:
        if _matches(key, parts):
            return len(key), value, [p for p in parts[: len(key)] if type(p) is int]
    return None


def _fill(template: Coord, indexes: list[int]) -> Coord:
    it = iter(indexes)
    return tuple(next(it, 0) if p == "#" else p for p in template)


_Candidate = tuple[Coord, Coord, "str | None"]
"""A source prefix, the prefix with the rest of the path, and that whole path's text (``None``:
rendered when it is the answer)."""

_Attach = tuple[tuple[_Candidate, ...], Coord]
"""Candidate source prefixes (the first the source holds wins) and the rest of the path."""

_IrPlan = tuple[tuple[tuple[Coord, Coord], ...], "_Attach | None"]
"""How an IR path maps (:meth:`Where._from_ir`): the recorded origins to look up (prefix,
rest; longest first; empty unless the path starts in an IR array), else the tables' candidates."""

_Plan = tuple[Coord, _IrPlan, "_IrPlan | None"]
"""A note path's segments, its plan as an IR path, and as an output path mapped to IR."""


@lru_cache(maxsize=4096)
def _ir_plan(source_format: str, parts: Coord) -> _IrPlan:
    """What :meth:`Where._from_ir` tries for ``parts``; only the tables: the same on every call."""
    indexed = parts[0] in _INDEXED
    keys: tuple[tuple[Coord, Coord], ...] = ()
    if indexed:
        keys = tuple((parts[:n], parts[n:]) for n in range(min(len(parts), _LONGEST), 1, -1))
    found = _lookup(_SOURCE_INDEX.get(source_format, _EMPTY), parts)
    attach: _Attach | None = None
    if found is not None:
        length, templates, indexes = found
        attach = _candidates(tuple(_fill(t, indexes) for t in templates), parts[length:])
    elif type(parts[0]) is str and not indexed:
        attach = _candidates((parts[:1],), parts[1:])
    return keys, attach


def _candidates(prefixes: tuple[Coord, ...], rest: Coord) -> _Attach:
    return tuple((prefix, prefix + rest, render(prefix + rest)) for prefix in prefixes), rest


@lru_cache(maxsize=4096)
def _plan(source_format: str, target_format: str, path: str) -> _Plan | None:
    """The table work of :meth:`Where.map` for ``path`` (``None``: not a path to map); note paths
    repeat from call to call, so each is planned once."""
    parts = parsed(path)
    if not parts:
        return None
    hit = _lookup(_TARGET_INDEX.get(target_format, _EMPTY), parts)
    second = None
    if hit is not None:
        length, template, indexes = hit
        second = _ir_plan(source_format, _fill(template, indexes) + parts[length:])
    return parts, _ir_plan(source_format, parts), second


@lru_cache(maxsize=4096)
def _prefixes(path: str) -> tuple[Coord, ...]:
    """The segments of ``path`` and their shorter prefixes, longest first (``()``: not a path):
    where a stream's note looks for a recorded origin (note paths repeat from stream to stream)."""
    parts = parsed(path) or ()
    return tuple(parts[:length] for length in range(len(parts), 0, -1))


def stream_path(path: str, origins: dict[Coord, Coord]) -> str:
    """Where a stream's note made at ``path`` is about: the event that started the part it names
    (its longest prefix with a recorded origin), else ``path`` itself."""
    for prefix in _prefixes(path):
        origin = origins.get(prefix)
        if origin is not None:
            return render(origin)
    return path


@final
class Where:
    """Maps the paths of notes made after decoding to the source payload (module docstring)."""

    __slots__ = ("load", "source", "source_format", "target_format")

    def __init__(
        self,
        source: Any,
        source_format: str | None,
        target_format: str | None,
        load: Callable[[dict[Coord, Coord]], None] | None = None,
    ) -> None:
        self.source = source
        self.load = load
        self.source_format = source_format or ""
        self.target_format = target_format or ""

    def held(self, parts: Coord) -> bool:
        """Whether the source holds ``parts``."""
        node = self.source
        for part in parts:
            if type(part) is int:
                if type(node) is not list or part >= len(node):
                    return False
            elif type(node) is not dict or part not in node:
                return False
            node = node[part]
        return True

    def _depth(self, parts: Coord) -> int:
        """How many leading segments of ``parts`` the source holds."""
        node = self.source
        for depth, part in enumerate(parts):
            if type(part) is int:
                if type(node) is not list or part >= len(node):
                    return depth
            elif type(node) is not dict or part not in node:
                return depth
            node = node[part]
        return len(parts)

    def _attach(self, candidates: tuple[_Candidate, ...], rest: Coord) -> str | None:
        """The first candidate prefix the source holds, with as much of ``rest`` as it holds."""
        best: Coord | None = None
        reach = 0
        for prefix, whole, text in candidates:
            got = self._depth(whole) - len(prefix)  # negative: the prefix is not held
            if got == len(rest):  # one that holds the whole path first
                return text if text is not None else render(whole)
            if got >= 0 and best is None:
                best, reach = prefix, got
        if best is None:
            return None
        for start in range(1, len(rest)):  # an IR-only level before the source's key (``namespace``)
            if self.held(best + rest[start:]):
                return render(best + rest[start:])
        deeper = self._one_level_down(best, rest)
        if deeper is not None:
            return deeper
        return render(best + rest[:reach])

    def _one_level_down(self, prefix: Coord, rest: Coord) -> str | None:
        """``rest`` one object level below ``prefix`` (a Chat call's ``function.arguments``)."""
        if not rest or type(rest[0]) is not str:
            return None
        node = self.source
        for part in prefix:
            node = node[part]
        if type(node) is not dict:
            return None
        for key, value in node.items():
            if type(value) is dict and self.held((*prefix, key, *rest)):
                return render((*prefix, key, *rest))
        return None

    def _from_ir(self, plan: _IrPlan, origins: dict[Coord, Coord]) -> str | None:
        keys, attach = plan
        if keys:
            if self.load is not None:  # the first note about an IR message, part or tool
                self.load(origins)
                self.load = None
            for key, rest in keys:
                origin = origins.get(key)
                if origin is not None:
                    return self._attach(((origin, origin + rest, None),), rest)
        return None if attach is None else self._attach(*attach)

    def map(self, path: str, origins: dict[Coord, Coord]) -> tuple[str, str | None]:
        """``(source path, output path or None)`` for a note made at ``path``."""
        if self.source is STREAM:  # events are not at hand: the event that started the part
            return stream_path(path, origins), None
        plan = _plan(self.source_format, self.target_format, path)
        if plan is None:
            return path, None
        parts, first, second = plan
        found = self._from_ir(first, origins)
        if found is not None:
            return found, None
        if second is not None:
            found = self._from_ir(second, origins)
            if found is not None:
                return found, None
        if self.held(parts):
            return path, None
        return "$", path
