"""Opaque reasoning state carried through the client in an origin-tagged, versioned envelope.

An agent loop comes back to a stateless gateway through the client, which echoes only what
its own format holds. The upstream's opaque reasoning state (Anthropic thinking signatures and
redacted data, Responses ``encrypted_content`` and item ids, Gemini ``thoughtSignature``) is
therefore sealed, on the way to the client, into the one slot the client format echoes
unchanged, and opened again on the next request, byte-exact. A same-format hop never seals:
native values pass through untouched.

====================  =====================================  ==========================================
client format         slot the client echoes                 envelope form in that slot
====================  =====================================  ==========================================
``anthropic``         ``thinking`` block ``signature``       text: ``tw1.`` + origin code + ``.`` +
                                                             base64url(JSON), unpadded
``openai-responses``  ``reasoning`` item                     the same text form
                      ``encrypted_content``
``gemini``            thought part ``thoughtSignature``      base64 (standard alphabet, padded) of
                                                             ``b"tw1."`` + origin code + ``b"."`` +
                                                             JSON: the field is ``bytes``, and SDKs
                                                             decode and re-encode it (URL-safe and
                                                             unpadded forms are read back too)
``bedrock-converse``  ``reasoningContent.reasoningText``      the text form, as for Anthropic
                      ``signature``
``openai-chat``       none                                   not sealed: kept in ``Exchange.state``
                                                             if given, else a fallback (see below)
====================  =====================================  ==========================================

Origin codes: ``a`` Anthropic, ``r`` OpenAI Responses, ``g`` Gemini, ``b`` Bedrock Converse,
``c`` a Chat-compatible provider's reasoning (DeepSeek ``reasoning_content``, OpenRouter
``reasoning_details``, Mistral thinking; the part names its provider, and only that provider gets
it back) (:data:`ORIGIN_CODES`). Claude's signatures (and redacted data) as Bedrock returns them are
Bedrock's state, origin ``bedrock-converse``: Anthropic makes them, but they travel in Bedrock's
``reasoningContent`` and are validated by the Bedrock endpoint that issued them, so they go back
to Bedrock only (never to Anthropic's API, nor an Anthropic signature to Bedrock).
The JSON is one of:

================================  ================================================================
``{"p": <Part>}``                 a whole part of the origin, restored as it was in place of the
                                  carrier: a reasoning part (text, signature, redacted data,
                                  encrypted content, item id, extras), or a signed empty Gemini
                                  text (clients drop empty text)
``{"c": k, "s": "<sig>"}``        the Gemini ``thoughtSignature`` of the ``k``-th client tool call of the
                                  same assistant message (Gemini signs calls, other formats have
                                  no field for it: the envelope rides on a carrier reasoning part
                                  put right before the call)
``{"t": k, "s": "<sig>"}``        the same for the ``k``-th non-empty text part
================================  ================================================================

Positions are ordinals among the message's calls (or texts), so a client that moves its reasoning
blocks (Anthropic puts thinking first) still restores each signature on the right part.

A Responses upstream returns its state only when ``include`` asks for it: a request of another
format that reasons asks (:func:`ask_for_state`). A restored Responses reasoning item whose
following message came back without its output id goes by ``encrypted_content`` alone, without
its own id (the API refuses an id whose following item is missing).

Opening an envelope gives back a part of its **origin** format; the encoders replay opaque state
only to its origin and drop it elsewhere with a note, so an envelope never reaches a provider that
did not make it (nor does a client's native state of another format).

Chat has no slot. Without a store, a Chat client's turn reaches the upstream without the state,
and :func:`apply_fallbacks` takes the provider's documented way out, noted (``strict`` refuses); so
it does for any client that dropped the state (``toolwire._opaque_fallbacks`` says which).

The other way out for Chat is a store: given :attr:`~toolwire.translate.Exchange.state` (a
mapping the caller's store keeps between turns), the envelopes of a turn with calls are kept
under its first call id and put back when the client echoes that turn
(``toolwire._opaque_state``; non-streamed responses only). The fallbacks then do not apply.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from typing import Any

import msgspec

from toolwire._opaque_fallbacks import (
    ENCRYPTED_INCLUDE,
    FALLBACKS,
    GEMINI_PLACEHOLDER,
    apply_fallbacks,
    ask_for_state,
)
from toolwire.ir.base import Format
from toolwire.ir.content import Message, Part, ReasoningPart, TextPart, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request
from toolwire.ir.response import Response

__all__ = [
    "ENCRYPTED_INCLUDE",
    "ENVELOPE_PREFIX",
    "FALLBACKS",
    "GEMINI_PLACEHOLDER",
    "ORIGIN_CODES",
    "apply_fallbacks",
    "ask_for_state",
    "carrier",
    "has_state",
    "open_envelope",
    "open_request",
    "ordinal_kind",
    "seal",
    "seal_parts",
    "seal_response",
    "sealed_reasoning",
    "signed_envelope",
    "slotted",
]

ENVELOPE_PREFIX = "tw1."
"""Start of an envelope in a text slot (Anthropic ``signature``, Responses ``encrypted_content``)."""

_MAGIC = ENVELOPE_PREFIX.encode("ascii")
"""Start of an envelope's bytes in a bytes slot (Gemini ``thoughtSignature``)."""

