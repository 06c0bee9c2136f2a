"""The providers the client talks to: wire format, default address, credentials, auth header.

One table row per provider; everything provider-specific that is not a request-body rule lives
here (the body rules are in :mod:`toolwire.hop._build`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from toolwire._choices import unknown_choice
from toolwire.errors import ToolwireError
from toolwire.formats.openai_chat.dialects import DIALECTS, Dialect
from toolwire.hop._layouts import layout_base_url
from toolwire.hop._prefixes import MODEL_PREFIXES
from toolwire.ir.base import Format

__all__ = [
    "PROVIDERS",
    "ProviderName",
    "ProviderSpec",
    "check_key",
    "get_spec",
    "resolve_base_url",
    "resolve_key",
]

ProviderName = Literal[
    "openai-responses",
    "openai-chat",
    "anthropic",
    "gemini",
    "azure-openai",
    "azure-openai-chat",
    "vertex-gemini",
    "vertex-anthropic",
    "bedrock",
    "mistral",
    "deepseek",
    "openrouter",
    "groq",
    "xai",
    "ollama",
    "vllm",
]
"""A provider the client can call (a key of :data:`PROVIDERS`)."""


@dataclass(frozen=True, slots=True)
class ProviderSpec:
    """What the client needs to know about one provider.

    Attributes:
        name: the provider name.
        format: the wire format it speaks.
        base_url: default server root (the version path such as ``/v1`` is part of each endpoint).
        key_env: environment variables holding the API key, first set wins.
        url_env: environment variable overriding the base URL, when the provider has one.
        url_suffix: appended to ``url_env``'s value (Azure endpoints name only the resource).
        auth_header: the header carrying the key.
        auth_scheme: prefix before the key in that header (``"Bearer "`` or ``""``).
        version_prefix: the API version path segment; a base URL ending in it is trimmed.
        layout: where the provider puts the format's endpoints, a key of
            :data:`toolwire.hop._layouts.LAYOUTS` (``None``: the format's own paths).
        credentials: ``"key"`` (an API key) or ``"google"`` (an OAuth access token: the key given,
            else Google's Application Default Credentials).
        dialect: the Chat dialect the provider speaks (a key of
            :data:`toolwire.formats.openai_chat.dialects.DIALECTS`; ``None``: OpenAI's own).
    """

    name: ProviderName
    format: Format
    base_url: str | None
    key_env: tuple[str, ...]
    url_env: str | None
    auth_header: str
    auth_scheme: str
    version_prefix: str
    url_suffix: str = ""
    layout: str | None = None
    credentials: Literal["key", "google"] = "key"
    dialect: str | None = None


def _dialect_spec(dialect: Dialect) -> ProviderSpec:
    """The provider row of an OpenAI-compatible Chat dialect (its base URL is OpenAI-SDK style:
    a trailing ``/v1`` is the version segment the Chat path repeats)."""
    return ProviderSpec(
        dialect.name,  # type: ignore[arg-type]  # ProviderName lists every dialect but openai
        "openai-chat",
        dialect.base_url,
        (dialect.api_key_env,) if dialect.api_key_env else (),
        None,
        dialect.auth_header,
        dialect.auth_scheme,
        "/v1",
        dialect=dialect.name,
    )


PROVIDERS: dict[str, ProviderSpec] = {
    spec.name: spec
    for spec in (
        ProviderSpec(
            "openai-responses",
            "openai-responses",
            "https://api.openai.com",
            ("OPENAI_API_KEY",),
            "OPENAI_BASE_URL",
            "authorization",
            "Bearer ",
            "/v1",
        ),
        ProviderSpec(
            "openai-chat",
            "openai-chat",
            "https://api.openai.com",
            ("OPENAI_API_KEY",),
            "OPENAI_BASE_URL",
            "authorization",
            "Bearer ",
            "/v1",
        ),
        ProviderSpec(
            "anthropic",
            "anthropic",
            "https://api.anthropic.com",
            ("ANTHROPIC_API_KEY",),
            "ANTHROPIC_BASE_URL",
            "x-api-key",
            "",
            "/v1",
        ),
        ProviderSpec(
            "gemini",
            "gemini",
            "https://generativelanguage.googleapis.com",
            ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
            "GOOGLE_GEMINI_BASE_URL",
            "x-goog-api-key",
            "",
            "/v1beta",
        ),
        ProviderSpec(
            "azure-openai",
            "openai-responses",
            None,
            ("AZURE_OPENAI_API_KEY",),
            "AZURE_OPENAI_ENDPOINT",
            "api-key",
            "",
            "/v1",
            url_suffix="/openai",
        ),
        ProviderSpec(
            "azure-openai-chat",
            "openai-chat",
            None,
            ("AZURE_OPENAI_API_KEY",),
            "AZURE_OPENAI_ENDPOINT",
            "api-key",
            "",
            "/openai",
            layout="azure-deployment",
        ),
        ProviderSpec(
            "vertex-gemini",
            "gemini",
            "https://{location}-aiplatform.googleapis.com",
            (),
            None,
            "authorization",
            "Bearer ",
            "/v1",
            layout="vertex-google",
            credentials="google",
        ),
        ProviderSpec(
            "vertex-anthropic",
            "anthropic",
            "https://{location}-aiplatform.googleapis.com",
            (),
            None,
            "authorization",
            "Bearer ",
            "/v1",
            layout="vertex-anthropic",
            credentials="google",
        ),
        # Bedrock signs requests with SigV4 (toolwire.hop._aws) unless a Bedrock API key is
        # set; its default address depends on the region (toolwire.hop._aws.bedrock_base_url).
        ProviderSpec(
            "bedrock",
            "bedrock-converse",
            None,
            ("AWS_BEARER_TOKEN_BEDROCK",),
            "AWS_ENDPOINT_URL_BEDROCK_RUNTIME",
            "authorization",
            "Bearer ",
            "/model",
        ),
        *(_dialect_spec(dialect) for dialect in DIALECTS.values() if dialect.name != "openai"),
    )
}
"""Every provider by name; OpenAI-compatible Chat providers come from the dialect table."""


PROVIDER_OF_FORMAT: dict[str, str] = {"bedrock-converse": "bedrock"}
"""Formats whose provider row has another name (the other formats name their provider)."""


def get_spec(provider: str) -> ProviderSpec:
    """The spec of ``provider`` (or of the format it names), or a :class:`~toolwire.errors.ToolwireError`."""
    spec = PROVIDERS.get(PROVIDER_OF_FORMAT.get(provider, provider)) if isinstance(provider, str) else None
    if spec is None:
        prefix = MODEL_PREFIXES.get(provider) if isinstance(provider, str) else None
        if prefix is not None and prefix.provider is not None:  # ``azure``: a model prefix's row
            listed = ", ".join(PROVIDERS)
            raise ToolwireError(
                f"unknown provider {provider!r} (did you mean {prefix.provider!r}?); expected one of {listed}"
            )
        raise ToolwireError(unknown_choice("provider", provider, PROVIDERS, PROVIDERS))
    return spec


_ASCII_SPACE = " \t\r\n\x0b\x0c"
"""Stripped from both ends of a key (other whitespace is refused, not guessed at)."""


def check_key(key: str | None, source: str = "the API key") -> str | None:
    """``key`` without surrounding ASCII whitespace (``None`` when nothing is left).

    A key goes into an HTTP header, so it must be printable ASCII; a stray newline would end up
    in the HTTP library's error message and debug log, a non-ASCII character in an untyped
    ``UnicodeEncodeError``. The error names the position, never the key (nor chains an exception
    that would).

    Raises:
        ToolwireError: the key holds a control or non-ASCII character.
    """
    if key is None:
        return None
    if not isinstance(key, str):
        raise ToolwireError(f"{source} must be a string, not {type(key).__name__}")
    key = key.strip(_ASCII_SPACE)
    for index, char in enumerate(key):
        if not " " <= char <= "~":
            kind = "a control character" if char < " " or char == "\x7f" else "a non-ASCII character"
            raise ToolwireError(f"{source} contains {kind} at index {index} (keys are printable ASCII)")
    return key or None


def resolve_key(spec: ProviderSpec, api_key: str | None, env: Mapping[str, str] | None = None) -> str | None:
    """The API key: ``api_key`` when given, else the first of the provider's variables that is set.

    Surrounding whitespace is stripped (see :func:`check_key`).

    Raises:
        ToolwireError: the key holds a control or non-ASCII character.
    """
    if api_key is not None:
        return check_key(api_key)
    environ = os.environ if env is None else env
    for name in spec.key_env:
        value = environ.get(name)
        if value:
            return check_key(value, f"the API key in ${name}")
    return None


def resolve_base_url(
    spec: ProviderSpec,
    base_url: str | None,
    env: Mapping[str, str] | None = None,
    params: Mapping[str, str] | None = None,
) -> str:
    """The server root, without a trailing slash or a trailing API version segment (``params``:
    the layout's, which fill in a default address such as Vertex's location)."""
    environ = os.environ if env is None else env
    url = base_url
    if url is None and spec.url_env is not None and environ.get(spec.url_env):
        url = environ[spec.url_env].rstrip("/") + spec.url_suffix
    if url is None and spec.base_url is not None:
        url = layout_base_url(spec.base_url, params or {})
    if url is None:
        raise ToolwireError(
            f"provider {spec.name!r} has no default address: pass base_url= or set {spec.url_env}"
        )
    url = url.rstrip("/")
    if spec.version_prefix and url.endswith(spec.version_prefix):
        url = url[: -len(spec.version_prefix)]
    return url
