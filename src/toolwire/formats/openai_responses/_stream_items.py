"""The item side of the Responses stream encoder (:class:`ItemEvents`, the base of
``StreamEncoder``): its state, wire events and ids, the items of ``output_item.added`` /
``output_item.done`` and the final response (built by the same item encoders as
:func:`encode_response`, with one shared id counter), and reasoning summary events. The event
framing (routing, deltas, lifecycle) is in :mod:`._stream_encode`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from toolwire._json import dumps_leaf
from toolwire.errors import PayloadError
from toolwire.formats._stream import DeltaFraming
from toolwire.formats.openai_responses._content import encode_part
from toolwire.formats.openai_responses._encode_items import Built, Ctx, encode_assistant
from toolwire.formats.openai_responses._stream_parts import (
    CONTENT,
    MEDIA,
    Live,
    OpenMessage,
    advance,
)
from toolwire.formats.openai_responses._stream_skeletons import (
    ID_PREFIX,
    call_item,
    content_wire,
    plain_call,
    plain_content,
)
from toolwire.formats.openai_responses.response import echo_defaults, encode_response
from toolwire.ir.accumulate import Accumulator
from toolwire.ir.content import Part, ReasoningPart, RefusalPart, TextPart, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.response import Response
from toolwire.ir.stream import ResponseStart, StreamEvent

__all__ = ["ItemEvents"]


class ItemEvents(DeltaFraming):
    """The state of a Responses stream encoder and its item-level events (see the module)."""

    def __init__(self, notes: Notes | None = None) -> None:
        self.notes = notes if notes is not None else Notes()
        self._scratch = Notes("strict" if self.notes.policy == "strict" else "drop")
        self._acc = Accumulator()
        self._seq = 0
        self._dumps: Callable[[Any], bytes] = dumps_leaf  # per delta (``frame_delta``): not a module global
        self._start: ResponseStart | None = None
        self._ended = False
        self._same = False
        self._ctx = Ctx(notes=self._scratch, same=False, output=True)
        self._next_output = 0
        self._live: Live | None = None
        self._message: OpenMessage | None = None
        self._waiting: dict[int, list[StreamEvent]] = {}
        self._finished: list[Part] = []
        self._built = Built(self._ctx, self._finished)
        self._kept_ids: dict[int, str] = {}

    # ------------------------------------------------------------------ wire events and ids

    def _event(self, kind: str, **fields: Any) -> dict[str, Any]:
        event = {"type": kind, **fields, "sequence_number": self._seq}
        self._seq += 1
        return event

    def _ids(self, live: Live) -> dict[str, Any]:
        return {"item_id": live.item_id, "output_index": live.output_index}

    # ------------------------------------------------------------------ items (added, done, final)

    def _encode(self, parts: tuple[Part, ...], ctx: Ctx, index: int) -> list[dict[str, Any]]:
        items = encode_assistant(parts, None, ctx, f"$.parts[{index}]")
        self._scratch.items.clear()
        return items

    def _probe(self, parts: tuple[Part, ...], index: int) -> list[dict[str, Any]]:
        """The items of ``parts`` as they are now (``output_item.added``), the id counters of
        the stream's context left as they were (as encoding with a copy of it would)."""
        ctx = self._ctx
        counter, synthesized, ids = ctx.counter, ctx.synthesized_ids, ctx.ids
        ctx.ids = ids.copy(self._scratch)
        try:
            return self._encode(parts, ctx, index)
        finally:
            ctx.counter, ctx.synthesized_ids, ctx.ids = counter, synthesized, ids

    def _encode_done(self, parts: tuple[Part, ...], index: int) -> list[dict[str, Any]]:
        """The items of finished ``parts`` (``output_item.done``), kept for the final response
        (:class:`Built`: reused there when they are what its encoding gives)."""
        if len(parts) == 1 and type(parts[0]) is ToolCall and not self._same and plain_call(parts[0]):
            items = [self._call_done(parts[0])]  # what encode_assistant gives, with no note
            self._built.items.extend(items)
            return items
        if parts and not self._same and all(map(plain_content, parts)):  # one message, as above
            content = [content_wire(part) for part in parts]
            ctx = self._ctx
            message_id = ctx.item_id("msg")
            items = [
                {
                    "id": message_id,
                    "type": "message",
                    "status": ctx.status,
                    "role": "assistant",
                    "content": content,
                }
            ]
            self._built.items.extend(items)
            return items
        scratch = self._scratch.items
        before = len(scratch)
        items = encode_assistant(parts, None, self._ctx, f"$.parts[{index}]")
        if len(scratch) != before:
            self._built.clean = False  # notes the final encoding must make again, on self.notes
        scratch.clear()
        self._built.items.extend(items)
        return items

    def _snapshot(self, resp: Response, status: str | None = None) -> dict[str, Any]:
        """A full response object; ``status`` overrides the encoded one (``in_progress``). The
        final one reuses the items sent in ``output_item.done`` events when it can (``Built``)."""
        if status is not None:
            wire = encode_response(resp, self._scratch)
        else:
            wire = encode_response(resp, self.notes, self._built)
        self._scratch.items.clear()
        if status is not None:
            wire["status"] = status
            wire["output"] = []
            wire.setdefault("usage", None)
            if self._same:  # another format's response has them already (encode_response)
                for key, value in echo_defaults().items():  # required by the schema; known only at the end
                    wire.setdefault(key, value)
        return wire

    def _item_done(self, output_index: int, announced: Any, item: dict[str, Any]) -> dict[str, Any]:
        """``output_item.done``; an item whose id changed since it was added keeps the first id
        (some upstreams rotate ids; clients such as the OpenAI SDK reject that)."""
        if announced is not None and item.get("id") != announced:
            item = {**item, "id": announced}
            self._kept_ids[output_index] = announced
            self.notes.info(f"$.output[{output_index}].id", "renamed", f"item id kept as {announced!r}")
        seq = self._seq
        self._seq = seq + 1  # what _event gives, built inline
        return {
            "type": "response.output_item.done",
            "output_index": output_index,
            "item": item,
            "sequence_number": seq,
        }

    def _keep_ids(self, response: dict[str, Any]) -> dict[str, Any]:
        """The final response with the item ids the stream announced (see :meth:`_item_done`)."""
        output = response.get("output")
        if not self._kept_ids or type(output) is not list:
            return response
        response["output"] = [
            {**item, "id": self._kept_ids[i]} if i in self._kept_ids else item
            for i, item in enumerate(output)
        ]
        return response

    def _peek_id(self, prefix: str) -> str:
        """The id the stream's next item with ``prefix`` gets, its id counter left as it was."""
        ctx = self._ctx
        return ctx.id_at(prefix, ctx.counter + 1)

    def _message_skeleton(self) -> dict[str, Any]:
        """``in_progress`` of the message item of another format's content part, as
        :meth:`_probe` encodes it (``_new_message``)."""
        msg_id = self._peek_id("msg")
        return {"id": msg_id, "type": "message", "status": "in_progress", "role": "assistant", "content": []}

    def _call_skeleton(self, call: ToolCall) -> dict[str, Any]:
        """``in_progress`` of the item of another format's :func:`plain_call`, as :meth:`_probe`
        encodes it (``_call``): its input emptied, status ``in_progress``."""
        item_id = call.item_id if call.item_id is not None else self._peek_id(ID_PREFIX[call.kind])
        return call_item(call, "", item_id, "in_progress")

    def _call_done(self, call: ToolCall) -> dict[str, Any]:
        """The item of another format's :func:`plain_call`, as :meth:`_encode_done` encodes it."""
        ctx = self._ctx
        item_id = call.item_id if call.item_id is not None else ctx.item_id(ID_PREFIX[call.kind])
        return call_item(call, call.arguments, item_id, ctx.status)

    def _wire_part(self, part: Part, index: int, *, empty: bool) -> dict[str, Any] | None:
        if not isinstance(part, CONTENT):  # a message item whose content could not be decoded
            raise PayloadError(
                f"message content part decoded as a {type(part).__name__}", path=f"$.parts[{index}]"
            )
        if isinstance(part, MEDIA) and not self._same:
            return None  # dropped from assistant output, as encode_response does
        if plain_content(part) and not self._same:  # what encode_part gives, with no note
            return content_wire(part, empty=empty)
        if empty and isinstance(part, (TextPart, RefusalPart)):
            part = msgspec.structs.replace(part, text="")
        wire = encode_part(part, "assistant", self._same, self._scratch, f"$.parts[{index}]", output=True)
        self._scratch.items.clear()
        return wire

    # ------------------------------------------------------------------ reasoning

    def _reasoning_sync(self, live: Live, now: ReasoningPart) -> list[dict[str, Any]]:
        """Summary parts first; reasoning text closes the open summary part (they never overlap)."""
        out = self._summary_sync(live, now.summary)
        if now.text is not None:
            delta = advance(live, now.text)
            if delta:
                out.extend(self._close_summary(live, now.summary))
                fields = {**self._ids(live), "content_index": 0, "delta": delta}
                out.append(self._event("response.reasoning_text.delta", **fields))
        return out

    def _summary_sync(self, live: Live, summary: tuple[str, ...]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        sent = live.sent_summary
        for at, text in enumerate(summary):
            if at >= len(sent):
                out.extend(self._close_summary(live, summary))
                empty = {"type": "summary_text", "text": ""}
                fields = {**self._ids(live), "summary_index": at, "part": empty}
                out.append(self._event("response.reasoning_summary_part.added", **fields))
                sent.append("")
                live.summary_open = True
            if at == len(sent) - 1 and live.summary_open and text.startswith(sent[at]) and text != sent[at]:
                fields = {**self._ids(live), "summary_index": at, "delta": text[len(sent[at]) :]}
                out.append(self._event("response.reasoning_summary_text.delta", **fields))
                sent[at] = text
        return out

    def _close_summary(self, live: Live, summary: tuple[str, ...]) -> list[dict[str, Any]]:
        if not live.summary_open:
            return []
        live.summary_open = False
        at = len(live.sent_summary) - 1
        return self._summary_done(live, at, summary[at] if at < len(summary) else live.sent_summary[at])

    def _summary_done(self, live: Live, at: int, text: str) -> list[dict[str, Any]]:
        part = {"type": "summary_text", "text": text}
        return [
            self._event(
                "response.reasoning_summary_text.done", **self._ids(live), summary_index=at, text=text
            ),
            self._event(
                "response.reasoning_summary_part.done", **self._ids(live), summary_index=at, part=part
            ),
        ]

    def _item_done_events(self, live: Live, final: Part) -> list[dict[str, Any]]:
        ids = self._ids(live)
        if isinstance(final, ToolCall) and final.kind == "function":
            seq = self._seq
            self._seq = seq + 1  # what _event gives, built inline
            done = {"type": "response.function_call_arguments.done", **ids, "name": final.name}
            done["arguments"] = final.arguments
            done["sequence_number"] = seq
            return [done]
        if isinstance(final, ToolCall) and final.kind == "custom":
            return [self._event("response.custom_tool_call_input.done", **ids, input=final.arguments)]
        if not isinstance(final, ReasoningPart):
            return []
        out = self._close_summary(live, final.summary)
        if final.text is not None:
            out.append(self._event("response.reasoning_text.done", **ids, content_index=0, text=final.text))
        return out
