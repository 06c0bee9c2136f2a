"""What each official SDK makes of a stream: tool calls and text, as a client would see them.

One function per target format, each feeding wire events (parsed JSON, as toolwire produces
them) to the SDK's own stream accumulator:

- openai-chat: ``ChatCompletionStreamState`` over chunks validated as ``ChatCompletionChunk``;
- openai-responses: ``ResponseStreamState`` (events validated against their own model when
  ``strict``); the final response object it settles on;
- anthropic: ``accumulate_event`` over ``RawMessageStreamEvent`` (the beta accumulator for
  server-tool blocks the plain types do not describe);
- gemini: every chunk validated as ``GenerateContentResponse``, parts concatenated.
- bedrock-converse: the events framed as AWS event-stream bytes and read back by botocore's
  ConverseStream parser (what boto3's ``converse_stream`` yields), blocks assembled by index the
  way a boto3 user does (text deltas joined, ``toolUse.input`` joined and parsed).
"""

from __future__ import annotations

import copy
import json
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pydantic
from anthropic.lib.streaming._beta_messages import accumulate_event as beta_accumulate_event
from anthropic.lib.streaming._messages import accumulate_event
from anthropic.types import RawMessageStreamEvent
from google.genai import types as gtypes
from openai._models import construct_type, validate_type
from openai._types import omit
from openai.lib.streaming.chat import ChatCompletionStreamState
from openai.lib.streaming.responses._responses import ResponseStreamState
from openai.types.chat import ChatCompletionChunk
from openai.types.responses import ResponseStreamEvent

from toolwire.formats._stream import DONE, WireEvent

__all__ = ["SDK_VIEWS", "SdkView", "sdk_view"]

Call = tuple[str | None, str, Any]
"""(id, name, arguments): arguments parsed from JSON when they parse, else the raw text."""


@dataclass(frozen=True)
class SdkView:
    """The tool calls, text and refusal text a client's SDK ends up with."""

    calls: list[Call]
    text: str
    refusal: str = ""


def _parsed(arguments: Any) -> Any:
    """JSON argument text parsed (``""`` is ``{}``); text that is not JSON stays text."""
    if not isinstance(arguments, str):
        return arguments
    try:
        return json.loads(arguments or "{}")
    except ValueError:
        return arguments


# ---------------------------------------------------------------- openai-chat


def chat_view(wire: list[WireEvent], strict: bool = True) -> SdkView:
    """``ChatCompletionStreamState`` over the chunks (each validated by the SDK's chunk model)."""
    state: ChatCompletionStreamState[Any] = ChatCompletionStreamState()
    fed = False
    for event in wire:
        if event == DONE:
            continue
        chunk = (
            ChatCompletionChunk.model_validate(event)
            if strict
            else construct_type(type_=ChatCompletionChunk, value=event)
        )
        state.handle_chunk(chunk)  # type: ignore[arg-type]
        fed = True
    if not fed:
        return SdkView([], "")
    choices = state.current_completion_snapshot.choices
    if not choices:
        return SdkView([], "")
    message = choices[0].message
    calls: list[Call] = []
    if message.function_call is not None:  # legacy function_call: no id on the wire
        calls.append((None, message.function_call.name, _parsed(message.function_call.arguments)))
    for call in message.tool_calls or []:
        if call.type == "function":
            calls.append((call.id, call.function.name, _parsed(call.function.arguments)))
        else:  # custom: unknown to the SDK's chunk model, so left as the wire's dict
            custom: Any = getattr(call, "custom", None)
            fields = custom if isinstance(custom, dict) else vars(custom)
            calls.append((call.id, fields["name"], fields["input"]))
    return SdkView(calls, message.content or "", message.refusal or "")


# ---------------------------------------------------------------- openai-responses


def _event_classes() -> dict[str, type]:
    union = typing.get_args(typing.get_args(ResponseStreamEvent)[0])
    return {typing.get_args(cls.model_fields["type"].annotation)[0]: cls for cls in union}


_RESPONSE_EVENTS = _event_classes()


def responses_view(wire: list[WireEvent], strict: bool = True) -> SdkView:
    """``ResponseStreamState`` over the events; the calls and text of the final response."""
    state = ResponseStreamState(input_tools=omit, text_format=omit)
    final: Any = None
    for event in wire:
        assert isinstance(event, dict)
        if strict:
            validate_type(type_=_RESPONSE_EVENTS[event["type"]], value=event)
        for out in state.handle_event(construct_type(type_=ResponseStreamEvent, value=event)):  # type: ignore[arg-type]
            final = getattr(out, "response", final)
    if final is None:
        return SdkView([], "")
    calls: list[Call] = []
    refusal: list[str] = []
    for item in final.output:
        if item.type == "function_call":
            calls.append((item.call_id, item.name, _parsed(item.arguments)))
        elif item.type == "custom_tool_call":
            calls.append((item.call_id, item.name, item.input))
        elif item.type == "message":
            refusal.extend(c.refusal for c in item.content if c.type == "refusal")
    return SdkView(calls, final.output_text, "".join(refusal))


# ---------------------------------------------------------------- anthropic

_ANTHROPIC_EVENT: pydantic.TypeAdapter[Any] = pydantic.TypeAdapter(RawMessageStreamEvent)
_PLAIN_BLOCKS = frozenset({"text", "thinking", "redacted_thinking", "tool_use"})


