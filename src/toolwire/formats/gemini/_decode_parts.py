"""Gemini ``Part`` objects -> IR parts (requests and responses alike).

=====================================  =====================================================
wire part                              IR part
=====================================  =====================================================
``text``                               :class:`TextPart` (``thoughtSignature`` kept on it)
``text`` + ``thought: true``           :class:`ReasoningPart` (origin ``gemini``, signature)
only ``thoughtSignature``              :class:`ReasoningPart` without text (``~bare``)
``inlineData``                         :class:`ImagePart` / :class:`AudioPart` / :class:`FilePart`
                                       by MIME type (``data``)
``fileData``                           :class:`ImagePart` / :class:`FilePart` (``url`` = fileUri)
``functionCall``                       :class:`ToolCall` (args as compact JSON text; ``""``
                                       when absent; ``id`` ``None`` when absent)
``functionResponse``                   :class:`ToolResult` (``response`` as text, see ``~wrap``;
                                       ``parts`` media appended)
``executableCode`` / ``toolCall``      :class:`ToolCall` ``kind="builtin"`` (wire part in extra)
``codeExecutionResult`` /              :class:`ToolResult` ``kind="builtin"`` (wire part in extra)
``toolResponse``
anything else (``{}``)                 ``None``: kept opaque by the caller (``~opaque``)
=====================================  =====================================================
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolwire.errors import PayloadError
from toolwire.formats._wire import as_dict, child, fail, json_type, opt_str, req_name, req_str
from toolwire.formats.gemini._keys import camel, compact, listish, rebase, split
from toolwire.ir.content import (
    AudioPart,
    ContentPart,
    FilePart,
    ImagePart,
    Part,
    ReasoningPart,
    TextPart,
    ToolCall,
    ToolResult,
)

__all__ = ["decode_part", "decode_parts"]

_SIG = "thoughtSignature"
_CALL_PART = frozenset({"functionCall", _SIG})
"""The fields of a function-call part (the others go to its extra)."""
_TEXT_KNOWN = frozenset({"text", "thought", _SIG})
_CALL_KNOWN = frozenset({"name", "args", "id"})
_RESPONSE_KNOWN = frozenset({"name", "id", "response", "parts"})
_INLINE_KNOWN = frozenset({"mimeType", "data"})
_FILE_KNOWN = frozenset({"mimeType", "fileUri"})
_BUILTIN_NAMES = {"executableCode": "code_execution", "codeExecutionResult": "code_execution"}

Media = ImagePart | AudioPart | FilePart


def _signature(part: dict[str, Any], path: str) -> str | None:
    return opt_str(part, _SIG, path)


def _part_extra(part: dict[str, Any], known: frozenset[str], snake: tuple[str, ...]) -> dict[str, Any]:
    extra = split(part, known) if len(part) > 1 else {}
    if snake:
        extra["~snake"] = snake
    return extra


def _inner(
    part: dict[str, Any], key: str, known: frozenset[str], extra: dict[str, Any], path: str
) -> tuple[dict[str, Any], str]:
    """The inner object ``part[key]`` (camelCased), its unknown fields recorded in ``extra``."""
    path = f"{path}.{key}"
    inner, snake = camel(as_dict(part[key], path))
    rest = split(inner, known)
    if rest:
        extra["~inner"] = rest
    if snake:
        extra["~snake.inner"] = snake
    return inner, path


def _text(part: dict[str, Any], snake: tuple[str, ...], path: str) -> Part:
    text = part["text"]
    if type(text) is not str:
        fail(child(path, "text"), f"expected a string, got {json_type(text)}")
    thought = part.get("thought")
    signature = _signature(part, path)
    extra = _part_extra(part, _TEXT_KNOWN, snake)
    if thought is True:
        return ReasoningPart(text=text, signature=signature, origin="gemini", extra=extra)
    if thought is False:
        extra["~thought"] = False
    elif thought is not None:
        fail(child(path, "thought"), f"expected a boolean, got {json_type(thought)}")
    return TextPart(text=text, thought_signature=signature, extra=extra)


def _bare(part: dict[str, Any], snake: tuple[str, ...], path: str) -> Part:
    """A part with a thought signature but no data: opaque reasoning state."""
    extra = _part_extra(part, _TEXT_KNOWN, snake)
    thought = part.get("thought")
    if thought is not True:
        extra["~bare"] = True
        if thought is not None:
            extra["thought"] = thought
    return ReasoningPart(signature=_signature(part, path), origin="gemini", extra=extra)


def _function_call(part: dict[str, Any], snake: tuple[str, ...], path: str) -> Part:
    extra = _part_extra(part, _CALL_PART, snake)
    inner, ipath = _inner(part, "functionCall", _CALL_KNOWN, extra, path)
    args = inner.get("args")
    if args is None:
        arguments = ""
    elif type(args) is dict:
        arguments = compact(args, ipath, "args")
    else:
        fail(child(ipath, "args"), f"expected an object, got {json_type(args)}")
    return ToolCall(
        name=req_name(inner, "name", ipath),
        arguments=arguments,
        id=opt_str(inner, "id", ipath),
        thought_signature=_signature(part, path),
        extra=extra,
    )


def _response_content(inner: dict[str, Any], path: str) -> tuple[list[ContentPart], bool | None, str | None]:
    """Content, error flag and ``~wrap`` hint of a ``functionResponse.response``."""
    if "response" not in inner:
        return [], None, None
    response = inner["response"]
    if type(response) is not dict:
        fail(child(path, "response"), f"expected an object, got {json_type(response)}")
    if len(response) == 1:
        ((key, value),) = response.items()
        if type(value) is str:
            return [TextPart(text=value)], (True if key == "error" else None), key
        is_error = True if key == "error" else None
    else:
        is_error = None
    return [TextPart(text=compact(response, path, "response"))], is_error, ""


def _function_response(part: dict[str, Any], snake: tuple[str, ...], path: str) -> Part:
    extra = _part_extra(part, frozenset({"functionResponse"}), snake)
    inner, ipath = _inner(part, "functionResponse", _RESPONSE_KNOWN, extra, path)
    content, is_error, wrap = _response_content(inner, ipath)
    extra["~wrap"] = wrap
    media = inner.get("parts")
    if media is not None:
        items, single = listish(media, child(ipath, "parts"))
        if single:
            extra["~single.parts"] = True
        for index, item in enumerate(items):
            content.append(_response_media(item, f"{ipath}.parts[{index}]"))
    return ToolResult(
        call_id=opt_str(inner, "id", ipath),
        name=opt_str(inner, "name", ipath),
        content=tuple(content),
        is_error=is_error,
        extra=extra,
    )


def _response_media(item: Any, path: str) -> Media:
    part, snake = camel(as_dict(item, path))
    for key in part:
        handler = _MEDIA.get(key)
        if handler is not None:
            return handler(part, snake, path)  # type: ignore[return-value]
    fail(path, "expected 'inlineData' or 'fileData'")


def _media_class(mime: str | None, allow_audio: bool) -> type[Media]:
    if mime is not None:
        if mime.startswith("image/"):
            return ImagePart
        if allow_audio and mime.startswith("audio/"):
            return AudioPart
    return FilePart


def _inline_data(part: dict[str, Any], snake: tuple[str, ...], path: str) -> Part:
    extra = _part_extra(part, frozenset({"inlineData"}), snake)
    inner, ipath = _inner(part, "inlineData", _INLINE_KNOWN, extra, path)
    mime = opt_str(inner, "mimeType", ipath)
    data = req_str(inner, "data", ipath)
    cls = _media_class(mime, allow_audio=True)
    return cls(data=data, media_type=mime, extra=extra)


def _file_data(part: dict[str, Any], snake: tuple[str, ...], path: str) -> Part:
    extra = _part_extra(part, frozenset({"fileData"}), snake)
    inner, ipath = _inner(part, "fileData", _FILE_KNOWN, extra, path)
    mime = opt_str(inner, "mimeType", ipath)
    url = req_str(inner, "fileUri", ipath)
    cls = _media_class(mime, allow_audio=False)
    return cls(url=url, media_type=mime, extra=extra)  # type: ignore[call-arg]


def _builtin_call(key: str) -> Callable[[dict[str, Any], tuple[str, ...], str], Part]:
    def decode(part: dict[str, Any], snake: tuple[str, ...], path: str) -> Part:
        inner = as_dict(part[key], f"{path}.{key}")
        extra = {k: v for k, v in part.items() if k != _SIG or v is None}
        if snake:
            extra["~snake"] = snake
        name = _BUILTIN_NAMES.get(key) or inner.get("toolType")
        return ToolCall(
            name=name if type(name) is str else key,
            arguments=compact(inner.get("args", inner), path, key),
            id=opt_str(inner, "id", f"{path}.{key}"),
            kind="builtin",
            thought_signature=_signature(part, path),
            extra=extra,
        )

    return decode


def _builtin_result(key: str) -> Callable[[dict[str, Any], tuple[str, ...], str], Part]:
    def decode(part: dict[str, Any], snake: tuple[str, ...], path: str) -> Part:
        inner = as_dict(part[key], f"{path}.{key}")
        extra = dict(part)
        if snake:
            extra["~snake"] = snake
        output = inner.get("output")
        name = _BUILTIN_NAMES.get(key) or inner.get("toolType")
        return ToolResult(
            call_id=opt_str(inner, "id", f"{path}.{key}"),
            name=name if type(name) is str else key,
            content=(TextPart(text=output),) if type(output) is str else (),
            kind="builtin",
            extra=extra,
        )

    return decode


_Decoder = Callable[[dict[str, Any], tuple[str, ...], str], Part]

_MEDIA: dict[str, _Decoder] = {"inlineData": _inline_data, "fileData": _file_data}

_DATA: dict[str, _Decoder] = {
    "text": _text,
    "functionCall": _function_call,
    "functionResponse": _function_response,
    "inlineData": _inline_data,
    "fileData": _file_data,
    "executableCode": _builtin_call("executableCode"),
    "toolCall": _builtin_call("toolCall"),
    "codeExecutionResult": _builtin_result("codeExecutionResult"),
    "toolResponse": _builtin_result("toolResponse"),
}


def decode_part(raw: Any, path: str = "$") -> Part | None:
    """Decode one wire part; ``None`` for a part the IR cannot hold (kept opaque by the caller)."""
    part, snake = camel(as_dict(raw, path))
    for key in part:
        handler = _DATA.get(key)
        if handler is not None:
            return handler(part, snake, path)
    if part.get(_SIG) is not None:
        return _bare(part, snake, path)
    return None


def decode_parts(value: Any, path: str, extra: dict[str, Any]) -> tuple[Part, ...]:
    """Decode a ``parts`` array; opaque parts and a single-object array are hinted in ``extra``."""
    items, single = listish(value, path)
    if single:
        extra["~single"] = True
    out: list[Part] = []
    opaque: list[list[Any]] | None = None
    for index, raw in enumerate(items):
        try:
            part = decode_part(raw)
        except PayloadError as exc:
            raise rebase(exc, f"{path}[{index}]") from None
        if part is None:
            if opaque is None:
                opaque = extra["~opaque"] = []
            opaque.append([index, raw])
        else:
            out.append(part)
    return tuple(out)
