"""Any-to-any translation of requests and responses, and the :class:`Exchange`.

``translate_request`` / ``translate_response`` are one-shot conversions: a pair's lane
(:mod:`toolwire._plain`) when it takes the payload, else the general path through the IR. An
:class:`Exchange` (:mod:`toolwire._exchange`) is one request/response round trip between a
client format and an upstream format: it remembers what the response needs to be mapped back
(sanitized tool names, custom and namespaced tools the upstream lacks, the client's model name),
and gives upstream calls without ids ids unique across turns. Format names and codec modules:
:mod:`toolwire._codecs`.
"""

from __future__ import annotations

from typing import Any

from toolwire._codecs import FORMAT_CHOICES, format_module, recorder, resolve_format
from toolwire._codecs import chat_dialect as chat_dialect
from toolwire._exchange import Exchange
from toolwire._plain import plain_lane
from toolwire._plain._response_lane import RESPONSE_LANES, response_lane
from toolwire._renaming import rename_tools
from toolwire._translation import Translation, _new, _set_later, _set_payload, lane_translation, translation
from toolwire.ir.base import FormatName
from toolwire.ir.notes import Notes, Policy
from toolwire.ir.response import Response

__all__ = [
    "FORMAT_CHOICES",
    "Exchange",
    "Translation",
    "format_module",
    "rename_tools",
    "resolve_format",
    "translate_request",
    "translate_response",
]


pair_lane = plain_lane
"""The target payload of a request by the pair's lane (:mod:`toolwire._plain`) and whether the
general path notes something for it; ``None`` when the general path must run (no lane for the
pair, a format name or policy the general path refuses, a request not plain, notes not under
``drop``). The lane dispatch itself, called straight (no wrapper call per request)."""


def response_pair_lane(payload: Any, source: str, target: str, policy: str) -> dict[str, Any] | None:
    """The target response of ``payload`` by the pair's lane, or ``None`` when the general path
    must run (see :func:`toolwire._plain._response_lane.response_lane`; a format name of another
    type: the general path says what is wrong)."""
    if type(source) is not str or type(target) is not str:
        return None
    return response_lane(payload, source, target, policy)


def translate_request(
    payload: dict[str, Any],
    *,
    source: FormatName,
    target: FormatName,
    policy: Policy = "warn",
    model: str | None = None,
    source_dialect: str | None = None,
    target_dialect: str | None = None,
) -> Translation:
    """Translate a request payload from ``source`` format to ``target`` format.

    Args:
        payload: the decoded JSON request body.
        source: source format name.
        target: target format name.
        policy: ``strict`` raises :class:`~toolwire.errors.ConversionError` on any loss,
            ``warn`` logs and records notes, ``drop`` records notes silently (their paths are
            mapped to ``payload`` when :attr:`Translation.notes` is first read).
        model: the model name when the source carries it outside the body (Gemini URL).
        source_dialect: for an ``openai-chat`` source, the provider it was written for (a key of
            :data:`~toolwire.formats.openai_chat.dialects.DIALECTS`, e.g. ``"mistral"``).
        target_dialect: for an ``openai-chat`` target, the provider it goes to: the payload is
            fitted to it (call ids, fields, roles, reasoning; see ``dialects``).

    Raises:
        ToolwireError: a dialect for a format other than ``openai-chat``, or an unknown one.
    """
    if source_dialect is None and target_dialect is None:
        lane = plain_lane(payload, source, target, policy, model)
        if lane is not None:
            build = (_general_request, payload, source, target, policy, model, None, None)
            return lane_translation(lane[0], build, lane[1])
    return _general_request(payload, source, target, policy, model, source_dialect, target_dialect)


def _general_request(
    payload: dict[str, Any],
    source: FormatName,
    target: FormatName,
    policy: Policy,
    model: str | None,
    source_dialect: str | None,
    target_dialect: str | None,
) -> Translation:
    """:func:`translate_request` through the IR (every request; a pair lane's only when asked)."""
    exchange = Exchange(
        source,
        target,
        policy=policy,
        client_model=model,
        client_dialect=source_dialect,
        upstream_dialect=target_dialect,
    )
    out, notes = exchange._request(payload)
    return translation(out, notes, payload, exchange.last_request)


_LANES_BY_SOURCE: dict[str, dict[str, tuple[Any, Any]]] = {}
"""``RESPONSE_LANES`` by source, then target: :func:`translate_response`'s look-up, two string
keys (hashes cached) and no ``(source, target)`` tuple to build, hash and compare (about 800
instructions a call fewer, cachegrind)."""
for (_source, _target), _lane in RESPONSE_LANES.items():
    _LANES_BY_SOURCE.setdefault(_source, {})[_target] = _lane
del _source, _target, _lane


def translate_response(
    payload: dict[str, Any],
    *,
    source: FormatName,
    target: FormatName,
    policy: Policy = "warn",
    source_dialect: str | None = None,
) -> Translation:
    """Translate a response payload from ``source`` format to ``target`` format
    (``source_dialect``: the Chat provider that answered, see :func:`translate_request`)."""
    if policy == "drop" and source_dialect is None and type(source) is str and type(target) is str:
        lanes = _LANES_BY_SOURCE.get(source)  # response_pair_lane inline: two calls less
        lane = None if lanes is None else lanes.get(target)  # two str look-ups: no pair tuple
        if lane is not None:
            plain = lane[0](payload)
            out = None if plain is None else lane[1](plain)
            if out is not None:  # a plain response of a pair with a lane, under drop: lane_translation
                result: Translation = _new(Translation)  # inline (a call less), its notes and ir later
                _set_payload(result, out)
                _set_later(result, (_general_response, payload, source, target, policy, None))
                return result
    return _general_response(payload, source, target, policy, source_dialect)


def _general_response(
    payload: dict[str, Any],
    source: FormatName,
    target: FormatName,
    policy: Policy,
    source_dialect: str | None,
) -> Translation:
    """:func:`translate_response` through the IR (every response; a lane's only when asked)."""
    notes = Notes(policy)
    src = format_module(source)
    dst = format_module(target)
    if source_dialect is None:  # the common call: no keyword to build
        ir: Response = src.decode_response(payload, notes)
    else:
        ir = src.decode_response(payload, notes, **chat_dialect(source, source_dialect))
    record = recorder(src, "response", payload, ir)
    notes.decoded(payload, resolve_format(source), resolve_format(target), record)
    out: dict[str, Any] = dst.encode_response(ir, notes)
    return translation(out, notes, payload, ir)