_B64_MAGIC = "dHcxL"
"""How the base64 of every envelope's bytes begins (``b"tw1."``, then a byte of the code)."""

ORIGIN_CODES: dict[Format, str] = {
    "anthropic": "a",
    "openai-responses": "r",
    "gemini": "g",
    "bedrock-converse": "b",
    "openai-chat": "c",
}
"""Formats with opaque reasoning state -> their one-letter code in an envelope (``c``: reasoning
a Chat-compatible provider wrote, e.g. DeepSeek ``reasoning_content``, returned only to it)."""

_CHAT_DIALECT = "~dialect"
"""The extra key naming the Chat provider (dialect) that wrote a reasoning part."""

_BY_CODE: dict[str, Format] = {code: fmt for fmt, code in ORIGIN_CODES.items()}

_ENCODE = msgspec.json.Encoder()


def _text_form(code: str, body: bytes) -> str:
    return f"{ENVELOPE_PREFIX}{code}." + base64.urlsafe_b64encode(body).rstrip(b"=").decode("ascii")


def _bytes_form(code: str, body: bytes) -> str:
    return base64.b64encode(_MAGIC + code.encode("ascii") + b"." + body).decode("ascii")


_FORMS: dict[Format, Callable[[str, bytes], str]] = {
    "anthropic": _text_form,
    "openai-responses": _text_form,
    "gemini": _bytes_form,
    "bedrock-converse": _text_form,  # reasoningContent.reasoningText.signature
}
"""Client format -> how an envelope is written into its slot (formats with a slot only)."""


def seal(content: dict[str, Any], origin: Format, client: Format) -> str:
    """The envelope of ``content`` (state of ``origin``) in the form of ``client``'s slot.

    Args:
        content: the JSON object of the envelope (see the module docstring).
        origin: the format that made the state.
        client: the format whose slot will carry it.

    Raises:
        KeyError: ``origin`` has no opaque state or ``client`` has no slot.
    """
    return _FORMS[client](ORIGIN_CODES[origin], _ENCODE.encode(content))


