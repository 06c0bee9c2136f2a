"""IR parts -> Gemini ``Part`` objects (requests and responses alike).

Rules for parts of other formats (each loss noted):

- ``thoughtSignature`` is Gemini's own field: a :class:`TextPart` / :class:`ToolCall` that
  carries one emits it on the same part; :class:`ReasoningPart` of another origin is
  dropped (its readable text included: Gemini takes no unsigned thoughts back).
- Call ids of every format go in ``functionCall.id`` / ``functionResponse.id`` (both in the
  v1beta ``FunctionCall`` / ``FunctionResponse`` protos); Gemini also pairs by order, so the
  translate layer puts results in the order of their calls (``toolwire._pairing``).
- Arguments are parsed to an object (``""`` -> no ``args``); text that is not a JSON
  object becomes ``{}`` with an ``approximated`` note (raises under ``strict``).
- Tool results become ``functionResponse`` with ``response`` ``{"output": text}`` or
  ``{"error": text}`` (``is_error``); media go to ``functionResponse.parts``.
- Images/files: inline data -> ``inlineData``; URLs (``data:`` URLs are unpacked) ->
  ``fileData``; provider file ids, filenames, OpenAI ``detail`` are dropped with a note.
- Built-in tool calls/results of other formats are dropped; refusals become text.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Callable, Sequence
from typing import Any

from toolwire.formats.gemini._keys import args_object, emit, loads_object, merge, respell
from toolwire.ir.content import (
    AudioPart,
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

__all__ = ["Ctx", "encode_parts"]

_MAGIC = (("iVBOR", "image/png"), ("/9j/", "image/jpeg"), ("R0lGOD", "image/gif"), ("UklGR", "image/webp"))


class Ctx:
    """Encoding state: target sameness, notes, and the names of calls seen (for nameless results):
    by id, and the id-less ones in order with the count of id-less results (Gemini pairs those
    by position)."""

    __slots__ = ("idless", "names", "notes", "same", "taken")

    def __init__(self, same: bool, notes: Notes) -> None:
        self.same = same
        self.notes = notes
        self.names: dict[str, str] = {}
        self.idless: list[str] = []
        self.taken = 0


def _restore(out: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """Same format: the inner object's unknown fields and spelling back in place."""
    rest = extra.get("~inner")
    if rest:
        merge(out, rest)
    return respell(out, extra.get("~snake.inner"))


def _text(part: TextPart, ctx: Ctx, out: list[dict[str, Any]], path: str) -> None:
    wire: dict[str, Any] = {"text": part.text}
    if part.thought_signature is not None:
        wire["thoughtSignature"] = part.thought_signature
    if part.extra:
        if ctx.same and "~thought" in part.extra:
            wire["thought"] = part.extra["~thought"]
        wire = emit(wire, part.extra, ctx.same, ctx.notes, path)
    out.append(wire)


def _reasoning(part: ReasoningPart, ctx: Ctx, out: list[dict[str, Any]], path: str) -> None:
    if part.origin != "gemini":
        ctx.notes.add(path, "dropped", f"reasoning of {part.origin or 'unknown origin'} has no Gemini form")
        return
    wire: dict[str, Any] = {}
    if part.text is not None:
        wire["text"] = part.text
    if not part.extra.get("~bare"):
        wire["thought"] = True
    if part.signature is not None:
        wire["thoughtSignature"] = part.signature
    if part.summary or part.redacted or part.encrypted or part.id:
        ctx.notes.add(path, "dropped", "reasoning summary/opaque state other than a thought signature")
    out.append(emit(wire, part.extra, True, ctx.notes, path))


def _guess_image(data: str) -> str | None:
    for prefix, mime in _MAGIC:
        if data.startswith(prefix):
            return mime
    return None


def _data_url(url: str) -> tuple[str | None, str] | None:
    """``(mime, base64 data)`` of a base64 ``data:`` URL, else ``None``."""
    head, sep, data = url.partition(",")
    if not sep or not head.endswith(";base64"):
        return None
    return head[5:-7] or None, data


