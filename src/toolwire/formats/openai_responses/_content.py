"""Content parts of message items and tool outputs <-> IR content parts.

``input_text`` / ``output_text`` -> :class:`TextPart` (the type is remembered when it is
not the default for the role), ``refusal`` -> :class:`RefusalPart`, ``input_image`` ->
:class:`ImagePart`, ``input_file`` -> :class:`FilePart` (a ``file_data`` data URL is split
into media type and base64 data), ``input_audio`` -> :class:`AudioPart`. Unknown part types
are reported to the caller, which keeps the enclosing item verbatim.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from toolwire.formats._wire import as_dict, as_list, child, fail, opt_str, req_dict, req_str
from toolwire.formats.openai_responses._extra import emit_fields, split_fields
from toolwire.ir.content import AudioPart, ContentPart, FilePart, ImagePart, RefusalPart, TextPart
from toolwire.ir.notes import Notes

__all__ = ["CONTENT_TYPES", "decode_content", "encode_part", "parse_data_url"]

_TEXT_KNOWN = frozenset({"type", "text"})
_REFUSAL_KNOWN = frozenset({"type", "refusal"})
_IMAGE_KNOWN = frozenset({"type", "image_url", "file_id", "detail"})
_FILE_KNOWN = frozenset({"type", "file_id", "file_data", "file_url", "filename"})
_AUDIO_KNOWN = frozenset({"type", "input_audio"})
_AUDIO_INNER = frozenset({"data", "format"})
_RAW_DATA = "~raw_data"
_TYPE = "~type"


def parse_data_url(value: str) -> tuple[str, str] | None:
    """``(media_type, base64 data)`` of a ``data:<type>;base64,<data>`` URL, else ``None``."""
    if not value.startswith("data:"):
        return None
    head, sep, data = value.partition(",")
    media_type, _, encoding = head[5:].partition(";")
    if not sep or encoding != "base64" or not media_type:
        return None
    return media_type, data


def _text(part: dict[str, Any], path: str, default: str) -> ContentPart:
    extra = split_fields(part, _TEXT_KNOWN)
    if part["type"] != default:
        extra[_TYPE] = part["type"]
    return TextPart(text=req_str(part, "text", path), extra=extra)


def _refusal(part: dict[str, Any], path: str, default: str) -> ContentPart:
    return RefusalPart(text=req_str(part, "refusal", path), extra=split_fields(part, _REFUSAL_KNOWN))


def _image(part: dict[str, Any], path: str, default: str) -> ContentPart:
    return ImagePart(
        url=opt_str(part, "image_url", path),
        file_id=opt_str(part, "file_id", path),
        detail=opt_str(part, "detail", path),
        extra=split_fields(part, _IMAGE_KNOWN),
    )


def _file(part: dict[str, Any], path: str, default: str) -> ContentPart:
    extra = split_fields(part, _FILE_KNOWN)
    file_data = opt_str(part, "file_data", path)
    media_type = data = None
    if file_data is not None:
        parsed = parse_data_url(file_data)
        if parsed is None:
            data = file_data
            extra[_RAW_DATA] = True
        else:
            media_type, data = parsed
    return FilePart(
        file_id=opt_str(part, "file_id", path),
        url=opt_str(part, "file_url", path),
        data=data,
        media_type=media_type,
        filename=opt_str(part, "filename", path),
        extra=extra,
    )


def _audio(part: dict[str, Any], path: str, default: str) -> ContentPart:
    inner_path = child(path, "input_audio")
    inner = req_dict(part, "input_audio", path)
    extra = split_fields(part, _AUDIO_KNOWN)
    inner_extra = split_fields(inner, _AUDIO_INNER)
    if inner_extra:
        extra["~inner"] = inner_extra
    return AudioPart(
        data=req_str(inner, "data", inner_path), format=opt_str(inner, "format", inner_path), extra=extra
    )


_DECODERS: dict[str, Callable[[dict[str, Any], str, str], ContentPart]] = {
    "input_text": _text,
    "output_text": _text,
    "refusal": _refusal,
    "input_image": _image,
    "input_file": _file,
    "input_audio": _audio,
}


CONTENT_TYPES = frozenset(_DECODERS)
"""The content part types the decoder knows (an item with another is kept verbatim)."""


def decode_content(value: Any, path: str, default: str) -> tuple[tuple[ContentPart, ...], bool]:
    """Decode a content parts array; ``default`` is the text part type of the role.

    Returns the parts and whether every part was understood (if not, the caller keeps the
    enclosing item verbatim for this format).
    """
    out: list[ContentPart] = []
    complete = True
    for index, part in enumerate(as_list(value, path)):
        part_path = f"{path}[{index}]"
        part = as_dict(part, part_path)
        kind = part.get("type")
        decoder = _DECODERS.get(kind) if type(kind) is str else None
        if decoder is None:
            if type(kind) is not str:
                fail(child(part_path, "type"), "expected a string")
            complete = False
            continue
        out.append(decoder(part, part_path, default))
    return tuple(out), complete


# ---------------------------------------------------------------- encode


def _data_url(media_type: str | None, data: str, default: str, notes: Notes, path: str) -> str:
    if media_type is None:
        notes.add(path, "approximated", f"inline data without media type sent as {default!r}")
        media_type = default
    return f"data:{media_type};base64,{data}"


def _encode_image(part: ImagePart, same: bool, notes: Notes, path: str) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "input_image"}
    if part.url is not None:
        out["image_url"] = part.url
    elif part.data is not None:
        out["image_url"] = _data_url(part.media_type, part.data, "image/png", notes, path)
    if part.file_id is not None:
        out["file_id"] = part.file_id
    if part.detail is not None:
        out["detail"] = part.detail
    elif not same:
        out["detail"] = "auto"  # the API default, required by the schema
    return out


def _encode_file(part: FilePart, same: bool, notes: Notes, path: str) -> dict[str, Any]:
    if part.text is not None and part.data is None and part.url is None and part.file_id is None:
        notes.add(path, "approximated", "plain-text document sent as input_text")
        return {"type": "input_text", "text": part.text}
    out: dict[str, Any] = {"type": "input_file"}
    if part.file_id is not None:
        out["file_id"] = part.file_id
    if part.filename is not None:
        out["filename"] = part.filename
    if part.data is not None:
        if same and part.extra.get(_RAW_DATA):
            out["file_data"] = part.data
        else:
            out["file_data"] = _data_url(part.media_type, part.data, "application/pdf", notes, path)
    if part.url is not None:
        out["file_url"] = part.url
    return out


def _encode_audio(part: AudioPart, same: bool, notes: Notes, path: str) -> dict[str, Any] | None:
    if not same:
        notes.add(path, "dropped", "audio input has no Responses equivalent")
        return None
    inner: dict[str, Any] = {"data": part.data}
    if part.format is not None:
        inner["format"] = part.format
    emit_fields(inner, part.extra.get("~inner") or {}, True, notes, child(path, "input_audio"))
    return {"type": "input_audio", "input_audio": inner}


def encode_part(
    part: ContentPart, role: str, same: bool, notes: Notes, path: str, *, output: bool = False
) -> dict[str, Any] | None:
    """Encode one content part for a message of ``role`` (``None`` when it cannot be sent).

    ``output`` asks for the fields a response's ``output_text`` carries (``logprobs``).
    """
    wire: dict[str, Any] | None
    if type(part) is TextPart:
        default = "output_text" if role == "assistant" else "input_text"
        kind = (part.extra.get(_TYPE) if same else None) or default
        wire = {"type": kind, "text": part.text}
        if part.thought_signature is not None:
            notes.add(path, "dropped", "Gemini thought signature of a text part")
        if kind == "output_text" and not same:
            wire["annotations"] = []
            if output:
                wire["logprobs"] = []
    elif type(part) is RefusalPart:
        if role != "assistant" and not same:
            notes.add(path, "dropped", f"refusal in a {role} message")
            return None
        if same or output:
            wire = {"type": "refusal", "refusal": part.text}
        else:  # the spec lists refusal only in an output message (which needs an id and status)
            wire = {"type": "output_text", "text": part.text, "annotations": []}
            notes.add(path, "approximated", "refusal sent as output_text (input messages have no refusal)")
    elif type(part) is ImagePart:
        wire = _encode_image(part, same, notes, path)
    elif type(part) is FilePart:
        wire = _encode_file(part, same, notes, path)
    else:
        wire = _encode_audio(part, same, notes, path)  # type: ignore[arg-type]
        if wire is None:
            return None
    if part.extra:
        emit_fields(wire, part.extra, same, notes, path)
    return wire


def encode_parts(parts: Sequence[ContentPart], role: str, same: bool, notes: Notes, path: str) -> list[Any]:
    """Encode content parts (those that cannot be sent are dropped with a note)."""
    out = []
    for index, part in enumerate(parts):
        wire = encode_part(part, role, same, notes, f"{path}[{index}]")
        if wire is not None:
            out.append(wire)
    return out
