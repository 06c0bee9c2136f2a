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
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from toolwire._extras import require
from toolwire.client._sigv4 import AwsCredentials, sign_headers
from toolwire.errors import AuthenticationError

__all__ = ["AwsAuth", "bedrock_base_url", "bedrock_region"]


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

    def headers(self, method: str, url: str, headers: Mapping[str, str], body: bytes) -> dict[str, str]:
        """The signing headers of one request attempt."""
        return sign_headers(method, url, headers, body, self.credentials(), self.region)
