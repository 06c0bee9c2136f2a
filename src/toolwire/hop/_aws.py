"""Bedrock credentials, region and address: the standard AWS chain, secrets kept out of sight.

Credentials, first found wins:

1. a Bedrock API key (``AWS_BEARER_TOKEN_BEDROCK``, or ``api_key=``): sent as ``Bearer``;
2. ``AWS_ACCESS_KEY_ID`` / ``AWS_SECRET_ACCESS_KEY`` (/ ``AWS_SESSION_TOKEN``) in the
   environment: read directly, no dependency;
3. the rest of the standard chain (shared credentials and config files with ``AWS_PROFILE``,
   SSO, web identity, container and instance metadata): botocore's resolver, from the
   ``[bedrock]`` extra, imported only then; refreshable credentials are re-read per request.

Region: ``AWS_REGION``, else ``AWS_DEFAULT_REGION``, else ``us-east-1``. Address:
``AWS_ENDPOINT_URL_BEDROCK_RUNTIME``, else ``AWS_ENDPOINT_URL``, else
``https://bedrock-runtime.<region>.amazonaws.com``. Requests are signed by :mod:`._sigv4`.

The client (:class:`toolwire.Client`, provider ``bedrock``) and the gateway (a Bedrock upstream
without ``key_env``) sign the same way: :class:`UpstreamSigners` gives each gateway upstream its
:class:`AwsAuth`, reading the variables the upstream's config names in place of the standard ones.
Nothing here opens a file or a socket unless botocore's chain is needed.
"""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from toolwire._extras import require
from toolwire.errors import AuthenticationError, ToolwireError
from toolwire.hop._sigv4 import AwsCredentials, sign_headers

if TYPE_CHECKING:
    from toolwire.hop._config import Upstream

__all__ = ["AwsAuth", "UpstreamCredentialsError", "UpstreamSigners", "bedrock_base_url", "bedrock_region"]


def bedrock_region(env: Mapping[str, str] | None = None) -> str:
    """The AWS region the standard variables name (``us-east-1`` by default)."""
    environ = os.environ if env is None else env
    return environ.get("AWS_REGION") or environ.get("AWS_DEFAULT_REGION") or "us-east-1"


def bedrock_base_url(env: Mapping[str, str] | None = None) -> str:
    """The Bedrock Runtime address for the environment's endpoint override or region."""
    environ = os.environ if env is None else env
    url = environ.get("AWS_ENDPOINT_URL_BEDROCK_RUNTIME") or environ.get("AWS_ENDPOINT_URL")
    return (url or f"https://bedrock-runtime.{bedrock_region(environ)}.amazonaws.com").rstrip("/")


class AwsAuth:
    """SigV4 request signing with credentials from the standard chain (see the module docstring)."""

    def __init__(self, env: Mapping[str, str] | None = None, *, region: str | None = None) -> None:
        environ = os.environ if env is None else env
        self.region = region or bedrock_region(environ)
        self._fixed: AwsCredentials | None = None
        self._provider: Any = None
        access, secret = environ.get("AWS_ACCESS_KEY_ID"), environ.get("AWS_SECRET_ACCESS_KEY")
        if access and secret:
            self._fixed = AwsCredentials(access, secret, environ.get("AWS_SESSION_TOKEN") or None)

    def credentials(self) -> AwsCredentials:
        """The current credentials (botocore's chain when the environment holds none).

        Raises:
            MissingDependencyError: botocore is needed and missing (names ``toolwire[bedrock]``).
            AuthenticationError: no credentials anywhere in the chain.
        """
        if self._fixed is not None:
            return self._fixed
        if self._provider is None:
            require("AWS credentials beyond the environment (profiles, SSO, instance roles)", "botocore")
            import botocore.session  # type: ignore[import-untyped]

            self._provider = botocore.session.Session().get_credentials()
            if self._provider is None:
                raise AuthenticationError(
                    "no AWS credentials found (environment, profile, SSO or instance role)"
                )
        frozen = self._provider.get_frozen_credentials()
        return AwsCredentials(frozen.access_key, frozen.secret_key, frozen.token)

    def secrets(self) -> tuple[str, ...]:
        """Values never to show in logs or errors (the secret key and token, when known)."""
        fixed = self._fixed
        return tuple(s for s in (fixed.secret_key, fixed.token) if s) if fixed is not None else ()

    def headers(
        self,
        method: str,
        url: str,
        headers: Mapping[str, str],
        body: bytes,
        now: _dt.datetime | None = None,
    ) -> dict[str, str]:
        """The signing headers of one request attempt (signed at ``now``, default the clock's)."""
        return sign_headers(method, url, headers, body, self.credentials(), self.region, now=now)


class UpstreamCredentialsError(AuthenticationError):
    """The gateway cannot sign for a SigV4 upstream (no credentials, or botocore missing for the
    chain beyond the environment); the message names variables, never a value."""


_STANDARD = ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN")
"""The standard variables an upstream's ``access_key_env`` / ``secret_key_env`` /
``session_token_env`` stand in for."""


class UpstreamSigners:
    """The :class:`AwsAuth` of each SigV4 upstream, made once per upstream and kept (so botocore's
    refreshable credentials are resolved once, not per call).

    Args:
        env: where the variables are read (default: the process environment).
    """

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        self._env = env
        self._auth: dict[str, AwsAuth] = {}

    def auth(self, upstream: Upstream) -> AwsAuth:
        """The signer of ``upstream``: its configured variables, else the standard chain.

        Raises:
            UpstreamCredentialsError: the upstream names variables for its keys and they are unset
                (the message names the variables, never a value).
        """
        found = self._auth.get(upstream.name)
        if found is None:
            found = self._auth[upstream.name] = self._make(upstream)
        return found

    def sign(
        self,
        upstream: Upstream,
        method: str,
        url: str,
        headers: Mapping[str, str],
        body: bytes,
        at: float | None = None,
    ) -> dict[str, str]:
        """The SigV4 headers of one request to ``upstream`` (add them to ``headers``), signed
        at ``at`` (unix seconds; default: the clock's time).

        Raises:
            UpstreamCredentialsError: no credentials, or botocore missing for the chain beyond
                the environment; the message never holds a key.
        """
        try:
            now = None if at is None else _dt.datetime.fromtimestamp(at, _dt.UTC)
            return self.auth(upstream).headers(method, url, headers, body, now)
        except UpstreamCredentialsError:
            raise
        except ToolwireError as exc:
            raise UpstreamCredentialsError(f"upstream {upstream.name!r}: {exc}") from None

    def _make(self, upstream: Upstream) -> AwsAuth:
        environ = os.environ if self._env is None else self._env
        region = upstream.region or bedrock_region(environ)
        named = (upstream.access_key_env, upstream.secret_key_env, upstream.session_token_env)
        if not any(named):
            return AwsAuth(environ, region=region)
        picked = {std: environ.get(var, "") for std, var in zip(_STANDARD, named, strict=True) if var}
        if not (picked.get("AWS_ACCESS_KEY_ID") and picked.get("AWS_SECRET_ACCESS_KEY")):
            names = ", ".join(f"${var}" for var in named if var)
            raise UpstreamCredentialsError(
                f"upstream {upstream.name!r}: AWS access key and secret key not set ({names})"
            )
        return AwsAuth(picked, region=region)
