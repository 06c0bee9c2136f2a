"""The typed exception tree of toolwire.

Every failure toolwire raises on purpose is a :class:`ToolwireError`. Errors that
concern a position in a JSON payload carry that position as a JSON path
(``$.tools[0].function.name``) in :attr:`ToolwireError.path`.

::

    ToolwireError
    ├── PayloadError               bad input payload (wrong type, missing field, bad JSON)
    │   ├── LimitError             payload exceeds a safety limit (size, depth, node count)
    │   └── RequestRejectedError   a request refused locally because the validator found problems
    ├── ConversionError            strict policy refused a lossy conversion (carries the notes)
    ├── UnsupportedError           the target format cannot express something at all
    ├── SchemaError                a JSON Schema is invalid or cannot be transformed
    ├── ToolDefinitionError        a Python function/model cannot become a tool
    ├── ToolNameError              a tool name is invalid and cannot be sanitized
    ├── MissingDependencyError     an optional extra is not installed (also an ImportError)
    ├── StreamError                a stream broke its format's event grammar
    ├── WorkerLimitError           too many timed-out tools still run in abandoned threads
    ├── TransportError             no answer: connection refused or dropped, protocol error
    │   ├── ConnectionFailedError  the connection could not be made or broke mid-answer
    │   └── RequestTimeoutError    connect/read/write/pool timeout
    │       └── StreamIdleTimeoutError  no stream event within the idle timeout
    └── ProviderError              an error answered by a provider (status, type, code)
        ├── InvalidRequestError    400 / 404 / 422 (``param`` names the offending field)
        ├── AuthenticationError    401
        ├── PermissionDeniedError  403
        ├── RateLimitError         429
        ├── OverloadedError        529 / 503 overloaded
        └── ServerError            5xx
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolwire.ir.notes import Note
    from toolwire.ir.problem import Problem

__all__ = [
    "AuthenticationError",
    "ConnectionFailedError",
    "ConversionError",
    "InvalidRequestError",
    "LimitError",
    "MissingDependencyError",
    "OverloadedError",
    "PayloadError",
    "PermissionDeniedError",
    "ProviderError",
    "RateLimitError",
    "RequestRejectedError",
    "RequestTimeoutError",
    "SchemaError",
    "ServerError",
    "StreamError",
    "StreamIdleTimeoutError",
    "ToolDefinitionError",
    "ToolNameError",
    "ToolwireError",
    "TransportError",
    "UnsupportedError",
    "WorkerLimitError",
]


class ToolwireError(Exception):
    """Base class of every error toolwire raises on purpose.

    Attributes:
        message: the human-readable description, without the path.
        path: JSON path of the offending value (``$`` is the payload root), or ``None``.
    """

    def __init__(self, message: str, *, path: str | None = None) -> None:
        self.message = message
        self.path = path
        super().__init__(f"{path}: {message}" if path else message)


class PayloadError(ToolwireError):
    """An input payload is malformed: wrong type, missing required field, invalid JSON."""


class LimitError(PayloadError):
    """An input exceeds a safety limit (size, nesting depth, node count)."""


class RequestRejectedError(PayloadError):
    """A request refused locally, before sending, because it would be invalid.

    Attributes:
        problems: every problem found (the message names the first one).
    """

    def __init__(self, problems: Sequence[Problem]) -> None:
        first = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(f"{first.code}: {first.message}{more}", path=first.path)
        self.problems = list(problems)


class ConversionError(ToolwireError):
    """A conversion under ``policy="strict"`` would drop or approximate something, or (under any
    policy) cannot produce a payload the target accepts (e.g. a ``previous_response_id``
    continuation for a stateless format).

    Attributes:
        notes: the notes that caused the refusal (usually one).
    """

    def __init__(self, message: str, *, path: str | None = None, notes: Sequence[Note] = ()) -> None:
        super().__init__(message, path=path)
        self.notes = tuple(notes)


class UnsupportedError(ToolwireError):
    """The target format has no way at all to express the value."""


class SchemaError(ToolwireError):
    """A JSON Schema is invalid, too large, or cannot be transformed for a target."""


class ToolDefinitionError(ToolwireError):
    """A Python function, model or schema cannot be turned into a tool definition."""


class ToolNameError(ToolwireError):
    """A tool name is invalid for a target and cannot be sanitized reversibly."""


class MissingDependencyError(ToolwireError, ImportError):
    """A feature needs an optional extra that is not installed.

    Also an :class:`ImportError`, so code that guards an optional import keeps working.
    Raised by :func:`toolwire._extras.require`; the message names the extra to install
    (``'toolwire run' needs the client extra: pip install 'toolwire[client]'``).

    Attributes:
        feature: what needed it (``'toolwire run'``, ``toolwire.client``).
        extra: the extra that provides everything the feature needs (``client``, ``cli``).
        missing: the import names that could not be imported.
    """

    def __init__(self, feature: str, extra: str, missing: Sequence[str]) -> None:
        super().__init__(f"{feature} needs the {extra} extra: pip install 'toolwire[{extra}]'")
        self.feature = feature
        self.extra = extra
        self.missing = tuple(missing)
        self.name = self.missing[0] if self.missing else None  # ImportError's attribute


class StreamError(ToolwireError):
    """A stream broke its format's event grammar (wrong order, missing terminal event)."""


