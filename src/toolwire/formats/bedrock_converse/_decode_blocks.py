"""Bedrock ``ContentBlock`` unions -> IR parts.

=======================================  ==========================================================
block                                    IR
=======================================  ==========================================================
``text``                                 :class:`~toolwire.ir.TextPart`
``image`` (``bytes`` or ``s3Location``)  :class:`~toolwire.ir.ImagePart` (``data`` base64, or
                                         ``file_id`` = the ``s3://`` URI: a provider file, which
                                         other formats drop, noted), MIME type from ``format``
``document``                             :class:`~toolwire.ir.FilePart` (``name`` is the filename;
                                         ``bytes``/``s3Location``/``text`` source)
``toolUse``                              :class:`~toolwire.ir.ToolCall` (``input`` as compact JSON;
                                         with a ``type``, a server tool: kind ``builtin``)
``toolResult``                           :class:`~toolwire.ir.ToolResult` (``status`` ->
                                         ``is_error``; ``json`` items as text, hinted ``~json``)
``reasoningContent``                     :class:`~toolwire.ir.ReasoningPart` of origin
                                         ``bedrock-converse`` (text + signature, or redacted bytes)
anything else (``cachePoint``,           kept as it is in the message's ``bedrock_blocks`` extra
``guardContent``, ``video``, ``audio``,  (``[[index, block], ...]``): re-inserted for Bedrock,
``citationsContent``, ``searchResult``,  dropped with a note elsewhere
a document with ``content``...)
=======================================  ==========================================================

Every block is an object with exactly one member; other keys are refused by Bedrock, so a
block with several keys is kept opaque too (same-format round trips stay exact).
"""

from __future__ import annotations

from typing import Any

from toolwire._json import dumps_str
from toolwire.errors import PayloadError
from toolwire.formats._wire import as_dict, as_list, child, fail, req_name, split_extra
from toolwire.formats.bedrock_converse._keys import DOCUMENT_FORMATS, FORMAT, IMAGE_FORMATS, media_type
from toolwire.ir.base import Extra
from toolwire.ir.content import (
    ContentPart,
    FilePart,
    ImagePart,
    Part,
    ReasoningPart,
    TextPart,
    ToolCall,
    ToolCallKind,
    ToolResult,
)

__all__ = ["OPAQUE", "decode_blocks", "decode_result_content"]

OPAQUE = "bedrock_blocks"
"""Extra key of blocks the IR cannot hold: ``[[index, block], ...]`` (re-inserted for Bedrock; a
field other formats do not have, so their encoders note it dropped)."""


def _source(source: Any, path: str) -> tuple[dict[str, Any], Extra] | None:
    """``(IR fields, extra)`` of an image/document ``source`` union, or ``None`` (kept opaque)."""
    source = as_dict(source, path)
    if len(source) != 1:
        return None
    ((kind, value),) = source.items()
    if kind == "bytes" and type(value) is str:
        return {"data": value}, {}
    if kind == "text" and type(value) is str:
        return {"text": value}, {}
    if kind == "s3Location" and type(value) is dict and type(value.get("uri")) is str:
        owner = split_extra(value, frozenset({"uri"}))
        return {"file_id": value["uri"]}, ({"~s3": owner} if owner else {})
    return None


def _image(body: dict[str, Any], path: str) -> ImagePart | None:
    fields = _source(body.get("source"), child(path, "source"))
    if fields is None or "text" in fields[0]:
        return None
    values, extra = fields
    fmt = body.get("format")
    mime = media_type(fmt, IMAGE_FORMATS)
    if mime is None:
        extra["~format"] = fmt
    extra.update(split_extra(body, frozenset({"format", "source"})))
    return ImagePart(media_type=mime, extra=extra, **values)


def _document(body: dict[str, Any], path: str) -> FilePart | None:
    fields = _source(body.get("source"), child(path, "source"))
    name = body.get("name")
    if fields is None or type(name) is not str:
        return None
    values, extra = fields
    fmt = body.get("format")
    mime = media_type(fmt, DOCUMENT_FORMATS)
    if mime is None:
        extra["~format"] = fmt if "format" in body else "~absent"
    extra.update(split_extra(body, frozenset({"format", "source", "name"})))
    return FilePart(media_type=mime, filename=name, extra=extra, **values)


