"""IR messages -> Chat Completions ``messages`` (IR -> wire).

Rules enforced for payloads decoded from another format:

* every tool call of one assistant turn goes in ONE assistant message (consecutive IR
  assistant messages are merged), followed by one ``tool`` message per result;
* tool results found in ``user`` messages become ``tool`` messages first, the rest of the
  user message follows;
* tool messages only take text: images, files and audio of a tool result move to a user
  message after the tool messages (noted);
* missing call ids are synthesized deterministically and results without a call id are
  paired with the id-less calls of the preceding assistant message by name, then order;
* text after a tool call in one turn (Anthropic ``[text, tool_use, text, tool_use]``) goes
  before all the calls, noted: Chat holds one content, then the calls;
* built-in tool calls and their outputs have no Chat form: both are dropped (noted), and an
  assistant turn left with no content, call or refusal is omitted (Chat answers 400 to
  ``{"role": "assistant", "content": null}``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from toolwire.formats._wire import child
from toolwire.formats.openai_chat._content import ABSENT, encode_content, encode_part
from toolwire.formats.openai_chat._decode_messages import DETAILS
from toolwire.formats.openai_chat._encode_fast import FAST_LANES
from toolwire.formats.openai_chat._extra import DIALECT, NOTYPE, emit_fields, emit_wrapped
from toolwire.formats.openai_chat._ids import synthesized_call_id
from toolwire.ir.content import (
    AudioPart,
    FilePart,
    ImagePart,
    Message,
    Part,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCall,
    ToolResult,
)
from toolwire.ir.notes import Notes

__all__ = ["encode_assistant", "encode_messages", "encode_tool_call"]

_USER_PART_TYPES = (TextPart, ImagePart, AudioPart, FilePart)
Spans = list[tuple[int, int]]
"""``(IR message index, part count)`` of the IR messages one merged assistant message holds."""
_MOVED_NOTE = "The content returned by tool call {id} follows:"
_PLACEHOLDER = "(non-text content of this result follows in the next user message)"


class _State:
    """Per-request encoding state."""

    __slots__ = ("base", "moved", "notes", "out", "pending", "replay_to", "response", "same", "spans")

    def __init__(
        self, notes: Notes, same: bool, response: bool = False, replay_to: str | None = None
    ) -> None:
        self.notes = notes
        self.same = same
        self.replay_to = replay_to
        self.response = response
        self.out: list[dict[str, Any]] = []
        self.pending: list[tuple[str, str]] = []  # (name, synthesized id) of id-less calls
        self.moved: list[dict[str, Any]] = []  # wire user parts moved out of tool results
        self.base = ""  # the IR path parts hang off when not ``path`` (a response: ``$``)
        self.spans: Spans | None = None  # the IR messages a merged message is made of

    def part(self, index: int, path: str) -> str:
        """The IR path of part ``index`` of the message at ``path`` (merged messages keep theirs);
        made only when a note needs it."""
        if self.spans is not None:
            for message_index, count in self.spans:
                if index < count:
                    return f"$.messages[{message_index}].parts[{index}]"
                index -= count
        return f"{self.base or path}.parts[{index}]"

    def own_reasoning(self, part: ReasoningPart) -> bool:
        """Whether ``part`` goes back as written: the same format, or reasoning the provider
        this request goes to wrote (restored from the client's envelope)."""
        return self.same or (
            self.replay_to is not None
            and part.origin == "openai-chat"
            and part.extra.get(DIALECT) == self.replay_to
        )

    def take_pending(self, name: str | None) -> str | None:
        for index, entry in enumerate(self.pending):
            if entry[0] == name:
                return self.pending.pop(index)[1]
        return self.pending.pop(0)[1] if self.pending else None

    def flush_moved(self) -> None:
        if self.moved:
            self.out.append({"role": "user", "content": self.moved})
            self.moved = []


# ---------------------------------------------------------------- tool calls


def encode_tool_call(call: ToolCall, call_id: str, same: bool, notes: Notes, path: str) -> dict[str, Any]:
    """One ``tool_calls`` entry (function or custom) with the given wire id."""
    if call.kind == "custom":
        inner: dict[str, Any] = {"name": call.name, "input": call.arguments}
        out: dict[str, Any] = {"id": call_id, "type": "custom", "custom": inner}
    else:
        arguments = call.arguments if (same or call.arguments) else "{}"
        inner = {"name": call.name, "arguments": arguments}
        out = {"id": call_id, "type": "function", "function": inner}
    if call.extra:
        emit_wrapped(out, inner, call.extra, same, notes, path)
        if same and call.extra.get(NOTYPE):
            del out["type"]
    if not same:
        _note_call_state(call, notes, path)
    return out


def _note_call_state(call: ToolCall, notes: Notes, path: str) -> None:
    if call.thought_signature is not None:
        notes.add(path, "dropped", "Gemini thought signature of a function call")
    if call.namespace is not None:
        notes.add(path, "dropped", f"namespace {call.namespace!r} of called tool {call.name!r}")
    if call.item_id is not None:
        notes.info(path, "dropped", f"Responses item id {call.item_id!r} of a tool call")


def _call_id(call: ToolCall, message_index: int, position: int, state: _State, path: str) -> str:
    call_id = call.id
    if call_id is None:
        call_id = synthesized_call_id(message_index, position)
        state.pending.append((call.name, call_id))
        state.notes.info(path, "synthesized", f"tool call {call.name!r} had no id; using {call_id!r}")
    return call_id


def _is_legacy(call: ToolCall, state: _State) -> bool:
    return state.same and call.id is None and bool(call.extra.get("~legacy"))


def _encode_calls(calls: list[tuple[ToolCall, str]], index: int, state: _State, path: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    wire = []
    for position, (call, call_path) in enumerate(calls):
        if "function_call" not in out and _is_legacy(call, state):
            legacy: dict[str, Any] = {"name": call.name, "arguments": call.arguments}
            emit_fields(legacy, call.extra, True, state.notes, child(path, "function_call"))
            out["function_call"] = legacy
        elif call.kind == "builtin":
            state.notes.add(call_path, "dropped", f"built-in tool call {call.name!r} has no Chat equivalent")
        else:
            call_id = _call_id(call, index, position, state, call_path)
            wire.append(encode_tool_call(call, call_id, state.same, state.notes, call_path))
    if wire:
        out["tool_calls"] = wire
    return out


# ---------------------------------------------------------------- roles


def _keep(
    parts: Sequence[Part], allowed: tuple[type, ...], state: _State, path: str, skip: type | None = None
) -> tuple[list[Part], Callable[[int], str] | None]:
    """``parts`` allowed in a role (everything for the same format; the rest noted), leaving out
    unnoted those of type ``skip`` (sent elsewhere by the caller); and for another format where
    notes on the kept part ``k`` point (its IR path: see ``encode_content``)."""
    if state.same and skip is None:
        return list(parts), None
    kept: list[Part] = []
    indexes: list[int] = []
    for index, part in enumerate(parts):
        if type(part) is skip:
            continue
        if state.same or isinstance(part, allowed):
            kept.append(part)
            indexes.append(index)
        else:
            state.notes.add(
                state.part(index, path),
                "dropped",
                f"{type(part).__name__} cannot appear in this Chat message role",
            )
    return kept, None if state.same else _part_paths(indexes, state, path)


def _part_paths(indexes: list[int], state: _State, path: str) -> Callable[[int], str]:
    """Kept part ``k`` -> the IR path of the message part it was (``indexes[k]``)."""
    return lambda k: state.part(indexes[k], path)


def _finish(out: dict[str, Any], message: Message, state: _State, path: str) -> None:
    if message.name is not None:
        out["name"] = message.name
    if message.id is not None:
        state.notes.info(path, "dropped", f"message id {message.id!r}")
    if message.extra:
        emit_fields(out, message.extra, state.same, state.notes, path)


def _set_content(out: dict[str, Any], value: Any) -> None:
    if value is not ABSENT:
        out["content"] = value


def _system(message: Message, index: int, state: _State, path: str) -> None:
    state.flush_moved()
    role = message.role
    parts, where = _keep(message.parts, (TextPart,), state, path)
    out: dict[str, Any] = {"role": role}
    hint = message.extra.get("~content")
    _set_content(out, encode_content(parts, hint, state.same, state.notes, path, where))
    _finish(out, message, state, path)
    state.out.append(out)


def _user(message: Message, index: int, state: _State, path: str) -> None:
    results = [p for p in message.parts if type(p) is ToolResult]
    if not results:
        state.flush_moved()
        parts, where = _keep(message.parts, _USER_PART_TYPES, state, path)
        out: dict[str, Any] = {"role": "user"}
        hint = message.extra.get("~content")
        _set_content(out, encode_content(parts, hint, state.same, state.notes, path, where))
        _finish(out, message, state, path)
        state.out.append(out)
        return
    for j, part in enumerate(message.parts):
        if type(part) is ToolResult:
            _result(part, message, state, state.part(j, path))
    rest, where = _keep(message.parts, _USER_PART_TYPES, state, path, skip=ToolResult)
    if rest and not state.moved:
        out = {"role": "user", "content": encode_content(rest, None, state.same, state.notes, path, where)}
        _finish(out, message, state, path)
        state.out.append(out)
        return
    for position, part in enumerate(rest):
        part_path = where(position) if where else f"{path}.parts[{position}]"
        wire = encode_part(part, state.same, state.notes, part_path)
        if wire is not None:
            state.moved.append(wire)
    state.flush_moved()


def _assistant_content(
    parts: list[Part], message: Message, state: _State, has_other: bool, path: str, indexes: list[int]
) -> Any:
    if state.same:
        return encode_content(parts, message.extra.get("~content"), True, state.notes, path)
    if state.response:  # a response message's content is a string or null
        for part, index in zip(parts, indexes, strict=True):
            if type(part) is TextPart and (part.extra or part.thought_signature is not None):
                encode_part(part, False, state.notes, state.part(index, path))  # notes what it loses
        return "".join(p.text for p in parts if type(p) is TextPart) if parts else None
    if not parts:
        return None if has_other else ""
    return encode_content(parts, None, False, state.notes, path, _part_paths(indexes, state, path))


def _assistant(message: Message, index: int, state: _State, path: str) -> None:
    state.flush_moved()
    state.pending = []
    content: list[Part] = []
    content_indexes: list[int] = []
    refusals: list[str] = []
    calls: list[tuple[ToolCall, str]] = []
    out: dict[str, Any] = {"role": "assistant"}
    for j, part in enumerate(message.parts):
        if isinstance(part, ToolCall):
            calls.append((part, state.part(j, path)))
        elif isinstance(part, RefusalPart) and not (state.same and part.extra.get("~field") == "content"):
            refusals.append(part.text)
        elif isinstance(part, ReasoningPart) and "~chunk" in part.extra and state.own_reasoning(part):
            content.append(part)  # a Mistral thinking chunk, in its place in the content list
            content_indexes.append(j)
        elif isinstance(part, ReasoningPart):
            _reasoning(part, out, state, state.part(j, path))
        elif state.same or isinstance(part, (TextPart, RefusalPart)):
            content.append(part)
            content_indexes.append(j)
        else:
            state.notes.add(
                state.part(j, path),
                "dropped",
                f"{type(part).__name__} cannot appear in a Chat assistant message",
            )
    has_other = bool(calls or refusals)
    _set_content(out, _assistant_content(content, message, state, has_other, path, content_indexes))
    if not state.same and _interleaved(message.parts):
        state.notes.add(path, "approximated", "text between tool calls moved before all of them")
    if refusals:
        if len(refusals) > 1:
            state.notes.add(path, "approximated", "several refusals joined into one")
        out["refusal"] = "\n".join(refusals)
    if calls:
        out.update(_encode_calls(calls, index, state, path))
    if state.response and not state.same:
        out.setdefault("refusal", None)
    elif not state.same and out.get("content") is None and out.keys() <= {"role", "content"}:
        state.notes.info(path, "dropped", "assistant turn left empty by dropped parts omitted")
        return
    _finish(out, message, state, path)
    state.out.append(out)


def _interleaved(parts: Sequence[Part]) -> bool:
    """Whether text follows a tool call (Chat holds one content, then the calls)."""
    seen_call = False
    for part in parts:
        if isinstance(part, ToolCall):
            seen_call = True
        elif seen_call and isinstance(part, (TextPart, RefusalPart)):
            return True
    return False


def _reasoning(part: ReasoningPart, out: dict[str, Any], state: _State, path: str) -> None:
    own = state.own_reasoning(part)
    field = part.extra.get("~field") if own else None
    details = part.extra.get(DETAILS) if own else None
    if field is not None and part.text is not None:
        out[field] = part.text
    if details is not None:
        out[DETAILS] = details
    if field is None and details is None:
        state.notes.add(path, "dropped", "reasoning: Chat messages have no reasoning field")


def _tool(message: Message, index: int, state: _State, path: str) -> None:
    if message.extra and not state.same:
        emit_fields({}, message.extra, False, state.notes, path)
    for j, part in enumerate(message.parts):
        part_path = state.part(j, path)
        if type(part) is ToolResult:
            _result(part, message, state, part_path)
        else:
            state.notes.add(
                part_path, "approximated", f"{type(part).__name__} of a tool message sent as user content"
            )
            wire = encode_part(part, state.same, state.notes, part_path)
            if wire is not None:
                state.moved.append(wire)


_ROLES: dict[str, Callable[[Message, int, _State, str], None]] = {
    "system": _system,
    "developer": _system,
    "user": _user,
    "assistant": _assistant,
    "tool": _tool,
}


# ---------------------------------------------------------------- tool results


def _result_content(result: ToolResult, call_id: str, state: _State, path: str) -> Any:
    if state.same:
        return encode_content(result.content, result.extra.get("~content"), True, state.notes, path)
    texts: list[Part] = []
    moved: list[dict[str, Any]] = []
    for part in result.content:
        if type(part) is TextPart:
            texts.append(part)
        elif type(part) is RefusalPart:
            state.notes.add(path, "approximated", "refusal in a tool result sent as text")
            texts.append(TextPart(text=part.text))
        else:
            wire = encode_part(part, False, state.notes, path)
            if wire is not None:
                moved.append(wire)
    if moved:
        state.notes.add(
            path, "approximated", "non-text tool result content moved to a following user message"
        )
        state.moved.append({"type": "text", "text": _MOVED_NOTE.format(id=call_id)})
        state.moved.extend(moved)
        if not texts:
            return _PLACEHOLDER
    return encode_content(texts, None, False, state.notes, path)


def _result(result: ToolResult, message: Message, state: _State, path: str) -> None:
    if result.kind == "builtin" and not state.same:
        state.notes.add(path, "dropped", f"built-in tool output {result.name!r} has no Chat equivalent")
        return
    if state.same and message.extra.get("~role") == "function":
        out: dict[str, Any] = {"role": "function", "name": result.name}
        _set_content(
            out, encode_content(result.content, result.extra.get("~content"), True, state.notes, path)
        )
    else:
        call_id = result.call_id
        if call_id is None:
            call_id = state.take_pending(result.name)
            if call_id is None:
                call_id = synthesized_call_id(len(state.out), 0)
            state.notes.add(path, "synthesized", f"tool result without call id answered as {call_id!r}")
        out = {"role": "tool", "tool_call_id": call_id}
        out["content"] = _result_content(result, call_id, state, path)
    if result.is_error:
        state.notes.add(
            path, "approximated", "tool result is_error has no Chat field; sent as a plain result"
        )
    if result.extra:
        emit_fields(out, result.extra, state.same, state.notes, path)
    state.out.append(out)


# ---------------------------------------------------------------- entry point


def _merge_assistants(messages: Sequence[Message]) -> tuple[list[Message], list[tuple[int, Spans | None]]]:
    """Consecutive assistant messages merged; per merged message, the IR index of its first
    message and, when merged, the ``(IR index, part count)`` of each (notes name IR parts)."""
    merged: list[Message] = []
    where: list[tuple[int, Spans | None]] = []
    for index, message in enumerate(messages):
        last = merged[-1] if merged else None
        if last is not None and message.role == "assistant" and last.role == "assistant":
            extra = {**message.extra, **last.extra} if message.extra else last.extra
            merged[-1] = msgspec.structs.replace(last, parts=last.parts + message.parts, extra=extra)
            first, spans = where[-1]
            if spans is None:
                spans = [(first, len(last.parts))]
            spans.append((index, len(message.parts)))
            where[-1] = (first, spans)
        else:
            merged.append(message)
            where.append((index, None))
    return merged, where


def _adjacent_assistants(messages: Sequence[Message]) -> bool:
    """Whether two assistant messages follow each other (else there is nothing to merge)."""
    previous = ""
    for message in messages:
        role = message.role
        if role == previous == "assistant":
            return True
        previous = role
    return False


def encode_assistant(
    message: Message, notes: Notes, *, same: bool, path: str = "$.choices[0].message"
) -> tuple[dict[str, Any], list[ToolCall]]:
    """Encode one assistant turn as a response ``message`` (content a string or null).

    Also returns the tool calls that were emitted (for the finish reason).
    """
    state = _State(notes, same, response=True)
    state.base = "$"  # a response's parts are $.parts[j]
    _assistant(message, 0, state, path)
    out = state.out[0]
    calls = [p for p in message.parts if isinstance(p, ToolCall) and p.kind != "builtin"]
    return out, calls


def encode_messages(
    messages: Sequence[Message], notes: Notes, *, same: bool, replay_to: str | None = None
) -> list[dict[str, Any]]:
    """Encode IR messages as a Chat ``messages`` array (see the module docstring for the rules;
    a provider's dialect is applied afterwards, by ``_dialect_fit``). ``replay_to``: the Chat
    provider the request goes to; reasoning it wrote goes back to it from any format."""
    state = _State(notes, same, replay_to=replay_to)
    if same:
        for index, message in enumerate(messages):
            _ROLES[message.role](message, index, state, f"$.messages[{index}]")
    else:
        merged, where = _merge_assistants(messages) if _adjacent_assistants(messages) else (messages, None)
        for index, message in enumerate(merged):
            if not state.moved and FAST_LANES[message.role](message, state):
                continue
            first, state.spans = where[index] if where is not None else (index, None)
            _ROLES[message.role](message, index, state, f"$.messages[{first}]")
    state.flush_moved()
    return state.out