def _blob(part: ImagePart | AudioPart | FilePart, ctx: Ctx, path: str) -> dict[str, Any] | None:
    """``{"inlineData": ...}`` or ``{"fileData": ...}`` for a media part, else ``None`` (noted)."""
    mime = part.media_type
    data = part.data
    url = getattr(part, "url", None)
    if data is None and url is not None and url.startswith("data:"):
        parsed = _data_url(url)
        if parsed is None:
            ctx.notes.add(path, "dropped", "a data: URL that is not base64 has no Gemini form")
            return None
        mime, data = parsed[0] or mime, parsed[1]
    if data is not None:
        if mime is None and not ctx.same:
            mime = _media_type(part, data, ctx, path)
        blob: dict[str, Any] = {"data": data} if mime is None else {"mimeType": mime, "data": data}
        wire: dict[str, Any] = {"inlineData": blob}
        key = "inlineData"
    elif url is not None:
        inner: dict[str, Any] = {"fileUri": url}
        if mime is None and not ctx.same:
            mime = mimetypes.guess_type(url)[0]
        if mime is not None:
            inner["mimeType"] = mime
        wire, key = {"fileData": inner}, "fileData"
    else:
        ctx.notes.add(path, "dropped", "a file referenced by provider file id has no Gemini form")
        return None
    if ctx.same:
        wire[key] = _restore(wire[key], part.extra)
    else:
        _note_media_fields(part, ctx, path)
    return wire


def _media_type(part: ImagePart | AudioPart | FilePart, data: str, ctx: Ctx, path: str) -> str:
    if isinstance(part, AudioPart) and part.format:
        return f"audio/{part.format}"
    guessed = _guess_image(data) if isinstance(part, ImagePart) else None
    if guessed is None:
        guessed = "image/png" if isinstance(part, ImagePart) else "application/octet-stream"
        ctx.notes.add(path, "synthesized", f"inline data without a MIME type sent as {guessed}")
    return guessed


def _note_media_fields(part: ImagePart | AudioPart | FilePart, ctx: Ctx, path: str) -> None:
    if isinstance(part, ImagePart) and part.detail not in (None, "auto"):
        ctx.notes.add(path, "dropped", f"image detail {part.detail!r}")
    if isinstance(part, FilePart) and part.filename is not None:
        ctx.notes.add(path, "dropped", f"file name {part.filename!r}")


def _media(part: ImagePart | AudioPart | FilePart, ctx: Ctx, out: list[dict[str, Any]], path: str) -> None:
    if isinstance(part, FilePart) and part.data is None and part.url is None and part.text is not None:
        ctx.notes.add(path, "approximated", "a text document sent as a text part")
        out.append({"text": part.text})
        return
    wire = _blob(part, ctx, path)
    if wire is not None:
        out.append(emit(wire, part.extra, ctx.same, ctx.notes, path))


def _refusal(part: RefusalPart, ctx: Ctx, out: list[dict[str, Any]], path: str) -> None:
    ctx.notes.add(path, "approximated", "a refusal sent as text")
    out.append({"text": part.text})


def _builtin(part: ToolCall | ToolResult, ctx: Ctx, out: list[dict[str, Any]], path: str) -> None:
    if not ctx.same:
        ctx.notes.add(path, "dropped", f"built-in tool part {part.name!r} of another format")
        return
    wire = {k: v for k, v in part.extra.items() if k[:1] != "~"}
    if isinstance(part, ToolCall) and part.thought_signature is not None:
        wire["thoughtSignature"] = part.thought_signature
    out.append(respell(wire, part.extra.get("~snake")))


def _args(call: ToolCall, ctx: Ctx, path: str) -> dict[str, Any]:
    if call.kind == "custom":
        ctx.notes.add(
            f"{path}.arguments", "approximated", f"custom tool input of {call.name!r} sent as args.input"
        )
        return {"input": call.arguments}
    parsed = args_object(call.arguments, path)
    if isinstance(parsed, str):
        ctx.notes.add(
            f"{path}.arguments",  # the IR field: notes map it to the source's
            "approximated",
            f"arguments of {call.name!r} are not a JSON object ({parsed}); sent {{}}",
        )
        return {}
    return parsed


