"""IR parts -> Anthropic content blocks.

Each part becomes at most one block (so opaque blocks can be put back by position for the
same format). Cross-format rules: empty text is skipped (Anthropic rejects empty text
blocks); images need inline data (``data:`` URLs are unpacked, media types sniffed when
missing) or an http(s) URL; documents take PDF data, plain text or a URL; provider file
ids, audio and another format's built-in parts are dropped with a note; refusals become
text; reasoning is replayed only when its origin is Anthropic (signatures byte-exact),
never fabricated; tool-call arguments are parsed into the ``input`` object (``""`` is ``{}``;
text that is not a JSON object is noted and sent as ``{}``). Missing call ids are synthesized
from the part's position (``toolu_<message>_<part>``) and results without ids paired by tool
name and order; ids outside ``[a-zA-Z0-9_-]`` are escaped the same way for calls and results
(:func:`toolwire._callids.sanitize_call_id`: reversible, so two ids never merge into one).
OpenAI Responses item ids and namespaces on calls are not carried (no Anthropic field).

Note paths are IR paths (``$.messages[i].parts[j]``, ``$.parts[j]`` in responses).
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass, field
from typing import Any

from toolwire._callids import sanitize_call_id
from toolwire.formats._idless import pair_idless_result
from toolwire.formats._wire import child, emit_extra
from toolwire.formats.anthropic._util import OPAQUE, parse_object, with_opaque
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

__all__ = ["Ctx", "encode_part"]

_DIGITS = re.compile(r"\d+")
_IMAGE_MAGIC = (
    ("iVBORw0KGgo", "image/png"),
    ("/9j/", "image/jpeg"),
    ("R0lGOD", "image/gif"),
    ("UklGR", "image/webp"),
)
_PDF_MAGIC = "JVBER"


@dataclass(slots=True)
class Ctx:
    """State of one encoding: notes, whether extras belong to Anthropic, call-id bookkeeping."""

    notes: Notes
    same: bool
    renamed: dict[str, str] = field(default_factory=dict)
    pending: list[tuple[str, str]] = field(default_factory=list)

    def call_id(self, call: ToolCall, path: str) -> str:
        """The wire id of a tool call (synthesized from ``path`` when missing, sanitized if needed)."""
        if call.id is None:
            new = "toolu_" + "_".join(_DIGITS.findall(path))
            self.notes.info(
                child(path, "id"), "synthesized", f"tool call {call.name!r} had no id; sent {new!r}"
            )
            self.pending.append((call.name, new))
            return new
        return self._valid(call.id, child(path, "id"))

    def result_id(self, result: ToolResult, path: str) -> str:
        """The wire ``tool_use_id`` of a result (paired by name and order when it has none)."""
        if result.call_id is not None:
            return self._valid(result.call_id, child(path, "call_id"))
        return pair_idless_result(self.pending, result.name, self.notes, path)

    def _valid(self, call_id: str, path: str) -> str:
        new = self.renamed.get(call_id)
        if new is None:
            new = self.renamed[call_id] = sanitize_call_id(call_id)
            if new != call_id:
                self.notes.info(path, "renamed", f"call id {call_id!r} sent as {new!r}")
        return new


def _extra(out: dict[str, Any], extra: dict[str, Any], same: bool, notes: Notes, path: str) -> dict[str, Any]:
    if extra:
        emit_extra(out, extra, same, notes, path)
    return out


def _text(part: TextPart, ctx: Ctx, path: str) -> dict[str, Any] | None:
    if part.thought_signature is not None:
        ctx.notes.add(path, "dropped", "Gemini thought signature on a text part")
    if not part.text and not ctx.same:
        return None
    out = {"type": "text", "text": part.text}
    if part.extra:
        emit_extra(out, part.extra, ctx.same, ctx.notes, path)
    return out


def _unpack_data_url(url: str) -> tuple[str | None, str] | None:
    """``(media_type, base64 data)`` of a base64 ``data:`` URL."""
    head, sep, data = url.partition(",")
    if not sep or not head.endswith(";base64"):
        return None
    media_type = head[5:-7] or None
    return media_type, data


def _sniff(data: str, table: tuple[tuple[str, str], ...]) -> str | None:
    for magic, media_type in table:
        if data.startswith(magic):
            return media_type
    return None


def _inline(part: ImagePart | FilePart) -> tuple[str | None, str] | None:
    if part.data is not None:
        return part.media_type, part.data
    if part.url is not None and part.url.startswith("data:"):
        return _unpack_data_url(part.url)
    return None


def _image_source(part: ImagePart, ctx: Ctx, path: str) -> dict[str, Any] | None:
    inline = _inline(part)
    if inline is not None:
        media_type, data = inline
        if media_type is None:
            media_type = _sniff(data, _IMAGE_MAGIC)
            if media_type is None:
                ctx.notes.add(path, "approximated", "image without a media type sent as image/png")
                media_type = "image/png"
        return {"type": "base64", "media_type": media_type, "data": data}
    if part.url is not None:
        return {"type": "url", "url": part.url}
    if part.file_id is not None and ctx.same:
        return {"type": "file", "file_id": part.file_id}
    ctx.notes.add(path, "dropped", "image without inline data or URL (another provider's file id)")
    return None


def _image(part: ImagePart, ctx: Ctx, path: str) -> dict[str, Any] | None:
    source = _image_source(part, ctx, path)
    if source is None:
        return None
    if part.detail is not None:
        ctx.notes.add(child(path, "detail"), "dropped", f"image detail {part.detail!r}")
    return _extra({"type": "image", "source": source}, part.extra, ctx.same, ctx.notes, path)


def _text_from_base64(data: str) -> str | None:
    try:
        return base64.b64decode(data, validate=True).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None


def _inline_document(media_type: str | None, data: str, ctx: Ctx, path: str) -> dict[str, Any] | None:
    if media_type is None and data.startswith(_PDF_MAGIC):
        media_type = "application/pdf"
    if ctx.same or media_type == "application/pdf":
        return {"type": "base64", "media_type": media_type, "data": data}
    if media_type is not None and media_type.startswith("text/"):
        text = _text_from_base64(data)
        if text is not None:
            return {"type": "text", "media_type": "text/plain", "data": text}
    ctx.notes.add(path, "dropped", f"file of type {media_type!r}: Anthropic documents take PDF or plain text")
    return None


def _document_source(part: FilePart, ctx: Ctx, path: str) -> dict[str, Any] | None:
    if part.text is not None:
        return {"type": "text", "media_type": part.media_type or "text/plain", "data": part.text}
    inline = _inline(part)
    if inline is not None:
        return _inline_document(inline[0] or part.media_type, inline[1], ctx, path)
    if part.url is not None:
        return {"type": "url", "url": part.url}
    if part.file_id is not None and ctx.same:
        return {"type": "file", "file_id": part.file_id}
    ctx.notes.add(path, "dropped", "file without inline data, text or URL (another provider's file id)")
    return None


def _document(part: FilePart, ctx: Ctx, path: str) -> dict[str, Any] | None:
    source = _document_source(part, ctx, path)
    if source is None:
        return None
    out: dict[str, Any] = {"type": "document", "source": source}
    if part.filename is not None:
        out["title"] = part.filename
    return _extra(out, part.extra, ctx.same, ctx.notes, path)


def _audio(part: AudioPart, ctx: Ctx, path: str) -> None:
    ctx.notes.add(path, "dropped", "audio input has no Anthropic equivalent")


def _refusal(part: RefusalPart, ctx: Ctx, path: str) -> dict[str, Any] | None:
    ctx.notes.add(path, "approximated", "a refusal sent as text")
    return {"type": "text", "text": part.text} if part.text else None


def _reasoning(part: ReasoningPart, ctx: Ctx, path: str) -> dict[str, Any] | None:
    if part.origin != "anthropic":
        ctx.notes.add(
            path, "dropped", f"reasoning of {part.origin or 'unknown origin'} (no Anthropic signature)"
        )
        return None
    if part.redacted is not None:
        out: dict[str, Any] = {"type": "redacted_thinking", "data": part.redacted}
    else:
        out = {"type": "thinking", "thinking": part.text or ""}
        if part.signature is not None:
            out["signature"] = part.signature
    return _extra(out, part.extra, True, ctx.notes, path)


def _builtin(part: ToolCall | ToolResult, ctx: Ctx, path: str) -> dict[str, Any] | None:
    if not ctx.same:
        ctx.notes.add(
            path, "dropped", f"built-in tool part {part.name or part.extra.get('type')!r} of another format"
        )
        return None
    return {k: v for k, v in part.extra.items() if k[:1] != "~"}


def _input(call: ToolCall, ctx: Ctx, path: str) -> dict[str, Any]:
    if call.kind == "custom":
        ctx.notes.add(path, "approximated", f"custom tool input of {call.name!r} sent as input.input")
        return {"input": call.arguments}
    parsed = parse_object(call.arguments)
    if isinstance(parsed, str):
        ctx.notes.add(
            child(path, "arguments"),
            "approximated",
            f"arguments of {call.name!r} are not a JSON object ({parsed}); sent {{}}",
        )
        return {}
    return parsed


def _tool_call(call: ToolCall, ctx: Ctx, path: str) -> dict[str, Any] | None:
    if call.kind == "builtin":
        return _builtin(call, ctx, path)
    out = {
        "type": "tool_use",
        "id": ctx.call_id(call, path),
        "name": call.name,
        "input": _input(call, ctx, path),
    }
    if call.thought_signature is not None:
        ctx.notes.add(path, "dropped", "Gemini thought signature on a function call")
    return _extra(out, call.extra, ctx.same, ctx.notes, path)


def _result_content(result: ToolResult, ctx: Ctx, path: str) -> str | list[dict[str, Any]] | None:
    parts = result.content
    hint = result.extra.get("~content") if ctx.same else None
    if not parts and (hint == "absent" or "content" in result.extra):
        return None  # absent, or null (re-emitted from extra)
    single = len(parts) == 1 and type(parts[0]) is TextPart and not parts[0].extra
    if single and (hint == "string" or not ctx.same):
        return parts[0].text  # type: ignore[union-attr]
    if not parts and not ctx.same:
        return None
    content_path = child(path, "content")
    blocks = []
    for index, part in enumerate(parts):
        block = encode_part(part, ctx, f"{content_path}[{index}]")
        if block is not None:
            blocks.append(block)
    return with_opaque(blocks, result.extra.get(OPAQUE)) if ctx.same else (blocks or None)


def _tool_result(result: ToolResult, ctx: Ctx, path: str) -> dict[str, Any] | None:
    if result.kind == "builtin":
        return _builtin(result, ctx, path)
    out: dict[str, Any] = {"type": "tool_result", "tool_use_id": ctx.result_id(result, path)}
    content = _result_content(result, ctx, path)
    if content is not None:
        out["content"] = content
    if result.is_error is not None and (ctx.same or result.is_error):
        out["is_error"] = result.is_error
    extra = result.extra
    if extra:
        if OPAQUE in extra:
            extra = {k: v for k, v in extra.items() if k != OPAQUE}
        emit_extra(out, extra, ctx.same, ctx.notes, path)
    return out


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
    """One IR part as one content block, or ``None`` when it has no Anthropic form (noted)."""
    encoded: dict[str, Any] | None = _ENCODERS[type(part)](part, ctx, path)
    return encoded
