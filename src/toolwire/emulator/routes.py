"""The emulator's HTTP routes: each provider's paths onto the handler (:mod:`toolwire.emulator.app`),
Bedrock's error-type header, and the request-id header every provider sends."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from starlette.requests import Request as HTTPRequest
from starlette.responses import Response as HTTPResponse
from starlette.routing import Route

from toolwire._json import loads
from toolwire.emulator._http import json_response as _json
from toolwire.emulator.config import EmulatorConfig
from toolwire.emulator.routes_profiles import profile_routes
from toolwire.emulator.wording import error_body
from toolwire.errors import ToolwireError
from toolwire.formats.bedrock_converse._keys import error_type_for_status
from toolwire.hop._models import list_models
from toolwire.ir import Format

if TYPE_CHECKING:
    from toolwire.emulator.app import _Handler

__all__ = ["RequestIds", "routes"]


def routes(handler: _Handler, config: EmulatorConfig) -> list[Route]:
    async def chat(req: HTTPRequest) -> HTTPResponse:
        return await handler.model_call("openai-chat", req)

    async def responses(req: HTTPRequest) -> HTTPResponse:
        return await handler.model_call("openai-responses", req)

    async def messages(req: HTTPRequest) -> HTTPResponse:
        return await handler.model_call("anthropic", req)

    async def count_tokens(req: HTTPRequest) -> HTTPResponse:
        return await handler.count("anthropic", req)

    async def input_tokens(req: HTTPRequest) -> HTTPResponse:
        return await handler.count("openai-responses", req)

    async def gemini(req: HTTPRequest) -> HTTPResponse:
        model, _, method = req.path_params["target"].partition(":")
        if method == "countTokens":
            return await handler.count("gemini", req, model=model)
        if method not in ("generateContent", "streamGenerateContent"):
            status, body = error_body("gemini", 404, f"Method not found: {method or '(none)'}.")
            return _json(status, body)
        stream = method == "streamGenerateContent"
        sse = req.query_params.get("alt") == "sse"
        return await handler.model_call("gemini", req, model=model, stream=stream, sse=sse)

    async def bedrock(req: HTTPRequest) -> HTTPResponse:
        model, _, operation = req.path_params["target"].rpartition("/")
        if operation not in ("converse", "converse-stream") or not model:
            response = _json(*error_body("bedrock-converse", 404, f"Unknown operation: {operation}"))
        else:
            stream = operation == "converse-stream"
            response = await handler.model_call("bedrock-converse", req, model=model, stream=stream)
        return _with_error_type(response)

    async def models(req: HTTPRequest) -> HTTPResponse:
        flavour = "gemini" if req.url.path.startswith("/v1beta") else "openai"
        if flavour == "openai" and ("anthropic-version" in req.headers or "x-api-key" in req.headers):
            flavour = "anthropic"
        fmt: Format = "openai-chat" if flavour == "openai" else flavour  # type: ignore[assignment]
        _, early = await handler.gate(fmt, req)
        return early if early is not None else _json(200, list_models(config.models, flavour))

    return [
        Route("/v1/chat/completions", chat, methods=["POST"]),
        Route("/v1/responses", responses, methods=["POST"]),
        Route("/v1/responses/input_tokens", input_tokens, methods=["POST"]),
        Route("/v1/responses/compact", handler.compact, methods=["POST"]),
        Route("/v1/responses/{response_id}", handler.stored, methods=["GET", "DELETE"]),
        Route("/v1/responses/{response_id}/input_items", handler.stored, methods=["GET"]),
        Route("/v1/conversations", handler.conversations, methods=["POST"]),
        Route("/v1/conversations/{ident}", handler.conversations, methods=["GET", "POST", "DELETE"]),
        Route("/v1/conversations/{ident}/items", handler.conversations, methods=["GET", "POST"]),
        Route("/v1/conversations/{ident}/items/{item}", handler.conversations, methods=["GET", "DELETE"]),
        Route("/v1/responses/{response_id}/cancel", handler.cancel, methods=["POST"]),
        Route("/v1/messages", messages, methods=["POST"]),
        Route("/v1/messages/count_tokens", count_tokens, methods=["POST"]),
        Route("/v1/models", models, methods=["GET"]),
        Route("/v1beta/models", models, methods=["GET"]),
        Route("/v1beta/models/{target:path}", gemini, methods=["POST"]),
        Route("/v1/models/{target:path}", gemini, methods=["POST"]),
        Route("/model/{target:path}", bedrock, methods=["POST"]),
        *profile_routes(handler),
    ]


def _with_error_type(response: HTTPResponse) -> HTTPResponse:
    """A Bedrock error answer with its type in ``x-amzn-ErrorType`` (from the body's ``__type``,
    else from its status), where AWS puts it."""
    if response.status_code < 400:
        return response
    try:
        body = loads(bytes(response.body))
    except ToolwireError:
        body = None
    kind = body.get("__type") if isinstance(body, dict) else None
    if type(kind) is not str:
        kind = error_type_for_status(response.status_code)
    response.headers["x-amzn-errortype"] = kind
    return response


class RequestIds:
    """ASGI middleware: the request-id header each provider sends (``x-request-id`` for OpenAI,
    ``request-id`` for Anthropic), numbered in arrival order."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.count = itertools.count(1)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        name = b"request-id" if path.startswith("/v1/messages") else b"x-request-id"
        if not path.startswith("/v1/"):
            await self.app(scope, receive, send)
            return
        value = f"req_{next(self.count):024x}".encode()

        async def tagged(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), (name, value)]}
            await send(message)

        await self.app(scope, receive, tagged)
