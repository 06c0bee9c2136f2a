"""Field spelling, layout hints and JSON helpers of the Gemini codec.

Google's JSON decoders accept both the REST (lowerCamelCase) and the proto (snake_case)
field names, and recorded clients mix them, even within one object
(``{"function_call": {...}, "thoughtSignature": "..."}``). Request decoders rename the
snake_case fields they know to camelCase (:func:`camel`) and remember, per object, which
fields were snake_case; the same-format encoder spells them back (:func:`respell`).

Hint keys (``"~..."``) of this package, read back only when encoding to ``gemini`` again:

``~snake``        camelCase names of the fields the object was spelled with in snake_case;
                  ``~snake.<field>`` the same for a nested object dissolved into the struct.
``~null``         known fields present with a ``null`` value.
``~inner``        unknown fields of the inner object of a part (``functionCall``, ``inlineData``...).
``~role``         a content's raw role when it is not the usual one (absent: ``""``).
``~opaque``       parts the IR cannot hold (``{}``, unknown data fields): ``[[index, part], ...]``.
``~single``       a repeated field was given as one object instead of an array.
``~wrap``         how a functionResponse ``response`` object became text: the key whose string
                  value is the text, or ``""`` when the text is the whole object as JSON.
``~schema``       which declaration field held the tool schema (``parameters`` or ``parametersJsonSchema``).
``~group``        index of the tool object a declaration came from (several function groups).
``~mode``         raw ``functionCallingConfig.mode`` not implied by the IR choice (absent: ``""``).
``~field``/``~mime``  response schema field and MIME type of ``generationConfig``.
``~level``        raw ``thinkingLevel`` when it is not the upper-case IR effort.
``~candidate``    unknown fields of ``candidates[0]``; ``~content`` those of its content.
"""

from __future__ import annotations

from typing import Any

import msgspec

from toolwire._json import dumps_str, loads
from toolwire.errors import PayloadError
from toolwire.formats._wire import emit_extra, fail, json_type
from toolwire.ir.notes import Notes

__all__ = [
    "SNAKE",
    "args_object",
    "camel",
    "compact",
    "emit",
    "listish",
    "loads_object",
    "merge",
    "rebase",
    "respell",
    "split",
]

_CAMEL_FIELDS = (
    "systemInstruction",
    "generationConfig",
    "toolConfig",
    "safetySettings",
    "cachedContent",
    "inlineData",
    "fileData",
    "functionCall",
    "functionResponse",
    "executableCode",
    "codeExecutionResult",
    "videoMetadata",
    "thoughtSignature",
    "partMetadata",
    "toolCall",
    "toolResponse",
    "mediaResolution",
    "mimeType",
    "fileUri",
    "displayName",
    "willContinue",
    "partialArgs",
    "startOffset",
    "endOffset",
    "toolType",
    "candidateCount",
    "stopSequences",
    "maxOutputTokens",
    "topP",
    "topK",
    "responseMimeType",
    "responseSchema",
    "responseJsonSchema",
    "presencePenalty",
    "frequencyPenalty",
    "responseLogprobs",
    "responseModalities",
    "speechConfig",
    "thinkingConfig",
    "imageConfig",
    "enableEnhancedCivicAnswers",
    "includeThoughts",
    "thinkingBudget",
    "thinkingLevel",
    "functionDeclarations",
    "googleSearch",
    "googleSearchRetrieval",
    "codeExecution",
    "urlContext",
    "fileSearch",
    "googleMaps",
    "computerUse",
    "parametersJsonSchema",
    "functionCallingConfig",
    "retrievalConfig",
    "allowedFunctionNames",
    "includeServerSideToolInvocations",
)


def _snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name)


SNAKE: dict[str, str] = {_snake(name): name for name in _CAMEL_FIELDS}
"""snake_case spelling -> camelCase name, for every multi-word field the codec reads."""