class WorkerLimitError(ToolwireError):
    """Too many timed-out tool calls still run in abandoned threads; no new tool thread starts.

    The runner abandons a tool thread at its deadline (Python cannot stop a thread) and caps how
    many may still run (``toolwire.runner.set_abandoned_limit``); it reports a call refused by
    the cap to the model as that call's error result.
    """


class TransportError(ToolwireError):
    """The request did not get an answer: connection refused or dropped, protocol error."""


class ConnectionFailedError(TransportError):
    """The connection could not be made or broke before the answer was complete."""


class RequestTimeoutError(TransportError):
    """A timeout expired (connect, write, read or pool)."""


class StreamIdleTimeoutError(RequestTimeoutError):
    """No stream event arrived within the idle timeout."""


class ProviderError(ToolwireError):
    """An error answered by a provider API (or the emulator) in its own error shape.

    Attributes:
        status: HTTP status code, when known.
        type: the provider's error type (``invalid_request_error``, ``INVALID_ARGUMENT``...).
        code: the provider's error code, when it has one.
        param: the offending request field as the provider names it, when given.
        request_id: the provider's request id, when known.
        body: the decoded error body as received.
    """

    default_status: int | None = None

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        type: str | None = None,
        code: str | None = None,
        param: str | None = None,
        request_id: str | None = None,
        body: Any = None,
        path: str | None = None,
    ) -> None:
        super().__init__(message, path=path)
        self.status = status if status is not None else self.default_status
        self.type = type
        self.code = code
        self.param = param
        self.request_id = request_id
        self.body = body


class InvalidRequestError(ProviderError):
    """The provider rejected the request as invalid (400, 404, 422)."""

    default_status = 400


class AuthenticationError(ProviderError):
    """Missing or wrong credentials (401)."""

    default_status = 401


class PermissionDeniedError(ProviderError):
    """Credentials valid but not allowed (403)."""

    default_status = 403


class RateLimitError(ProviderError):
    """Too many requests or quota exhausted (429)."""

    default_status = 429


class OverloadedError(ProviderError):
    """The provider is overloaded (Anthropic 529, 503 overloaded)."""

    default_status = 529


class ServerError(ProviderError):
    """The provider failed internally (5xx)."""

    default_status = 500


EXCEPTION_BY_STATUS: dict[int, type[ProviderError]] = {
    400: InvalidRequestError,
    404: InvalidRequestError,
    409: InvalidRequestError,
    413: InvalidRequestError,
    422: InvalidRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    429: RateLimitError,
    503: OverloadedError,
    529: OverloadedError,
}
"""The typed error for an HTTP status, in every format (a format whose error types say more, such
as Anthropic's or Bedrock's, looks its type up first). OpenAI and Google answer an overloaded model
with 503, Anthropic with 529; an oversized body (413) is an invalid request everywhere."""


def exception_for_status(status: int | None) -> type[ProviderError]:
    """The class of :data:`EXCEPTION_BY_STATUS` for ``status``; an unlisted status is a
    :class:`ServerError` from 500 up, else a plain :class:`ProviderError` (as the official SDKs do)."""
    if status is None:
        return ProviderError
    return EXCEPTION_BY_STATUS.get(status) or (ServerError if status >= 500 else ProviderError)
