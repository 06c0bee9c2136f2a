"""HTTP client for the four wire formats: the right request, headers, retries and errors.

:class:`Client` (blocking) and :class:`AsyncClient` share all logic (:mod:`._core`, sans-IO);
only the httpx transport differs. ``create`` returns a :class:`Result` (IR response plus the
native payloads); ``stream`` returns a :class:`Stream` / :class:`AsyncStream` of canonical events.

Example:
    >>> from toolwire.client import Client
    >>> with Client("anthropic") as client:                      # doctest: +SKIP
    ...     result = client.create(chat_payload, format="openai-chat")
    ...     result.tool_calls, result.raw, result.payload
"""

from toolwire._extras import require

try:  # a missing client extra is reported by its name, not by the first module missing
    import httpx  # noqa: F401
    import tenacity  # noqa: F401
except ImportError:
    require("toolwire.client", "httpx", "tenacity")
    raise

from toolwire._google_auth import GoogleCredentials, StaticToken, TokenSource
from toolwire.client._async import AsyncClient, AsyncStream
from toolwire.client._build import HTTPRequest
from toolwire.client._core import TRACE
from toolwire.client._errors import (
    ConnectionFailedError,
    RequestTimeoutError,
    StreamIdleTimeoutError,
    TransportError,
    parse_retry_after,
)
from toolwire.client._options import (
    AnthropicOptions,
    ChatOptions,
    GeminiOptions,
    Options,
    ResponsesOptions,
    Timeouts,
)
from toolwire.client._preflight import RequestRejectedError, check_request
from toolwire.client._providers import PROVIDERS, ProviderName, ProviderSpec
from toolwire.client._result import Result
from toolwire.client._retry import RETRY_STATUSES, RetryPolicy
from toolwire.client._sync import Client, Stream
from toolwire.hop._prefixes import MODEL_PREFIXES, ModelPrefix

__all__ = [
    "MODEL_PREFIXES",
    "PROVIDERS",
    "RETRY_STATUSES",
    "TRACE",
    "AnthropicOptions",
    "AsyncClient",
    "AsyncStream",
    "ChatOptions",
    "Client",
    "ConnectionFailedError",
    "GeminiOptions",
    "GoogleCredentials",
    "HTTPRequest",
    "ModelPrefix",
    "Options",
    "ProviderName",
    "ProviderSpec",
    "RequestRejectedError",
    "RequestTimeoutError",
    "ResponsesOptions",
    "Result",
    "RetryPolicy",
    "StaticToken",
    "Stream",
    "StreamIdleTimeoutError",
    "Timeouts",
    "TokenSource",
    "TransportError",
    "check_request",
    "parse_retry_after",
]