_SNAKE_NAMES = frozenset(SNAKE)
_CAMEL: dict[str, str] = {v: k for k, v in SNAKE.items()}


def camel(obj: dict[str, Any]) -> tuple[dict[str, Any], tuple[str, ...]]:
    """``obj`` with its known snake_case fields renamed to camelCase, and the renamed names.

    Returns ``obj`` itself (no copy) when it has none.
    """
    if obj.keys().isdisjoint(_SNAKE_NAMES):
        return obj, ()
    renamed = tuple(SNAKE[k] for k in obj if k in SNAKE)
    return {SNAKE.get(k, k): v for k, v in obj.items()}, renamed


def respell(out: dict[str, Any], snake: Any) -> dict[str, Any]:
    """``out`` with the camelCase fields listed in ``snake`` spelled snake_case again."""
    if not snake:
        return out
    names = set(snake)
    return {(_CAMEL[k] if k in names and k in _CAMEL else k): v for k, v in out.items()}


def listish(value: Any, path: str) -> tuple[list[Any], bool]:
    """A repeated field as a list, and whether it was a single object (Google's parser allows it)."""
    if type(value) is list:
        return value, False
    if type(value) is dict:
        return [value], True
    fail(path, f"expected an array, got {json_type(value)}")


def compact(value: Any, path: str, key: str | None = None) -> str:
    """Compact JSON text of a decoded value (UTF-8, no spaces); errors name ``path`` (+ ``key``)."""
    try:
        return dumps_str(value, path=_at(path, key))  # too deep: LimitError at that path
    except (msgspec.EncodeError, TypeError, ValueError) as exc:
        raise PayloadError(f"value cannot be serialized: {exc}", path=_at(path, key)) from None


def _at(path: str, key: str | None) -> str:
    return path if key is None else f"{path}.{key}"


def args_object(text: str, path: str) -> dict[str, Any] | str:
    """Parse tool call arguments to an object; an error message when they are not a JSON object."""
    if not text:
        return {}
    try:
        value = loads(text, path=path)
    except PayloadError as exc:
        return exc.message
    if type(value) is not dict:
        return f"arguments are JSON {json_type(value)}, not an object"
    return value


def split(obj: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    """Extra of a wire object: its unknown fields, plus known fields set to ``null`` under ``~null``."""
    if obj.keys() <= known and None not in obj.values():
        return {}
    extra: dict[str, Any] = {}
    for key, value in obj.items():
        if key not in known:
            extra[key] = value
        elif value is None:
            extra.setdefault("~null", []).append(key)
    return extra


def rebase(exc: PayloadError, prefix: str) -> PayloadError:
    """``exc`` with its ``$``-relative path moved under ``prefix``."""
    path = exc.path or "$"
    return type(exc)(exc.message, path=prefix + path[1:])


def merge(out: dict[str, Any], rest: dict[str, Any]) -> None:
    """Same format: write back fields kept by :func:`split` (unknown ones and ``~null`` ones)."""
    for key, value in rest.items():
        if key == "~null":
            for name in value:
                out.setdefault(name, None)
        elif key[:1] != "~":
            out.setdefault(key, value)


def emit(out: dict[str, Any], extra: dict[str, Any], same: bool, notes: Notes, path: str) -> dict[str, Any]:
    """Write ``extra`` into the wire object ``out`` (same format: also nulls and spelling).

    Other formats: nothing is written and every non-hint extra is noted as dropped.
    Returns the object to use (a respelled copy when some fields were snake_case).
    """
    if not extra:
        return out
    if same:
        for key in extra.get("~null", ()):
            out.setdefault(key, None)
    emit_extra(out, extra, same, notes, path)
    return respell(out, extra.get("~snake")) if same else out


def loads_object(text: str) -> dict[str, Any] | None:
    """The JSON object ``text`` holds, or ``None`` when it holds something else or is not JSON."""
    try:
        value = loads(text)
    except PayloadError:
        return None
    return value if type(value) is dict else None