def anthropic_view(wire: list[WireEvent], strict: bool = True) -> SdkView:
    """The SDK's ``accumulate_event`` over the events; tool_use blocks and text blocks."""
    plain = all(
        e["content_block"]["type"] in _PLAIN_BLOCKS
        for e in wire
        if isinstance(e, dict) and e.get("type") == "content_block_start"
    )
    snapshot: Any = None
    json_bufs: dict[int, bytes] = {}
    for event in wire:
        assert isinstance(event, dict)
        if event.get("type") in ("ping", "error"):
            continue
        if plain and strict:
            snapshot = accumulate_event(
                event=_ANTHROPIC_EVENT.validate_python(event), current_snapshot=snapshot, json_bufs=json_bufs
            )
        else:
            snapshot = beta_accumulate_event(
                event=event,  # type: ignore[arg-type]
                current_snapshot=snapshot,
                json_bufs=json_bufs,
                request_headers=None,  # type: ignore[arg-type]
            )
    if snapshot is None:
        return SdkView([], "")
    calls: list[Call] = [(b.id, b.name, b.input) for b in snapshot.content if b.type == "tool_use"]
    return SdkView(calls, "".join(b.text for b in snapshot.content if b.type == "text"))


# ---------------------------------------------------------------- gemini


def gemini_view(wire: list[WireEvent], strict: bool = True) -> SdkView:
    """Every chunk validated as ``GenerateContentResponse``; parts of candidate 0 concatenated.

    ``strict=False`` parses like the SDK does for server responses (unknown fields dropped
    first), for recorded Gemini chunks passed through with fields newer than the SDK.
    """
    model = gtypes.GenerateContentResponse
    text: list[str] = []
    calls: list[Call] = []
    for chunk in wire:
        assert isinstance(chunk, dict)
        if strict:
            response = model.model_validate(chunk)
        else:
            response = model._from_response(response=copy.deepcopy(chunk), kwargs={})
        candidate = response.candidates[0] if response.candidates else None
        parts = candidate.content.parts if candidate is not None and candidate.content is not None else None
        for part in parts or ():
            if part.text is not None and not part.thought:
                text.append(part.text)
            if part.function_call is not None:
                call = part.function_call
                calls.append((call.id, call.name or "", call.args if call.args is not None else {}))
    return SdkView(calls, "".join(text))


# ---------------------------------------------------------------- bedrock-converse


class _Body:
    """A response body whose ``stream()`` yields the bytes in small chunks."""

    def __init__(self, raw: bytes) -> None:
        self.raw = raw

    def stream(self) -> Any:
        for i in range(0, len(self.raw), 97):
            yield self.raw[i : i + 97]

    def close(self) -> None:
        pass


def botocore_stream(raw: bytes) -> list[dict[str, Any]]:
    """What boto3's ``converse_stream`` yields for the body ``raw`` (exceptions raise)."""
    import boto3
    from botocore.eventstream import EventStream
    from botocore.parsers import EventStreamJSONParser

    client = boto3.client(
        "bedrock-runtime", region_name="us-east-1", aws_access_key_id="k", aws_secret_access_key="s"
    )
    shape = client.meta.service_model.operation_model("ConverseStream").output_shape.members["stream"]
    return list(EventStream(_Body(raw), shape, EventStreamJSONParser(), "ConverseStream"))


def bedrock_view(wire: list[WireEvent], strict: bool = True) -> SdkView:
    """botocore's reading of the framed events, assembled by block index."""
    from botocore.exceptions import EventStreamError

    from toolwire.formats._stream import encode_wire_event

    ok = [e for e in wire if not (isinstance(e, dict) and any(k.endswith("Exception") for k in e))]
    try:
        events = botocore_stream(b"".join(encode_wire_event("bedrock-converse", e) for e in ok))
    except EventStreamError:  # pragma: no cover - exceptions were left out above
        raise
    blocks: dict[int, dict[str, Any]] = {}
    for event in events:
        ((kind, body),) = event.items()
        if kind == "contentBlockStart" and "toolUse" in body["start"]:
            use = body["start"]["toolUse"]
            block = {"id": use["toolUseId"], "name": use["name"], "input": ""}
            if use.get("type") == "server_tool_use":  # the provider's own tool: not a client call
                block = {"text": ""}
            blocks[body["contentBlockIndex"]] = block
        elif kind == "contentBlockDelta":
            block = blocks.setdefault(body["contentBlockIndex"], {"text": ""})
            delta = body["delta"]
            if "text" in delta:
                block["text"] += delta["text"]
            elif "toolUse" in delta and "input" in block:
                block["input"] += delta["toolUse"]["input"]
    ordered = [blocks[i] for i in sorted(blocks)]
    calls: list[Call] = [(b["id"], b["name"], _parsed(b["input"])) for b in ordered if "name" in b]
    return SdkView(calls, "".join(b.get("text", "") for b in ordered))


SDK_VIEWS: dict[str, Callable[[list[WireEvent], bool], SdkView]] = {
    "openai-chat": chat_view,
    "openai-responses": responses_view,
    "anthropic": anthropic_view,
    "gemini": gemini_view,
    "bedrock-converse": bedrock_view,
}


def sdk_view(fmt: str, wire: list[WireEvent], *, strict: bool = True) -> SdkView:
    """What the official SDK of ``fmt`` accumulates from ``wire``."""
    return SDK_VIEWS[fmt](wire, strict)
