"""Message ``content`` of Chat Completions: a string, ``null``, or a list of typed parts.

Parts: ``text``, ``image_url`` ``{url, detail}``, ``input_audio`` ``{data, format}``,
``file`` ``{file_data | file_id, filename}`` and (assistant only) ``refusal`` and Mistral's
``thinking`` (a reasoning part that keeps its chunk for Mistral, see ``dialects``). The
spelling of ``content`` is remembered in the ``~content`` hint (``string``, ``null``,
``absent``) so that the same-format encoder reproduces it exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from toolwire.formats._wire import (
    as_dict,
    as_list,
    child,
    describe,
    fail,
    json_type,
    opt_str,
    req_dict,
    req_str,
)
from toolwire.formats.openai_chat._extra import emit_fields, split_fields
from toolwire.ir.content import AudioPart, FilePart, ImagePart, Part, ReasoningPart, RefusalPart, TextPart
from toolwire.ir.notes import Notes

__all__ = [
    "ABSENT",
    "CONTENT_TYPES",
    "THINKING_CHUNK",
    "decode_content",
    "encode_content",
    "encode_part",
    "split_data_url",
    "thinking_chunk",
    "thinking_text",
]

ABSENT: Any = object()
"""Marker returned by :func:`encode_content` when ``content`` must be left out."""

_TEXT_KNOWN = frozenset({"type", "text"})
_IMAGE_KNOWN = frozenset({"type", "image_url"})
_AUDIO_KNOWN = frozenset({"type", "input_audio"})
_FILE_KNOWN = frozenset({"type", "file"})
_REFUSAL_KNOWN = frozenset({"type", "refusal"})
_AUDIO_FORMATS = {
    "audio/wav": "wav",
    "audio/x-wav": "wav",
    "audio/wave": "wav",
    "audio/mpeg": "mp3",
    "audio/mp3": "mp3",
}
_DATA_PREFIX = "data:"
_BASE64 = ";base64,"


def _with_inner(extra: dict[str, Any], inner: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    inner_extra = split_fields(inner, known)
    if inner_extra:
        extra["~inner"] = inner_extra
    return extra


def _text(part: dict[str, Any], path: str) -> Part:
    return TextPart(text=req_str(part, "text", path), extra=split_fields(part, _TEXT_KNOWN))


def _image(part: dict[str, Any], path: str) -> Part:
    inner = req_dict(part, "image_url", path)
    inner_path = child(path, "image_url")
    url = req_str(inner, "url", inner_path)
    detail = opt_str(inner, "detail", inner_path)
    extra = _with_inner(split_fields(part, _IMAGE_KNOWN), inner, frozenset({"url", "detail"}))
    return ImagePart(url=url, detail=detail, extra=extra)


def _audio(part: dict[str, Any], path: str) -> Part:
    inner = req_dict(part, "input_audio", path)
    inner_path = child(path, "input_audio")
    data = req_str(inner, "data", inner_path)
    fmt = opt_str(inner, "format", inner_path)
    extra = _with_inner(split_fields(part, _AUDIO_KNOWN), inner, frozenset({"data", "format"}))
    return AudioPart(data=data, format=fmt, extra=extra)


def split_data_url(value: str) -> tuple[str, str] | None:
    """``(media_type, base64 data)`` of a ``data:<type>;base64,<data>`` URL, else ``None``."""
    if not value.startswith(_DATA_PREFIX):
        return None
    head, sep, data = value.partition(_BASE64)
    if not sep or "," in head:
        return None
    return head[len(_DATA_PREFIX) :], data


def _file(part: dict[str, Any], path: str) -> Part:
    inner = req_dict(part, "file", path)
    inner_path = child(path, "file")
    file_data = opt_str(inner, "file_data", inner_path)
    extra = _with_inner(
        split_fields(part, _FILE_KNOWN), inner, frozenset({"file_data", "file_id", "filename"})
    )
    data = media_type = None
    if file_data is not None:
        split = split_data_url(file_data)
        if split is None:
            data = file_data
            extra["~raw_data"] = True
        else:
            media_type, data = split
    return FilePart(
        data=data,
        media_type=media_type,
        file_id=opt_str(inner, "file_id", inner_path),
        filename=opt_str(inner, "filename", inner_path),
        extra=extra,
    )


THINKING_CHUNK = "thinking"
"""``~chunk`` of a streamed Mistral thinking part: its chunk is rebuilt from its text."""


def thinking_text(chunk: dict[str, Any], path: str) -> str:
    """The text of a Mistral ``{"type": "thinking", "thinking": [chunks]}`` chunk (its text
    chunks joined; reference chunks carry no text)."""
    texts = []
    for index, item in enumerate(as_list(chunk.get("thinking"), child(path, "thinking"))):
        item = as_dict(item, f"{path}.thinking[{index}]")
        if item.get("type") == "text":
            texts.append(req_str(item, "text", f"{path}.thinking[{index}]"))
    return "".join(texts)


def _thinking(part: dict[str, Any], path: str) -> Part:
    """A Mistral thinking chunk: a reasoning part keeping the chunk (``~chunk``) for Mistral."""
    return ReasoningPart(text=thinking_text(part, path), extra={"~chunk": part})


def _refusal(part: dict[str, Any], path: str) -> Part:
    extra = split_fields(part, _REFUSAL_KNOWN)
    extra["~field"] = "content"
    return RefusalPart(text=req_str(part, "refusal", path), extra=extra)


_DECODERS: dict[str, Callable[[dict[str, Any], str], Part]] = {
    "text": _text,
    "image_url": _image,
    "input_audio": _audio,
    "file": _file,
    "refusal": _refusal,
    "thinking": _thinking,
}
CONTENT_TYPES = frozenset(_DECODERS)
"""The content part types the decoder knows (others are skipped, noted)."""


def decode_content(message: dict[str, Any], notes: Notes, path: str) -> tuple[tuple[Part, ...], str | None]:
    """The parts of ``message["content"]`` and the ``~content`` hint (``None`` for a non-empty list)."""
    value = message.get("content")
    if type(value) is str:
        return ((TextPart(text=value),) if value else ()), "string"
    if value is None:
        return (), ("null" if "content" in message else "absent")
    if type(value) is not list:
        fail(child(path, "content"), f"expected a string, an array or null, got {json_type(value)}")
    if not value:
        return (), "list"
    parts: list[Part] = []
    for index, item in enumerate(value):
        part_path = f"{path}.content[{index}]"
        item = as_dict(item, part_path)
        kind = item.get("type")
        decoder = _DECODERS.get(kind) if type(kind) is str else None
        if decoder is None:
            notes.add(child(part_path, "type"), "skipped", f"unknown content part type {describe(kind)}")
            continue
        parts.append(decoder(item, part_path))
    return tuple(parts), None


# ---------------------------------------------------------------- encode


def _finish(
    out: dict[str, Any], part: Any, key: str, inner: dict[str, Any], same: bool, notes: Notes, path: str
) -> None:
    extra = part.extra
    if extra:
        emit_fields(out, extra, same, notes, path)
        if same and "~inner" in extra:
            emit_fields(inner, extra["~inner"], True, notes, child(path, key))


def _encode_text(part: TextPart, same: bool, notes: Notes, path: str) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "text", "text": part.text}
    if part.thought_signature is not None:
        notes.add(path, "dropped", "Gemini thought signature on a text part")
    if part.extra:
        emit_fields(out, part.extra, same, notes, path)
    return out


def _encode_image(part: ImagePart, same: bool, notes: Notes, path: str) -> dict[str, Any] | None:
    url = part.url
    if url is None and part.data is not None:
        media_type = part.media_type
        if media_type is None:
            notes.add(path, "synthesized", "image media type unknown; assumed image/png")
            media_type = "image/png"
        url = f"data:{media_type};base64,{part.data}"
    if url is None:
        if part.file_id is not None:
            notes.add(path, "approximated", "image given by file id sent as a file part")
            return {"type": "file", "file": {"file_id": part.file_id}}
        notes.add(path, "dropped", "image without url, data or file id")
        return None
    inner: dict[str, Any] = {"url": url}
    if part.detail is not None:
        inner["detail"] = part.detail
    out: dict[str, Any] = {"type": "image_url", "image_url": inner}
    _finish(out, part, "image_url", inner, same, notes, path)
    return out


def _encode_audio(part: AudioPart, same: bool, notes: Notes, path: str) -> dict[str, Any] | None:
    fmt = part.format
    if fmt is None and part.media_type is None:
        notes.add(path, "synthesized", "audio format unknown; assumed wav")
        fmt = "wav"
    elif fmt is None:
        fmt = _AUDIO_FORMATS.get(part.media_type or "")
        if fmt is None:
            notes.add(path, "dropped", f"audio of type {part.media_type!r}: Chat takes only wav and mp3")
            return None
    inner: dict[str, Any] = {"data": part.data, "format": fmt}
    out: dict[str, Any] = {"type": "input_audio", "input_audio": inner}
    _finish(out, part, "input_audio", inner, same, notes, path)
    return out


def _encode_file(part: FilePart, same: bool, notes: Notes, path: str) -> dict[str, Any] | None:
    inner: dict[str, Any] = {}
    if part.filename is not None:
        inner["filename"] = part.filename
    if part.data is not None:
        raw = (same and part.extra.get("~raw_data")) or part.media_type is None
        inner["file_data"] = part.data if raw else f"data:{part.media_type};base64,{part.data}"
    if part.file_id is not None:
        inner["file_id"] = part.file_id
    if not same and "file_data" not in inner and "file_id" not in inner:
        if part.text is not None:
            notes.add(path, "approximated", "plain-text document sent as a text part")
            return {"type": "text", "text": part.text}
        notes.add(path, "dropped", "file given by URL; Chat file parts take only data or a file id")
        return None
    out: dict[str, Any] = {"type": "file", "file": inner}
    _finish(out, part, "file", inner, same, notes, path)
    return out


def _encode_refusal(part: RefusalPart, same: bool, notes: Notes, path: str) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "refusal", "refusal": part.text}
    if part.extra:
        emit_fields(out, part.extra, same, notes, path)
    return out


def _encode_thinking(part: ReasoningPart, same: bool, notes: Notes, path: str) -> dict[str, Any] | None:
    chunk = part.extra.get("~chunk") if same or part.origin == "openai-chat" else None
    if chunk == THINKING_CHUNK:
        return thinking_chunk(part.text or "")
    if chunk is None:
        notes.add(path, "dropped", "reasoning cannot be Chat message content")
    return chunk


def thinking_chunk(text: str) -> dict[str, Any]:
    """A Mistral thinking chunk holding ``text``."""
    return {"type": "thinking", "thinking": [{"type": "text", "text": text}]}


_ENCODERS: dict[type, Callable[[Any, bool, Notes, str], dict[str, Any] | None]] = {
    TextPart: _encode_text,
    ImagePart: _encode_image,
    AudioPart: _encode_audio,
    FilePart: _encode_file,
    RefusalPart: _encode_refusal,
    ReasoningPart: _encode_thinking,
}


def encode_part(part: Part, same: bool, notes: Notes, path: str) -> dict[str, Any] | None:
    """One content part as a Chat part (``None`` when it cannot be expressed; noted)."""
    encoder = _ENCODERS.get(type(part))
    if encoder is None:
        notes.add(path, "dropped", f"{type(part).__name__} cannot be message content")
        return None
    return encoder(part, same, notes, path)


def encode_content(
    parts: Sequence[Part],
    hint: Any,
    same: bool,
    notes: Notes,
    path: str,
    where: Callable[[int], str] | None = None,
) -> Any:
    """The ``content`` value for ``parts``: a string when it was one (or is one plain text), else a list.

    Returns :data:`ABSENT` when the field must be left out, ``None`` for ``null``, and
    ``""`` for no parts unless the hint says otherwise. ``where(k)`` is the path notes on
    ``parts[k]`` name (the part's IR path, when ``parts`` is a selection of a message's parts);
    by default ``path.content[k]``.
    """
    if not parts:
        if same and hint == "null":
            return None
        if same and hint == "absent":
            return ABSENT
        if same and hint == "list":
            return []
        return ""
    if len(parts) == 1 and type(parts[0]) is TextPart:
        text = parts[0]
        if not same:
            if text.extra or text.thought_signature is not None:
                _encode_text(text, False, notes, where(0) if where else f"{path}.content[0]")
            return text.text
        if hint == "string" and not text.extra:
            return text.text
    out = []
    for index, part in enumerate(parts):
        wire = encode_part(part, same, notes, where(index) if where else f"{path}.content[{index}]")
        if wire is not None:
            out.append(wire)
    return out