def _unb64(text: str) -> bytes | None:
    raw = text.replace("-", "+").replace("_", "/")
    try:
        return base64.b64decode(raw + "=" * (-len(raw) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None


def _split(value: str) -> tuple[str, bytes] | None:
    if value.startswith(ENVELOPE_PREFIX):
        code, dot, body = value[len(ENVELOPE_PREFIX) :].partition(".")
        data = _unb64(body) if dot else None
        return (code, data) if data is not None else None
    if not value.startswith(_B64_MAGIC):
        return None
    raw = _unb64(value)
    if raw is None or not raw.startswith(_MAGIC) or raw[5:6] != b".":
        return None
    return raw[4:5].decode("latin-1"), raw[6:]


def open_envelope(value: str | None) -> tuple[Format, dict[str, Any]] | None:
    """``(origin, content)`` of an envelope in any slot form, or ``None`` for any other value."""
    if not value:
        return None
    found = _split(value)
    if found is None or found[0] not in _BY_CODE:
        return None
    try:
        content = msgspec.json.decode(found[1])
    except msgspec.DecodeError:
        return None
    return (_BY_CODE[found[0]], content) if isinstance(content, dict) else None


# ------------------------------------------------------------------------------- sealing


def slotted(fmt: Format) -> bool:
    """Whether clients of ``fmt`` have a slot that echoes opaque state (Chat has none)."""
    return fmt in _FORMS


def has_state(part: ReasoningPart) -> bool:
    """Whether ``part`` holds state to return to its writer: a signature, redacted data or
    encrypted content, or reasoning of a named Chat provider (its text is the state it reads back)."""
    return (
        part.signature is not None
        or part.redacted is not None
        or part.encrypted is not None
        or (part.origin == "openai-chat" and _CHAT_DIALECT in part.extra)
    )


def carrier(text: str | None, envelope: str, client: Format) -> ReasoningPart:
    """A reasoning part of the client's format whose slot holds ``envelope``."""
    if client == "openai-responses":
        return ReasoningPart(encrypted=envelope, origin=client)
    return ReasoningPart(text=text or "", signature=envelope, origin=client)


def sealed_reasoning(part: ReasoningPart, client: Format) -> ReasoningPart:
    """A reasoning part of ``client`` whose slot holds the whole of ``part`` (another origin)."""
    envelope = seal({"p": msgspec.to_builtins(part)}, part.origin or client, client)
    readable = part.text if part.text is not None else "\n\n".join(part.summary)
    out = carrier(readable, envelope, client)
    if client == "openai-responses":
        return msgspec.structs.replace(out, text=part.text, summary=part.summary)
    return out


def ordinal_kind(part: Part) -> str | None:
    """How a signed part is counted in an envelope: ``c`` for a call of a client tool, ``t`` for
    a non-empty text, ``None`` for parts no client keeps in place (built-in calls, empty text)."""
    if isinstance(part, ToolCall):
        return "c" if part.kind != "builtin" else None
    if isinstance(part, TextPart):
        return "t" if part.text else None
    return None


def signed_envelope(part: Part, ordinal: int, client: Format) -> tuple[str, bool] | None:
    """The envelope of a Gemini signature on ``part`` (the ``ordinal``-th of its kind), and
    whether it stands for the whole part (an empty text: clients drop those); ``None`` when the
    part carries no signature to seal (or only a built-in call does)."""
    if not isinstance(part, (ToolCall, TextPart)) or part.thought_signature is None:
        return None
    kind = ordinal_kind(part)
    if kind is not None:
        return seal({kind: ordinal, "s": part.thought_signature}, "gemini", client), False
    if isinstance(part, TextPart):
        return seal({"p": msgspec.to_builtins(part)}, "gemini", client), True
    return None


def seal_parts(parts: tuple[Part, ...], client: Format) -> tuple[Part, ...]:
    """``parts`` of an upstream response with their opaque state sealed for ``client``.

    Reasoning of another origin becomes a reasoning part of ``client`` holding the whole part;
    each Gemini signature on a call or text becomes a carrier part right before it (an empty
    signed text becomes a carrier of the whole part). A client without a slot (Chat) or parts
    without foreign state are returned unchanged.
    """
    if not slotted(client):
        return parts
    out: list[Part] = []
    ordinals = {"c": 0, "t": 0}
    changed = False
    for part in parts:
        kind = ordinal_kind(part)
        if isinstance(part, ReasoningPart) and part.origin not in (None, client) and has_state(part):
            part, changed = sealed_reasoning(part, client), True
        else:
            signed = (
                signed_envelope(part, ordinals[kind] if kind else 0, client) if client != "gemini" else None
            )
            if signed is not None:
                out.append(carrier(None, signed[0], client))
                changed = True
                if signed[1]:
                    continue
                part = msgspec.structs.replace(part, thought_signature=None)
        if kind is not None:
            ordinals[kind] += 1
        out.append(part)
    return tuple(out) if changed else parts


def seal_response(resp: Response, client: Format) -> Response:
    """:func:`seal_parts` on a whole response (unchanged when it came from ``client``'s format)."""
    if resp.origin == client:
        return resp
    parts = seal_parts(resp.parts, client)
    return resp if parts is resp.parts else msgspec.structs.replace(resp, parts=parts)


# ------------------------------------------------------------------------------- opening


def _slot_value(part: ReasoningPart) -> str | None:
    return part.encrypted if part.origin == "openai-responses" else part.signature


def _attach(parts: list[Part], kind: str, ordinal: int, signature: str) -> bool:
    seen = 0
    for i, part in enumerate(parts):
        if ordinal_kind(part) == kind:
            if seen == ordinal:
                parts[i] = msgspec.structs.replace(part, thought_signature=signature)
                return True
            seen += 1
    return False


_KIND_NAMES = {"c": "call", "t": "text"}


def _recognized(part: Part | None) -> bool:
    """Whether the Responses API recognizes ``part`` as the item a reasoning item preceded: a
    call or reasoning item by its type, an assistant message only by its output message id."""
    if isinstance(part, (ToolCall, ReasoningPart)):
        return True
    hint = part.extra.get("~msg") if part is not None else None
    return isinstance(hint, dict) and isinstance(hint.get("id"), str)


def _unpin(parts: list[Part], restored: set[int]) -> None:
    """Restored Responses reasoning parts whose following item the client could not echo as
    the API knows it (text comes back without its output message id) lose their item id.

    The API refuses a reasoning item sent with its id but without its following item ("provided
    without its required following item"); sent by its ``encrypted_content`` alone, as Codex
    sends reasoning items, it is accepted. Parts without encrypted content keep their id (their
    only reference to the stored item).
    """
    for i in restored:
        part = parts[i]
        if not isinstance(part, ReasoningPart) or part.origin != "openai-responses":
            continue
        following = parts[i + 1] if i + 1 < len(parts) else None
        if part.id is not None and part.encrypted is not None and not _recognized(following):
            parts[i] = msgspec.structs.replace(part, id=None)


def _open_message(message: Message, notes: Notes, path: str) -> Message:
    out: list[Part] = []
    pending: list[tuple[str, int, str, str]] = []
    restored: set[int] = set()
    for j, part in enumerate(message.parts):
        found = open_envelope(_slot_value(part)) if isinstance(part, ReasoningPart) else None
        if found is None:
            out.append(part)
            continue
        origin, content = found
        kind = "c" if "c" in content else "t" if "t" in content else None
        if "p" in content:
            restored.add(len(out))
            out.append(msgspec.convert(content["p"], Part))
        elif origin == "gemini" and kind is not None:
            pending.append((kind, int(content[kind]), str(content["s"]), f"{path}.parts[{j}]"))
        else:
            notes.add(f"{path}.parts[{j}]", "dropped", "an envelope of opaque state this version cannot read")
    for kind, ordinal, signature, where in pending:
        if not _attach(out, kind, ordinal, signature):
            notes.add(where, "dropped", f"a Gemini thought signature whose {_KIND_NAMES[kind]} is gone")
    _unpin(out, restored)
    return msgspec.structs.replace(message, parts=tuple(out))


def open_request(req: Request, notes: Notes) -> Request:
    """``req`` with every envelope the client echoed opened into its origin's native state.

    Parts that hold no envelope are kept as they are (a client's native state included); the
    encoder of the upstream then replays each state only to its origin, noting the rest.
    """
    messages: list[Message] | None = None  # copied on the first envelope only
    for i, message in enumerate(req.messages):
        if message.role != "assistant":
            continue
        for part in message.parts:
            if isinstance(part, ReasoningPart) and open_envelope(_slot_value(part)) is not None:
                break
        else:
            continue
        if messages is None:
            messages = list(req.messages)
        messages[i] = _open_message(message, notes, f"$.messages[{i}]")
    return req if messages is None else msgspec.structs.replace(req, messages=tuple(messages))