def _tool_use(body: dict[str, Any], path: str) -> ToolCall:
    call_id = body.get("toolUseId")
    if type(call_id) is not str:
        fail(child(path, "toolUseId"), "expected a string")
    name = req_name(body, "name", path)
    if "input" not in body:
        fail(child(path, "input"), "required field is missing")
    value = body["input"]
    extra = split_extra(body, frozenset({"toolUseId", "name", "input"}))
    if type(value) is not dict:
        extra["~input"] = True  # a non-object Document, kept as its JSON text
    kind: ToolCallKind = "builtin" if body.get("type") is not None else "function"  # a server tool
    arguments = dumps_str(value, path=child(path, "input"))
    return ToolCall(id=call_id, name=name, arguments=arguments, kind=kind, extra=extra)


def _reasoning(body: dict[str, Any], path: str) -> ReasoningPart | None:
    if len(body) != 1:
        return None
    ((kind, value),) = body.items()
    if kind == "redactedContent" and type(value) is str:
        return ReasoningPart(redacted=value, origin=FORMAT)
    if kind == "reasoningText" and type(value) is dict and type(value.get("text")) is str:
        signature = value.get("signature")
        if signature is not None and type(signature) is not str:
            fail(child(child(path, kind), "signature"), "expected a string")
        extra = split_extra(value, frozenset({"text", "signature"}))
        return ReasoningPart(text=value["text"], signature=signature, origin=FORMAT, extra=extra)
    return None


def _result_item(item: Any, path: str) -> ContentPart | None:
    item = as_dict(item, path)
    if len(item) != 1:
        return None
    ((kind, value),) = item.items()
    if kind == "text" and type(value) is str:
        return TextPart(text=value)
    if kind == "json":
        return TextPart(text=dumps_str(value, path=child(path, "json")), extra={"~json": True})
    if kind == "image" and type(value) is dict:
        return _image(value, child(path, kind))
    if kind == "document" and type(value) is dict:
        return _document(value, child(path, kind))
    return None


def decode_result_content(items: Any, path: str, extra: Extra) -> tuple[ContentPart, ...]:
    """The parts of a ``toolResult.content`` list (items the IR cannot hold go to ``extra``)."""
    out: list[ContentPart] = []
    for index, item in enumerate(as_list(items, path)):
        part = _result_item(item, f"{path}[{index}]")
        if part is None:
            extra.setdefault(OPAQUE, []).append([index, item])
        else:
            out.append(part)
    return tuple(out)


def _tool_result(body: dict[str, Any], path: str) -> ToolResult:
    call_id = body.get("toolUseId")
    if type(call_id) is not str:
        fail(child(path, "toolUseId"), "expected a string")
    if "content" not in body:
        fail(child(path, "content"), "required field is missing")
    extra = split_extra(body, frozenset({"toolUseId", "content", "status"}))
    content = decode_result_content(body["content"], child(path, "content"), extra)
    status = body.get("status")
    if status is not None and status not in ("success", "error"):
        fail(child(path, "status"), f"expected 'success' or 'error', got {status!r}")
    is_error = None if status is None else status == "error"
    kind: ToolCallKind = "builtin" if body.get("type") is not None else "function"
    return ToolResult(call_id=call_id, content=content, is_error=is_error, kind=kind, extra=extra)


def _text(value: Any, path: str) -> TextPart | None:
    return TextPart(text=value) if type(value) is str else None


_DECODERS: dict[str, Any] = {
    "text": _text,
    "image": lambda v, p: _image(v, p) if type(v) is dict else None,
    "document": lambda v, p: _document(v, p) if type(v) is dict else None,
    "toolUse": lambda v, p: _tool_use(as_dict(v, p), p),
    "toolResult": lambda v, p: _tool_result(as_dict(v, p), p),
    "reasoningContent": lambda v, p: _reasoning(v, p) if type(v) is dict else None,
}


def decode_block(block: Any, path: str) -> Part | None:
    """One content block as an IR part, or ``None`` when the IR cannot hold it (kept opaque)."""
    block = as_dict(block, path)
    if len(block) != 1:
        return None
    ((kind, value),) = block.items()
    decoder = _DECODERS.get(kind)
    if decoder is None:
        return None
    part: Part | None = decoder(value, child(path, kind))
    return part


def decode_blocks(value: Any, path: str, extra: Extra) -> tuple[Part, ...]:
    """Decode a ``content`` list; blocks the IR cannot hold go to ``extra[OPAQUE]``."""
    out: list[Part] = []
    for index, raw in enumerate(as_list(value, path)):
        try:
            part = decode_block(raw, f"{path}[{index}]")
        except PayloadError:
            raise
        if part is None:
            extra.setdefault(OPAQUE, []).append([index, raw])
        else:
            out.append(part)
    return tuple(out)
