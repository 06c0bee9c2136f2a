"""The emulator's routes for provider profiles (the table in :mod:`toolwire.emulator.profiles`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.requests import Request as HTTPRequest
from starlette.responses import Response as HTTPResponse
from starlette.routing import Route

from toolwire.emulator._http import json_response as _json
from toolwire.emulator.profiles import anthropic_body
from toolwire.emulator.wording import error_body

if TYPE_CHECKING:
    from toolwire.emulator.app import _Handler

__all__ = ["profile_routes"]

_VERTEX = "/v1/projects/{project}/locations/{location}/publishers"


def _target(req: HTTPRequest) -> tuple[str, str]:
    model, _, method = str(req.path_params["target"]).partition(":")
    return model, method


def profile_routes(handler: _Handler) -> list[Route]:
    """Vertex AI (both publishers) and Azure OpenAI routes over ``handler``."""

    async def vertex_google(req: HTTPRequest) -> HTTPResponse:
        model, method = _target(req)
        if method == "countTokens":
            return await handler.count("gemini", req, model=model, profile="vertex")
        if method not in ("generateContent", "streamGenerateContent"):
            return _json(*error_body("gemini", 404, f"Method not found: {method or '(none)'}."))
        stream = method == "streamGenerateContent"
        sse = req.query_params.get("alt") == "sse"
        return await handler.model_call("gemini", req, model=model, stream=stream, sse=sse, profile="vertex")

    async def vertex_anthropic(req: HTTPRequest) -> HTTPResponse:
        model, method = _target(req)
        if method not in ("rawPredict", "streamRawPredict"):
            return _json(*error_body("gemini", 404, f"Method not found: {method or '(none)'}."))
        counting = model == "count-tokens"
        body = anthropic_body(await req.body(), None if counting else model)
        if isinstance(body, tuple):
            _, early = await handler.gate("anthropic", req, profile="vertex")
            return early if early is not None else _json(*body)
        if counting:
            return await handler.count("anthropic", req, profile="vertex", body=body)
        return await handler.model_call("anthropic", req, profile="vertex", body=body)

    async def azure_deployment(req: HTTPRequest) -> HTTPResponse:
        if not req.query_params.get("api-version"):
            return _json(404, {"error": {"code": "404", "message": "Resource not found"}})
        return await handler.model_call("openai-chat", req, profile="azure")

    async def azure_chat(req: HTTPRequest) -> HTTPResponse:
        return await handler.model_call("openai-chat", req, profile="azure")

    async def azure_responses(req: HTTPRequest) -> HTTPResponse:
        return await handler.model_call("openai-responses", req, profile="azure")

    return [
        Route(_VERTEX + "/google/models/{target:path}", vertex_google, methods=["POST"]),
        Route(_VERTEX + "/anthropic/models/{target:path}", vertex_anthropic, methods=["POST"]),
        Route("/openai/deployments/{deployment}/chat/completions", azure_deployment, methods=["POST"]),
        Route("/openai/v1/chat/completions", azure_chat, methods=["POST"]),
        Route("/openai/v1/responses", azure_responses, methods=["POST"]),
    ]
