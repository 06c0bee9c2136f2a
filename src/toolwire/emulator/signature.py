"""Opaque reasoning state of the emulator: a keyed signature that binds a text.

The emulator hands reasoning state to clients (Anthropic thinking ``signature``, Responses
``encrypted_content``, Gemini ``thoughtSignature``) and requires it back unchanged. A token is
``base64(b"tw1" + mac[:16] + payload)``: self-contained (the server keeps no state) and valid
base64 (Gemini's SDK decodes signatures as bytes and sends them back URL-safe, which is
accepted). Any change to the token or to the text it binds makes :func:`verify` fail;
:func:`exact` also refuses a re-encoded token (the provider rules mode wants the bytes issued).

Google documents two placeholder signatures for Gemini history it did not produce
(https://ai.google.dev/gemini-api/docs/thought-signatures, "FAQs"):
``context_engineering_is_the_way_to_go`` and ``skip_thought_signature_validator``
(:data:`PLACEHOLDERS`). :func:`is_placeholder` accepts them as written in JSON and base64
encoded, as the google-genai SDK sends ``bytes`` signatures.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac

__all__ = ["PLACEHOLDERS", "exact", "is_kept_id", "is_placeholder", "kept_id", "sign", "unpack", "verify"]

PLACEHOLDERS: tuple[str, ...] = ("context_engineering_is_the_way_to_go", "skip_thought_signature_validator")
"""Google's documented Gemini thought signatures for history not produced by Gemini."""

_MAGIC = b"tw1"
_MAC_SIZE = 16


def _mac(secret: bytes, payload: bytes) -> bytes:
    return hmac.new(secret, payload, hashlib.sha256).digest()[:_MAC_SIZE]


def sign(secret: bytes, payload: str) -> str:
    """A token carrying ``payload`` and a MAC over it under ``secret``."""
    data = payload.encode()
    return base64.b64encode(_MAGIC + _mac(secret, data) + data).decode("ascii")


def _decode(token: str) -> bytes | None:
    try:
        text = token.replace("-", "+").replace("_", "/")  # clients may re-encode it URL-safe
        return base64.b64decode((text + "=" * (-len(text) % 4)).encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        return None


def is_placeholder(token: str | None) -> bool:
    """Whether ``token`` is one of Google's :data:`PLACEHOLDERS`, as text or base64 of it."""
    if not token:
        return False
    if token in PLACEHOLDERS:
        return True
    raw = _decode(token)
    return raw is not None and raw.decode("utf-8", "replace") in PLACEHOLDERS


def unpack(secret: bytes, token: str) -> str | None:
    """The payload of a valid token, or ``None`` when the token is malformed or tampered with."""
    raw = _decode(token)
    if raw is None:
        return None
    body = len(_MAGIC) + _MAC_SIZE
    head, mac, data = raw[: len(_MAGIC)], raw[len(_MAGIC) : body], raw[body:]
    if head != _MAGIC or not hmac.compare_digest(mac, _mac(secret, data)):
        return None
    try:
        return data.decode()
    except UnicodeDecodeError:
        return None


def verify(secret: bytes, token: str | None, payload: str | None = None) -> bool:
    """Whether ``token`` is valid and, when ``payload`` is given, binds exactly that text."""
    if not token:
        return False
    inner = unpack(secret, token)
    return inner is not None and (payload is None or inner == payload)


def exact(secret: bytes, token: str | None, payload: str | None = None) -> bool:
    """Like :func:`verify`, and ``token`` is byte for byte the one :func:`sign` issued."""
    if not token:
        return False
    inner = unpack(secret, token)
    return inner is not None and (payload is None or inner == payload) and sign(secret, inner) == token


_KEPT_TAG = 8


def kept_id(secret: bytes, base: str) -> str:
    """The item id ``base`` tagged as kept by the store: a reasoning item of a stored response is
    found again by its id alone (the API resolves stored items by id), so the id carries a MAC
    that :func:`is_kept_id` checks, whatever store backend and process answered it."""
    return base + _mac(secret, base.encode() + b"\x00kept").hex()[:_KEPT_TAG]


def is_kept_id(secret: bytes, item_id: str) -> bool:
    """Whether ``item_id`` is one :func:`kept_id` made under ``secret``."""
    base, tag = item_id[:-_KEPT_TAG], item_id[-_KEPT_TAG:]
    return len(item_id) > _KEPT_TAG and hmac.compare_digest(tag, kept_id(secret, base)[-_KEPT_TAG:])