def _call(call: ToolCall, ctx: Ctx, out: list[dict[str, Any]], path: str) -> None:
    if call.kind == "builtin":
        _builtin(call, ctx, out, path)
        return
    inner: dict[str, Any] = {"name": call.name}
    if call.arguments:
        inner["args"] = _args(call, ctx, path)
    if call.id is not None:
        inner["id"] = call.id
        ctx.names[call.id] = call.name
    else:
        ctx.idless.append(call.name)
    wire: dict[str, Any] = {"functionCall": _restore(inner, call.extra) if ctx.same else inner}
    if call.thought_signature is not None:
        wire["thoughtSignature"] = call.thought_signature
    out.append(emit(wire, call.extra, ctx.same, ctx.notes, path))


def _result_response(result: ToolResult, text: str, ctx: Ctx, path: str) -> dict[str, Any] | None:
    if ctx.same and "~wrap" in result.extra:
        wrap = result.extra["~wrap"]
        if wrap is None:
            return None
        if wrap:
            return {wrap: text}
        parsed = loads_object(text)
        if parsed is not None:
            return parsed
    if result.is_error:
        return {"error": text}
    if not ctx.same:
        ctx.notes.info(path, "approximated", "tool result text wrapped as response.output")
    return {"output": text}


def _text_of(part: Part) -> str | None:
    """The text of a text-like tool result part (text, refusal, text document)."""
    if isinstance(part, (TextPart, RefusalPart)):
        return part.text
    if isinstance(part, FilePart) and part.data is None and part.url is None:
        return part.text
    return None


def _result(result: ToolResult, ctx: Ctx, out: list[dict[str, Any]], path: str) -> None:
    if result.kind == "builtin":
        _builtin(result, ctx, out, path)
        return
    texts: list[str] = []
    media: list[dict[str, Any]] = []
    for index, part in enumerate(result.content):
        text = _text_of(part)
        if text is not None:
            texts.append(text)
        elif isinstance(part, (ImagePart, AudioPart, FilePart)):
            item_path = f"{path}.functionResponse.parts[{index}]"
            blob = _blob(part, ctx, item_path)
            if blob is not None:
                media.append(emit(blob, part.extra, ctx.same, ctx.notes, item_path))
    if len(texts) > 1 and not ctx.same:
        ctx.notes.info(path, "approximated", f"{len(texts)} text parts of a tool result joined")
    inner: dict[str, Any] = {}
    if result.name is not None or not ctx.same:
        inner["name"] = _result_name(result, ctx, path)
    if result.call_id is not None:
        inner["id"] = result.call_id
    response = _result_response(result, "\n".join(texts), ctx, path)
    if response is not None:
        inner["response"] = response
    if media:
        inner["parts"] = media[0] if ctx.same and result.extra.get("~single.parts") else media
    wire = {"functionResponse": _restore(inner, result.extra) if ctx.same else inner}
    out.append(emit(wire, result.extra, ctx.same, ctx.notes, path))


def _result_name(result: ToolResult, ctx: Ctx, path: str) -> str:
    """The result's name, else that of its call: by id, or for an id-less result the id-less
    call at its position (as Gemini pairs them)."""
    if result.call_id is None:
        ctx.taken += 1
        if result.name is None and ctx.taken <= len(ctx.idless):
            return ctx.idless[ctx.taken - 1]
    if result.name is not None:
        return result.name
    name = ctx.names.get(result.call_id or "")
    if name is not None:
        return name
    ctx.notes.add(
        path, "synthesized", f"tool result {result.call_id!r} answers no known call; name 'unknown'"
    )
    return "unknown"


_Encoder = Callable[[Any, Ctx, list[dict[str, Any]], str], None]

_ENCODERS: dict[type, _Encoder] = {
    TextPart: _text,
    ReasoningPart: _reasoning,
    ImagePart: _media,
    AudioPart: _media,
    FilePart: _media,
    RefusalPart: _refusal,
    ToolCall: _call,
    ToolResult: _result,
}


def encode_parts(parts: Sequence[Part], ctx: Ctx, path: str, extra: dict[str, Any]) -> list[dict[str, Any]]:
    """Encode IR parts as a Gemini ``parts`` array (opaque parts restored for the same format)."""
    out: list[dict[str, Any]] = []
    for index, part in enumerate(parts):
        _ENCODERS[type(part)](part, ctx, out, f"{path}[{index}]")
    if ctx.same:
        for index, raw in extra.get("~opaque", ()):
            out.insert(index, raw)
    return out
