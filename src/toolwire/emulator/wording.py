"""Provider error bodies in each provider's own wording, as ``(status, body)`` pairs.

Bodies are built through each format's ``encode_error`` so their shape is the codec's; the
messages below are the ones the real APIs answer with.
"""

from __future__ import annotations

from typing import Any

from toolwire.ir import ErrorInfo, Format, Notes
from toolwire.translate import format_module

__all__ = ["auth_error", "error_body", "fault_error", "not_found", "reasoning_error"]

_OPENAI = ("openai-chat", "openai-responses")

_FAULT_MESSAGES: dict[int, dict[str, str]] = {
    429: {
        "openai": "Rate limit reached for requests. Please try again later.",
        "anthropic": "Number of request tokens has exceeded your per-minute rate limit.",
        "gemini": "Resource has been exhausted (e.g. check quota).",
        "bedrock-converse": "Too many requests, please wait before trying again.",
    },
    500: {
        "openai": "The server had an error while processing your request. Sorry about that!",
        "anthropic": "Internal server error",
        "gemini": "An internal error has occurred. Please retry or report in "
        "https://developers.generativeai.google/guide/troubleshooting",
        "bedrock-converse": "The system encountered an unexpected error during processing. "
        "Try your request again.",
    },
    503: {
        "openai": "The server is overloaded or not ready yet.",
        "anthropic": "Overloaded",
        "gemini": "The model is overloaded. Please try again later.",
        "bedrock-converse": "Bedrock is unable to process your request.",
    },
    529: {
        "openai": "The server is overloaded.",
        "anthropic": "Overloaded",
        "gemini": "The model is overloaded.",
    },
}


def _family(fmt: Format) -> str:
    return "openai" if fmt in _OPENAI else fmt


def error_body(
    fmt: Format,
    status: int,
    message: str,
    *,
    type: str | None = None,
    code: str | None = None,
    param: str | None = None,
) -> tuple[int, Any]:
    """The provider's error body for ``status`` and ``message`` (``type`` overrides the default)."""
    info = ErrorInfo(
        message=message,
        status=status,
        type=type,
        code=code,
        param=param,
        origin=fmt if type is not None else None,
    )
    encoded: tuple[int, Any] = format_module(fmt).encode_error(info, Notes("drop"))
    return encoded


def auth_error(fmt: Format, given: str | None) -> tuple[int, Any]:
    """The 401 body for a missing (``given`` None) or wrong API key."""
    if fmt in _OPENAI:
        if given is None:
            message = (
                "You didn't provide an API key. You need to provide your API key in an Authorization "
                "header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."
            )
            return error_body(fmt, 401, message, type="invalid_request_error")
        shown = f"{given[:3]}*****{given[-4:]}" if len(given) > 8 else "*****"
        message = f"Incorrect API key provided: {shown}. You can find your API key at https://platform.openai.com/account/api-keys."
        return error_body(fmt, 401, message, type="invalid_request_error", code="invalid_api_key")
    if fmt == "anthropic":
        message = "x-api-key header is required" if given is None else "invalid x-api-key"
        return error_body(fmt, 401, message, type="authentication_error")
    if fmt == "bedrock-converse":  # AWS answers 403 for both (typed by status: AccessDeniedException)
        invalid = "The security token included in the request is invalid."
        return error_body(fmt, 403, "Missing Authentication Token" if given is None else invalid)
    if given is None:
        message = (
            "Method doesn't allow unregistered callers (callers without established identity). "
            "Please use API Key or other form of API consumer identity to call this API."
        )
    else:
        message = "API key not valid. Please pass a valid API key."
    return error_body(fmt, 401, message, type="UNAUTHENTICATED")


def fault_error(fmt: Format, status: int) -> tuple[int, Any]:
    """The body of an injected error status."""
    if status == 401:
        return auth_error(fmt, "injected-fault-key")
    message = _FAULT_MESSAGES.get(status, {}).get(_family(fmt), "Injected fault")
    return error_body(fmt, status, message)


def reasoning_error(fmt: Format, message: str) -> tuple[int, Any]:
    """A 400 about reasoning state that did not come back unchanged."""
    return error_body(fmt, 400, message)


def not_found(message: str, *, param: str | None = None, code: str | None = None) -> tuple[int, Any]:
    """The Responses API's 404 (an unknown response id)."""
    return error_body("openai-responses", 404, message, type="invalid_request_error", param=param, code=code)
