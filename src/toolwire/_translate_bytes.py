"""JSON bytes in, JSON bytes out: the one-shot translations as a gateway calls them.

:func:`translate_request_bytes` and :func:`translate_response_bytes` parse the body, translate
it like :func:`~toolwire.translate.translate_request` / ``translate_response`` and serialize the
result (compact UTF-8 JSON), so that a caller holding bytes pays one parse and one dump and
never handles the intermediate dicts.
"""

from __future__ import annotations

from typing import Any

from toolwire._json import dumps, loads
from toolwire._kept_schemas import Kept, parse_schemas, restore_schemas, split_chat_request
from toolwire._plain._response_lane import typed_response_bytes
from toolwire.errors import PayloadError
from toolwire.ir.base import FormatName
from toolwire.ir.notes import Note, Policy
from toolwire.translate import _general_request, _general_response, pair_lane, response_pair_lane

__all__ = ["translate_request_bytes", "translate_response_bytes"]


def _object(body: bytes | str, what: str) -> dict[str, Any]:
    payload = loads(body)
    if type(payload) is not dict:
        raise PayloadError(f"a {what} body must be a JSON object, not {type(payload).__name__}", path="$")
    return payload


def translate_request_bytes(
    body: bytes | str,
    *,
    source: FormatName,
    target: FormatName,
    policy: Policy = "warn",
    model: str | None = None,
    notes: list[Note] | None = None,
) -> bytes:
    """Translate a JSON request body from ``source`` format to ``target`` format.

    Example:
        >>> out = translate_request_bytes(b'{"model": "gpt-4o", "messages": []}',
        ...                               source="openai-chat", target="anthropic")  # doctest: +SKIP

    Args:
        body: the request body, JSON text (bytes or str).
        source: source format name.
        target: target format name.
        policy: ``strict`` raises :class:`~toolwire.errors.ConversionError` on any loss,
            ``warn`` logs and records notes, ``drop`` records notes silently.
        model: the model name when the source carries it outside the body (Gemini URL).
        notes: when given, the notes of what was not carried exactly are appended to it
            (under ``drop``, their paths are mapped to the body only then).

    Returns:
        The target body as compact UTF-8 JSON.

    Raises:
        PayloadError: the body is not JSON, not a JSON object, or not a valid ``source`` request.
    """
    kept: Kept | None = None
    if type(body) is bytes and source == "openai-chat" and target == "openai-responses":
        split = split_chat_request(body)  # the tools kept as JSON text (seen before)
        if split is not None:
            payload, kept = split
    if kept is None:
        payload = _object(body, "request")
    lane = pair_lane(payload, source, target, policy, model, True)  # a plain request of a pair with a lane
    if (
        lane is not None
        and (notes is None or not lane[1])  # notes wanted: the general path makes them
        and (kept is None or restore_schemas(lane[0], kept))  # the kept schemas in place
    ):
        return dumps(lane[0])
    if kept:  # the general path reads the schemas
        parse_schemas(payload, kept)
    result = _general_request(payload, source, target, policy, model, None, None)  # lane tried already
    if notes is not None:
        notes.extend(result.notes)
    return dumps(result.payload)


def translate_response_bytes(
    body: bytes | str,
    *,
    source: FormatName,
    target: FormatName,
    policy: Policy = "warn",
    notes: list[Note] | None = None,
) -> bytes:
    """Translate a JSON response body from ``source`` format to ``target`` format.

    Args:
        body: the response body, JSON text (bytes or str).
        source: source format name.
        target: target format name.
        policy: as for :func:`translate_request_bytes`.
        notes: when given, the notes of what was not carried exactly are appended to it.

    Returns:
        The target body as compact UTF-8 JSON.

    Raises:
        PayloadError: the body is not JSON, not a JSON object, or not a valid ``source`` response.
    """
    if notes is None:
        wire = typed_response_bytes(body, source, target, policy)  # no dict made: the source's schema
        if wire is not None:
            return wire
    payload = _object(body, "response")
    if notes is None:
        out = response_pair_lane(payload, source, target, policy)  # a plain response of a pair with a lane
        if out is not None:
            return dumps(out)
    result = _general_response(payload, source, target, policy, None)  # lane tried already
    if notes is not None:
        notes.extend(result.notes)
    return dumps(result.payload)
