"""IR parts -> input and output items.

Used for request ``input`` (``output=False``) and response ``output`` (``output=True``).
Same-format hints (``~msg``, ``~string``, ``~item``...) are honoured only when ``same``;
otherwise the encoder builds the canonical item shapes and notes every loss. Reasoning
opaque state is written only for reasoning of ``openai-responses`` origin.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolwire.formats.openai_responses._content import encode_part
from toolwire.formats.openai_responses._extra import emit_fields
from toolwire.formats.openai_responses._ids import CallIds, id_seed, seeded_id
from toolwire.ir.content import (
    AudioPart,
    ContentPart,
    FilePart,
    ImagePart,
    Part,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCall,
    ToolResult,
)
from toolwire.ir.notes import Notes

__all__ = ["Built", "Ctx", "encode_assistant", "encode_result"]

_CONTENT_TYPES = (TextPart, ImagePart, FilePart, AudioPart, RefusalPart)


@dataclass(slots=True)
class Ctx:
    """State of one encoding: notes, same-format flag, id synthesis.

    Attributes:
        seed: stable text from which missing item ids are derived (response mode).
        output: encoding a response's ``output`` (items need ids and statuses).
        status: the status given to synthesized output items.
    """

    notes: Notes
    same: bool
    output: bool = False
    seed: str = ""
    ids: CallIds = field(init=False)
    status: str = "completed"
    counter: int = 0
    synthesized_ids: bool = False
    memo: dict[tuple[str, int], str] | None = None
    """Ids derived so far, by prefix and counter, for this ``seed`` (``None``: none kept): a
    stream encodes each item more than once (added, done) and derives its id once."""

    head: str | None = None
    """The seed's :func:`id_seed` once an id was derived (the ids of one encoding share it: the
    seed is hashed once)."""

    def __post_init__(self) -> None:
        self.ids = CallIds(self.notes)

    def item_id(self, prefix: str) -> str:
        """A derived item id (``msg_``, ``fc_``, ``rs_``...) for response output."""
        self.counter += 1
        self.synthesized_ids = True
        return self.id_at(prefix, self.counter)

    def id_at(self, prefix: str, counter: int) -> str:
        """The id :meth:`item_id` derives for ``prefix`` at ``counter``, the counter left as it
        is (a stream peeks at its next item's id): kept in ``memo`` when there is one."""
        head = self.head
        if head is None:
            head = self.head = id_seed(self.seed)
        memo = self.memo
        if memo is None:
            return seeded_id(prefix + "_", head, counter)
        key = (prefix, counter)
        known = memo.get(key)
        if known is None:
            known = memo[key] = seeded_id(prefix + "_", head, counter)
        return known


@dataclass(slots=True)
class Built:
    """Output items already encoded, in order, by :func:`encode_assistant` over consecutive runs
    of ``parts`` with one :class:`Ctx` (a stream's ``output_item.done`` items): the items of
    ``parts`` as one encoding with the same seed gives them, when nothing was noted on the way
    (``clean``) and the synthesized items' status is ``completed``."""

    ctx: Ctx
    parts: list[Part]
    items: list[dict[str, Any]] = field(default_factory=list)
    clean: bool = True

    def output(self, parts: tuple[Part, ...], ctx: Ctx) -> list[dict[str, Any]] | None:
        """The items of ``parts`` for ``ctx`` (which then says whether ids were synthesized), or
        ``None`` when they must be encoded: other parts (each the very object encoded), seed,
        format or status, or notes to make again."""
        built = self.ctx
        if not self.clean or ctx.status != "completed" or ctx.seed != built.seed or ctx.same != built.same:
            return None
        mine = self.parts
        if len(parts) != len(mine):
            return None
        for at, part in enumerate(parts):
            if part is not mine[at]:
                return None
        if built.synthesized_ids:
            ctx.synthesized_ids = True
        ctx.counter = built.counter
        return [_fresh(item) for item in self.items]


def _fresh(value: Any) -> Any:
    """A copy of an encoded item's dicts and lists (its strings and numbers shared): the final
    response's items are not the ``output_item.done`` events' objects, so a caller that changes
    one event does not change another."""
    if type(value) is dict:  # leaves kept inline: most values are strings (no call each)
        return {key: _fresh(inner) if type(inner) in _NESTED else inner for key, inner in value.items()}
    if type(value) is list:
        return [_fresh(inner) if type(inner) in _NESTED else inner for inner in value]
    return value


_NESTED = frozenset({dict, list})
"""The value types :func:`_fresh` copies."""


def _new_message(hint: Any, msg_id: str | None, ctx: Ctx) -> dict[str, Any]:
    if hint is not None:
        item = dict(hint)
        item["content"] = []
        return item
    if ctx.output:
        return {
            "id": msg_id or ctx.item_id("msg"),
            "type": "message",
            "status": ctx.status,
            "role": "assistant",
            "content": [],
        }
    if msg_id is not None:  # a replayed output message: the output item shape, with its id
        return {"id": msg_id, "type": "message", "status": "completed", "role": "assistant", "content": []}
    return {"role": "assistant", "content": []}


def _collapse(item: dict[str, Any]) -> None:
    """Cross-format request: an assistant item with one plain text part becomes a string."""
    content = item["content"]
    if len(content) == 1 and content[0]["type"] == "output_text" and len(content[0]) == 3:
        item["content"] = content[0]["text"]


def _reasoning(part: ReasoningPart, ctx: Ctx, path: str) -> dict[str, Any] | None:
    own = part.origin == "openai-responses"
    if not own:
        lost = [name for name in ("signature", "redacted", "encrypted") if getattr(part, name) is not None]
        if not ctx.output or (part.text is None and not part.summary):
            ctx.notes.add(
                path, "dropped", f"reasoning of {part.origin or 'unknown'} origin cannot be replayed"
            )
            return None
        if lost:
            ctx.notes.add(path, "dropped", f"opaque reasoning state ({', '.join(lost)}) of {part.origin}")
    item_id = part.id if own else None
    if item_id is None and ctx.output:
        item_id = ctx.item_id("rs")
    if item_id is None and not (own and part.encrypted is not None):
        ctx.notes.add(path, "dropped", "reasoning item without id cannot be replayed")
        return None
    hints = part.extra if own else {}
    item: dict[str, Any] = {"type": "reasoning"}
    if item_id is not None:  # else replayed by its encrypted content alone, as Codex sends them
        item["id"] = item_id
    summary = hints.get("~summary")
    if summary is None:
        item["summary"] = [{"type": "summary_text", "text": text} for text in part.summary]
    elif summary != "absent":
        item["summary"] = summary
    if "~content" in hints:
        item["content"] = hints["~content"]
    elif part.text is not None:
        item["content"] = [{"type": "reasoning_text", "text": part.text}]
    if own and part.encrypted is not None:
        item["encrypted_content"] = part.encrypted
    if part.extra:
        emit_fields(item, part.extra, own, ctx.notes, path)
    return item


def _call(part: ToolCall, ctx: Ctx, path: str) -> dict[str, Any] | None:
    if part.kind == "builtin":
        raw: dict[str, Any] | None = part.extra.get("~item") if ctx.same else None
        if raw is None:
            ctx.notes.add(path, "dropped", f"built-in tool call {part.name!r} has no Responses equivalent")
        return raw
    if part.thought_signature is not None:
        ctx.notes.add(path, "dropped", f"Gemini thought signature of tool call {part.name!r}")
    custom = part.kind == "custom"
    item: dict[str, Any] = {
        "type": "custom_tool_call" if custom else "function_call",
        "call_id": ctx.ids.for_call(part.id, part.name, path),
        "name": part.name,
        "input" if custom else "arguments": part.arguments,
    }
    if part.item_id is not None:
        item["id"] = part.item_id
    elif ctx.output:
        item["id"] = ctx.item_id("ctc" if custom else "fc")
    if part.namespace is not None:
        item["namespace"] = part.namespace
    if ctx.output and not ctx.same:
        item["status"] = ctx.status
    if part.extra:
        emit_fields(item, part.extra, ctx.same, ctx.notes, path)
    return item


def _output_value(part: ToolResult, ctx: Ctx, path: str) -> Any:
    content = part.content
    if len(content) == 1 and type(content[0]) is TextPart:
        if not ctx.same or part.extra.get("~string"):
            if content[0].extra:
                emit_fields({}, content[0].extra, ctx.same, ctx.notes, f"{path}.content[0]")
            return content[0].text
    elif not content and not ctx.same:
        return ""
    out = []
    for index, sub in enumerate(content):
        sub_path = f"{path}.content[{index}]"
        if type(sub) is RefusalPart and not ctx.same:
            ctx.notes.add(sub_path, "approximated", "refusal in a tool result sent as text")
            sub = TextPart(text=sub.text)
        wire = encode_part(sub, "tool", ctx.same, ctx.notes, sub_path)
        if wire is not None:
            out.append(wire)
    return out


def encode_result(part: ToolResult, ctx: Ctx, path: str) -> dict[str, Any] | None:
    """A ``function_call_output`` / ``custom_tool_call_output`` item (or a kept built-in output)."""
    raw = part.extra.get("~item") if ctx.same else None
    if raw is not None:
        return raw  # type: ignore[no-any-return]
    if part.kind == "builtin":
        ctx.notes.add(path, "dropped", f"built-in tool result {part.name!r} has no Responses equivalent")
        return None
    custom = part.kind == "custom"
    item: dict[str, Any] = {
        "type": "custom_tool_call_output" if custom else "function_call_output",
        "call_id": ctx.ids.for_result(part.call_id, part.name, path),
        "output": _output_value(part, ctx, path),
    }
    if ctx.same:
        if part.name is not None:
            item["name"] = part.name
    elif part.is_error:
        ctx.notes.add(path, "dropped", "is_error flag of a tool result (Responses has none)")
    if part.extra:
        emit_fields(item, part.extra, ctx.same, ctx.notes, path)
    return item


def _content_part(part: ContentPart, current: dict[str, Any], ctx: Ctx, path: str) -> None:
    content = current["content"]
    if type(content) is str:  # a string content followed by more parts: switch to a list
        content = current["content"] = [{"type": "output_text", "text": content}]
    if type(part) in (ImagePart, FilePart, AudioPart) and not ctx.same:
        ctx.notes.add(path, "dropped", f"{type(part).__name__} in assistant output")
        return
    wire = encode_part(part, "assistant", ctx.same, ctx.notes, path, output=ctx.output)
    if wire is not None:
        content.append(wire)


def encode_assistant(
    parts: tuple[Part, ...], msg_id: str | None, ctx: Ctx, path: str
) -> list[dict[str, Any]]:
    """Items of one assistant turn: message items, reasoning, tool calls, kept built-in items."""
    items: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    built: list[dict[str, Any]] = []
    for index, part in enumerate(parts):
        part_path = f"{path}[{index}]"
        if isinstance(part, _CONTENT_TYPES):
            hint = part.extra.get("~msg") if ctx.same else None
            if hint is None and not ctx.output and msg_id is None:
                msg_id = _output_message_id(part)
            if current is None or hint is not None:
                current = _new_message(hint, msg_id, ctx)
                msg_id = None
                items.append(current)
                if hint is None:
                    built.append(current)
                elif part.extra.get("~string") and type(part) is TextPart:
                    current["content"] = part.text
                    continue
            _content_part(part, current, ctx, part_path)
            continue
        current = None
        if type(part) is ReasoningPart:
            item = _reasoning(part, ctx, part_path)
        elif type(part) is ToolCall:
            item = _call(part, ctx, part_path)
        else:
            item = encode_result(part, ctx, part_path)  # type: ignore[arg-type]
        if item is not None:
            items.append(item)
    if not ctx.output:
        for item in built:
            if "id" not in item:
                _collapse(item)
    return items


def _output_message_id(part: Part) -> str | None:
    """The id of the Responses output message a part was decoded from, if any.

    A request built outside Responses (a runner's history) may still replay Responses output:
    the message keeps its id so that it stays paired with the reasoning item before it.
    """
    hint = part.extra.get("~msg")
    msg_id = hint.get("id") if isinstance(hint, dict) else None
    return msg_id if isinstance(msg_id, str) else None
