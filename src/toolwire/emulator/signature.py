"""Opaque reasoning state of the emulator: a keyed signature that binds a text.

The emulator hands reasoning state to clients (Anthropic thinking ``signature``, Responses
``encrypted_content``, Gemini ``thoughtSignature``) and requires it back unchanged. A token is
``base64(b"tw1" + mac[:16] + payload)``: self-contained (the server keeps no state) and valid
base64 (Gemini's SDK decodes signatures as bytes and sends them back URL-safe, which is
accepted). Any change to the token or to the text it binds makes :func:`verify` fail.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac

__all__ = ["sign", "unpack", "verify"]

_MAGIC = b"tw1"
_MAC_SIZE = 16


def _mac(secret: bytes, payload: bytes) -> bytes:
    return hmac.new(secret, payload, hashlib.sha256).digest()[:_MAC_SIZE]


def sign(secret: bytes, payload: str) -> str:
    """A token carrying ``payload`` and a MAC over it under ``secret``."""
    data = payload.encode()
    return base64.b64encode(_MAGIC + _mac(secret, data) + data).decode("ascii")


def unpack(secret: bytes, token: str) -> str | None:
    """The payload of a valid token, or ``None`` when the token is malformed or tampered with."""
    try:
        text = token.replace("-", "+").replace("_", "/")  # clients may re-encode it URL-safe
        raw = base64.b64decode((text + "=" * (-len(text) % 4)).encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
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
