"""Google OAuth access tokens for Vertex AI: Application Default Credentials via google-auth.

A :class:`TokenSource` hands out the bearer token of the next call. :class:`GoogleCredentials`
wraps ``google.auth.default()`` with the ``cloud-platform`` scope (the ``vertex`` extra:
``pip install 'toolwire[vertex]'``); it refreshes the token when it is missing or expires within
:attr:`GoogleCredentials.margin` seconds. :meth:`~GoogleCredentials.current` never does I/O (the
pure hop reads it); :meth:`~GoogleCredentials.token` may refresh, a blocking HTTP call, so the
async shells run it in a worker thread. Tokens never appear in an error message.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Protocol, runtime_checkable

from toolwire._extras import require
from toolwire.errors import ToolwireError

__all__ = ["CLOUD_PLATFORM", "GoogleCredentials", "StaticToken", "TokenSource"]

CLOUD_PLATFORM = "https://www.googleapis.com/auth/cloud-platform"
"""The OAuth scope Vertex AI calls need."""


@runtime_checkable
class TokenSource(Protocol):
    """Where bearer tokens come from (tests pass their own)."""

    def token(self) -> str:
        """A valid token, refreshed first when needed (may block)."""
        ...

    def current(self) -> str | None:
        """The token held now if it is still valid, without I/O (``None``: call :meth:`token`)."""
        ...


class StaticToken:
    """A fixed token (from ``gcloud auth print-access-token``, or a test)."""

    def __init__(self, value: str) -> None:
        self._value = value

    def token(self) -> str:
        """The token."""
        return self._value

    def current(self) -> str | None:
        """The token."""
        return self._value

    def __repr__(self) -> str:
        return "StaticToken([redacted])"


def _message(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__


class GoogleCredentials:
    """Application Default Credentials (or given google-auth credentials) as a :class:`TokenSource`.

    Args:
        credentials: google-auth credentials to use (default: ``google.auth.default()`` with the
            ``cloud-platform`` scope, found on first use).
        margin: refresh a token that expires within this many seconds.
        clock: the current time, unix seconds (tests).

    Raises:
        MissingDependencyError: google-auth (the ``vertex`` extra) is not installed.
    """

    def __init__(self, credentials: Any = None, *, margin: float = 300.0, clock: Any = time.time) -> None:
        require("Vertex AI credentials", "google.auth", "requests")
        self._credentials = credentials
        self.margin = margin
        self._clock = clock
        self._lock = threading.Lock()
        self.project: str | None = None

    def _load(self) -> Any:
        if self._credentials is None:
            import google.auth

            try:
                self._credentials, self.project = google.auth.default(scopes=[CLOUD_PLATFORM])
            except Exception as exc:  # DefaultCredentialsError, a malformed credentials file...
                raise ToolwireError(f"no Google credentials: {_message(exc)}") from None
        return self._credentials

    def current(self) -> str | None:
        """The cached token when it stays valid for :attr:`margin` seconds (no I/O)."""
        creds = self._credentials
        if creds is None or not getattr(creds, "token", None):
            return None
        expiry = getattr(creds, "expiry", None)  # naive UTC datetime, or None: no expiry known
        if expiry is not None:
            import calendar

            if calendar.timegm(expiry.timetuple()) - self._clock() < self.margin:
                return None
        return str(creds.token)

    def token(self) -> str:
        """A valid token, refreshed when missing or about to expire (a blocking HTTP call).

        Raises:
            ToolwireError: no credentials were found, or the refresh failed (the message names
                the reason, never a token).
        """
        with self._lock:
            current = self.current()
            if current is not None:
                return current
            creds = self._load()
            import google.auth.transport.requests

            try:
                creds.refresh(google.auth.transport.requests.Request())
            except Exception as exc:  # RefreshError, TransportError
                raise ToolwireError(f"could not refresh the Google access token: {_message(exc)}") from None
            if not creds.token:
                raise ToolwireError("could not refresh the Google access token: none was returned")
            return str(creds.token)

    def __repr__(self) -> str:
        return "GoogleCredentials()"
