"""API keys as each provider's clients send them."""

from __future__ import annotations

from collections.abc import Callable

from starlette.requests import Request as HTTPRequest

from toolwire.ir import Format

__all__ = ["api_key"]


def _bearer(req: HTTPRequest) -> str | None:
    value = req.headers.get("authorization")
    if value is None:
        return None
    scheme, _, token = value.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def _anthropic(req: HTTPRequest) -> str | None:
    key = req.headers.get("x-api-key")
    return key if key is not None else _bearer(req)


def _gemini(req: HTTPRequest) -> str | None:
    key = req.headers.get("x-goog-api-key")
    return key if key is not None else req.query_params.get("key")


def _aws(req: HTTPRequest) -> str | None:
    """The access key id of a SigV4 ``Authorization`` header (the emulator does not check the
    signature: it holds no secret keys), or a Bedrock API key sent as Bearer."""
    value = req.headers.get("authorization")
    if value is None:
        return None
    scheme, _, rest = value.partition(" ")
    if scheme != "AWS4-HMAC-SHA256":
        return _bearer(req)
    for item in rest.split(","):
        name, _, credential = item.strip().partition("=")
        if name == "Credential":
            return credential.split("/", 1)[0]
    return ""


_EXTRACTORS: dict[Format, Callable[[HTTPRequest], str | None]] = {
    "openai-chat": _bearer,
    "openai-responses": _bearer,
    "anthropic": _anthropic,
    "gemini": _gemini,
    "bedrock-converse": _aws,
}


def api_key(fmt: Format, req: HTTPRequest) -> str | None:
    """The API key a request carries in ``fmt``'s style, ``None`` when it carries none.

    OpenAI: ``Authorization: Bearer``; Anthropic: ``x-api-key`` or Bearer; Gemini:
    ``x-goog-api-key`` or the ``key`` query parameter; Bedrock: the access key id of a SigV4
    ``Authorization`` header, or a Bearer API key.
    """
    return _EXTRACTORS[fmt](req)
