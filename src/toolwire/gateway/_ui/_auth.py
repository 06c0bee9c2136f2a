"""Who may see ``/ui``: the gateway's own keys, as a header or as a signed session cookie (pure).

With no gateway keys configured the pages are open, like the API. Otherwise a request shows a
key the way the API takes it (``Authorization: Bearer``, ``x-api-key``, ``x-goog-api-key``) or
carries the cookie the login form set. The cookie never holds the key:

    ``<expiry unix seconds>.<key id>.<HMAC-SHA256(key, "toolwire-ui." + expiry + "." + key id)>``

where the key id is the first 16 hex digits of the key's SHA-256. Signing with the key itself
means every gateway process sharing the config accepts the cookie, and removing a key from the
config ends its sessions. Cookies are ``HttpOnly; SameSite=Strict; Path=/ui`` (``Secure`` over
HTTPS) and last :data:`SESSION_SECONDS`.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Callable, Mapping

from toolwire.hop._config import GatewayKey

__all__ = ["COOKIE", "SESSION_SECONDS", "UiAuth", "clear_cookie"]

COOKIE = "toolwire_ui"
"""The session cookie's name."""

SESSION_SECONDS = 12 * 3600
"""How long a login lasts."""

_HEADERS = ("x-api-key", "x-goog-api-key")


def _key_id(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def _mac(key: str, expiry: int, key_id: str) -> str:
    message = f"toolwire-ui.{expiry}.{key_id}".encode()
    return hmac.new(key.encode(), message, hashlib.sha256).hexdigest()


class UiAuth:
    """The key check of the ``/ui`` pages.

    Args:
        keys: the gateway's keys (empty: no check).
        clock: the current time, unix seconds.
    """

    def __init__(self, keys: tuple[GatewayKey, ...], *, clock: Callable[[], float] = time.time) -> None:
        self._keys = {_key_id(k.key): k.key for k in keys}
        self._clock = clock

    @property
    def open(self) -> bool:
        """Whether the pages need no key."""
        return not self._keys

    def known(self, given: str) -> str | None:
        """The configured key equal to ``given`` (compared in constant time), else ``None``."""
        found = None
        for key in self._keys.values():
            if hmac.compare_digest(key.encode(), given.encode()):
                found = key
        return found

    def token(self, key: str) -> str:
        """A session token for the configured ``key``."""
        expiry = int(self._clock()) + SESSION_SECONDS
        key_id = _key_id(key)
        return f"{expiry}.{key_id}.{_mac(key, expiry, key_id)}"

    def _valid_token(self, token: str) -> bool:
        parts = token.split(".")
        if len(parts) != 3 or not parts[0].isdigit():
            return False
        expiry, key_id, mac = int(parts[0]), parts[1], parts[2]
        key = self._keys.get(key_id)
        if key is None or expiry < self._clock():
            return False
        return hmac.compare_digest(_mac(key, expiry, key_id), mac)

    def allowed(self, headers: Mapping[str, str]) -> bool:
        """Whether a request with these (lower-case) headers may see the pages."""
        if self.open:
            return True
        auth = headers.get("authorization", "")
        if auth[:7].lower() == "bearer " and self.known(auth[7:].strip()):
            return True
        if any(self.known(headers[h]) for h in _HEADERS if h in headers):
            return True
        token = _cookie(headers.get("cookie", ""), COOKIE)
        return token is not None and self._valid_token(token)

    def set_cookie(self, key: str, *, secure: bool) -> str:
        """The ``set-cookie`` value that logs a browser in with ``key``."""
        flags = "; Secure" if secure else ""
        token = self.token(key)
        return f"{COOKIE}={token}; Path=/ui; Max-Age={SESSION_SECONDS}; HttpOnly; SameSite=Strict{flags}"


def clear_cookie(*, secure: bool) -> str:
    """The ``set-cookie`` value that logs a browser out."""
    flags = "; Secure" if secure else ""
    return f"{COOKIE}=; Path=/ui; Max-Age=0; HttpOnly; SameSite=Strict{flags}"


def _cookie(header: str, name: str) -> str | None:
    for part in header.split(";"):
        key, sep, value = part.strip().partition("=")
        if sep and key == name:
            return value
    return None
