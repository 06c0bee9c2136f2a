"""IR parts -> Bedrock ``ContentBlock`` unions (the inverse of ``_decode_blocks``).

For another format's parts (each a note):

======================================  ===============================================================
part                                    Bedrock
======================================  ===============================================================
empty text                              omitted (Bedrock refuses empty text blocks)
image: base64 / ``data:`` URL           ``image.source.bytes`` when the MIME type is png, jpeg, gif or
                                        webp (sniffed when absent); other types and http(s) URLs
                                        (Bedrock fetches nothing) are dropped
file: base64 / text                     ``document`` with a known ``DocumentFormat`` and a ``name``
                                        (the filename made to fit Bedrock's name rule, else
                                        ``document-<n>``); other files are dropped
audio, another provider's file id       dropped
refusal                                 text (approximated)
reasoning                               ``reasoningContent`` only when Bedrock made it (origin
                                        ``bedrock-converse``): signatures return byte-exact to
                                        Bedrock only; other reasoning is dropped
tool call                               ``toolUse``: ``input`` the parsed argument object (custom
                                        input as ``{"input": text}``); ids outside
                                        ``[a-zA-Z0-9_.:-]{1,64}`` escaped (``toolwire._callids``)
tool result                             ``toolResult``; ``is_error`` -> ``status``
======================================  ===============================================================
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from toolwire._callids import sanitize_call_id
from toolwire._json import loads
from toolwire.errors import PayloadError
from toolwire.formats._idless import pair_idless_result
from toolwire.formats._wire import child, emit_extra
from toolwire.formats.bedrock_converse._decode_blocks import OPAQUE
from toolwire.formats.bedrock_converse._keys import FORMAT, TOOL_USE_ID, document_format, image_format
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

__all__ = ["Ctx", "encode_part", "with_opaque"]

_DIGITS = re.compile(r"\d+")
_IMAGE_MAGIC = (
    ("iVBORw0KGgo", "image/png"),
    ("/9j/", "image/jpeg"),
    ("R0lGOD", "image/gif"),
    ("UklGR", "image/webp"),
)
_NAME_BAD = re.compile(r"[^a-zA-Z0-9\s\-()\[\]]")
_SPACES = re.compile(r"\s+")


@dataclass(slots=True)
class Ctx:
    """State of one encoding: notes, whether extras belong to Bedrock, call-id bookkeeping."""

    notes: Notes
    same: bool
    renamed: dict[str, str] = field(default_factory=dict)
    pending: list[tuple[str, str]] = field(default_factory=list)
    documents: int = 0

    def call_id(self, call_id: str | None, name: str | None, path: str) -> str:
        """The wire id for ``call_id`` (synthesized from ``path`` when missing, escaped if invalid)."""
        if call_id is None:
            new = "tooluse_" + "_".join(_DIGITS.findall(path))
            self.notes.info(child(path, "id"), "synthesized", f"tool call {name!r} had no id; sent {new!r}")
            self.pending.append((name or "", new))
            return new
        return self._valid(call_id, path)

    def result_id(self, result: ToolResult, path: str) -> str:
        """The ``toolUseId`` of a result (an id-less one pairs with an id-less call by name, in order)."""
        if result.call_id is not None:
            return self._valid(result.call_id, path)
        return pair_idless_result(self.pending, result.name, self.notes, path)

    def _valid(self, call_id: str, path: str) -> str:
        if self.same or TOOL_USE_ID.fullmatch(call_id):
            return call_id
        new = self.renamed.get(call_id)
        if new is None:
            new = sanitize_call_id(call_id)
            if len(new) > 64:  # too long to escape: a hash (not restorable, but stable per id)
                new = (
                    "tw_"
                    + hashlib.blake2s(call_id.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
                )
            self.renamed[call_id] = new
            self.notes.info(path, "renamed", f"call id {call_id!r} sent as {new!r}")
        return new


def with_opaque(blocks: list[Any], opaque: Any) -> list[Any]:
    """``blocks`` with the opaque blocks put back at their indices."""
    if opaque:
        for index, raw in opaque:
            blocks.insert(index, raw)
    return blocks


def _extra(out: dict[str, Any], extra: dict[str, Any], ctx: Ctx, path: str) -> dict[str, Any]:
    if extra:
        emit_extra(out, extra, ctx.same, ctx.notes, path)
    return out


def _text(part: TextPart, ctx: Ctx, path: str) -> dict[str, Any] | None:
    if part.thought_signature is not None:
        ctx.notes.add(path, "dropped", "Gemini thought signature on a text part")
    if not ctx.same and not part.text:
        return None
    return _extra({"text": part.text}, part.extra, ctx, path)


def _inline(part: ImagePart | FilePart) -> tuple[str | None, str] | None:
    if part.data is not None:
        return part.media_type, part.data
    url = part.url
    if url is not None and url.startswith("data:"):
        head, sep, data = url.partition(",")
        if sep and head.endswith(";base64"):
            return head[5:-7] or part.media_type, data
    return None


def _source(part: ImagePart | FilePart, ctx: Ctx) -> dict[str, Any] | None:
    if ctx.same and part.file_id is not None:
        return {"s3Location": {"uri": part.file_id, **part.extra.get("~s3", {})}}
    if ctx.same and getattr(part, "text", None) is not None:
        return {"text": part.text}  # type: ignore[union-attr]
    inline = _inline(part)
    return None if inline is None else {"bytes": inline[1]}


def _same_format(part: ImagePart | FilePart, mime: str | None) -> Any:
    raw = part.extra.get("~format")
    return raw if "~format" in part.extra else mime


def _image(part: ImagePart, ctx: Ctx, path: str) -> dict[str, Any] | None:
    if ctx.same:
        body: dict[str, Any] = {
            "format": _same_format(part, image_format(part.media_type)),
            "source": _source(part, ctx),
        }
        return {"image": _extra(body, part.extra, ctx, path)}
    inline = _inline(part)
    if inline is None:
        where = "a URL (Bedrock takes bytes or S3 only)" if part.url else "another provider's file id"
        ctx.notes.add(path, "dropped", f"image by {where}")
        return None
    mime, data = inline
    fmt = (
        image_format(mime)
        if mime
        else next((image_format(m) for k, m in _IMAGE_MAGIC if data.startswith(k)), None)
    )
    if fmt is None:
        ctx.notes.add(path, "dropped", f"image of type {mime!r}: Bedrock takes png, jpeg, gif or webp")
        return None
    if part.detail is not None:
        ctx.notes.add(child(path, "detail"), "dropped", f"image detail {part.detail!r}")
    return {"image": _extra({"format": fmt, "source": {"bytes": data}}, part.extra, ctx, path)}


def _document_name(part: FilePart, ctx: Ctx, path: str) -> str:
    ctx.documents += 1
    name = part.filename or ""
    clean = _SPACES.sub(" ", _NAME_BAD.sub("-", name)).strip()[:200]
    if not clean:
        clean = f"document-{ctx.documents}"
    if clean != name:
        ctx.notes.info(child(path, "filename"), "renamed", f"document name {name!r} sent as {clean!r}")
    return clean


def _document(part: FilePart, ctx: Ctx, path: str) -> dict[str, Any] | None:
    if ctx.same:
        body: dict[str, Any] = {}
        fmt = _same_format(part, document_format(part.media_type))
        if fmt != "~absent":
            body["format"] = fmt
        body["name"] = part.filename
        body["source"] = _source(part, ctx)
        return {"document": _extra(body, part.extra, ctx, path)}
    if part.text is not None:
        fmt, source = document_format(part.media_type) or "txt", {"text": part.text}
    else:
        inline = _inline(part)
        fmt = document_format(inline[0] or part.media_type) if inline is not None else None
        if inline is None or fmt is None:
            what = f"file of type {part.media_type!r}" if inline is not None else "file by URL or file id"
            ctx.notes.add(
                path,
                "dropped",
                f"{what}: Bedrock documents take pdf, csv, doc(x), xls(x), html, txt or md bytes",
            )
            return None
        source = {"bytes": inline[1]}
    body = {"format": fmt, "name": _document_name(part, ctx, path), "source": source}
    return {"document": _extra(body, part.extra, ctx, path)}


def _audio(part: AudioPart, ctx: Ctx, path: str) -> None:
    ctx.notes.add(path, "dropped", "audio input is not sent to Bedrock")


def _refusal(part: RefusalPart, ctx: Ctx, path: str) -> dict[str, Any] | None:
    ctx.notes.add(path, "approximated", "a refusal sent as text")
    return {"text": part.text} if part.text else None


def _reasoning(part: ReasoningPart, ctx: Ctx, path: str) -> dict[str, Any] | None:
    if part.origin != FORMAT:
        ctx.notes.add(
            path, "dropped", f"reasoning of {part.origin or 'unknown origin'} (no Bedrock signature)"
        )
        return None
    if part.redacted is not None:
        return {"reasoningContent": {"redactedContent": part.redacted}}
    text: dict[str, Any] = {"text": part.text or ""}
    if part.signature is not None:
        text["signature"] = part.signature
    emit_extra(text, part.extra, True, ctx.notes, path)
    return {"reasoningContent": {"reasoningText": text}}


def _input(call: ToolCall, ctx: Ctx, path: str) -> Any:
    if call.kind == "custom":
        ctx.notes.add(path, "approximated", f"custom tool input of {call.name!r} sent as input.input")
        return {"input": call.arguments}
    if not call.arguments:
        return {}
    try:
        value = loads(call.arguments)
    except PayloadError:
        value = None
    if type(value) is dict or (ctx.same and call.extra.get("~input")):
        return value
    ctx.notes.add(
        child(path, "arguments"),
        "approximated",
        f"arguments of {call.name!r} are not a JSON object; sent {{}}",
    )
    return {}


def _tool_call(call: ToolCall, ctx: Ctx, path: str) -> dict[str, Any] | None:
    if call.kind == "builtin" and not ctx.same:
        ctx.notes.add(path, "dropped", f"built-in tool call {call.name!r} of another format")
        return None
    out = {
        "toolUseId": ctx.call_id(call.id, call.name, path),
        "name": call.name,
        "input": _input(call, ctx, path),
    }
    if call.thought_signature is not None:
        ctx.notes.add(path, "dropped", "Gemini thought signature on a function call")
    return {"toolUse": _extra(out, call.extra, ctx, path)}


def _result_item(part: Any, ctx: Ctx, path: str) -> dict[str, Any] | None:
    if ctx.same and type(part) is TextPart and part.extra.get("~json"):
        return {"json": loads(part.text)}
    return encode_part(part, ctx, path)


def _tool_result(result: ToolResult, ctx: Ctx, path: str) -> dict[str, Any] | None:
    if result.kind == "builtin" and not ctx.same:
        ctx.notes.add(path, "dropped", f"built-in tool result {result.name!r} of another format")
        return None
    content_path = child(path, "content")
    items = [_result_item(p, ctx, f"{content_path}[{i}]") for i, p in enumerate(result.content)]
    content = [item for item in items if item is not None]
    if ctx.same:
        content = with_opaque(content, result.extra.get(OPAQUE))
    out: dict[str, Any] = {"toolUseId": ctx.result_id(result, path), "content": content}
    if result.is_error is not None and (ctx.same or result.is_error):
        out["status"] = "error" if result.is_error else "success"
    extra = {k: v for k, v in result.extra.items() if k != OPAQUE} if ctx.same else result.extra
    return {"toolResult": _extra(out, extra, ctx, path)}


_ENCODERS: dict[type, Any] = {
    TextPart: _text,
    ImagePart: _image,
    FilePart: _document,
    AudioPart: _audio,
    RefusalPart: _refusal,
    ReasoningPart: _reasoning,
    ToolCall: _tool_call,
    ToolResult: _tool_result,
}


def encode_part(part: Part, ctx: Ctx, path: str) -> dict[str, Any] | None:
    """One IR part as one content block, or ``None`` when it has no Bedrock form (noted)."""
    encoded: dict[str, Any] | None = _ENCODERS[type(part)](part, ctx, path)
    return encoded
