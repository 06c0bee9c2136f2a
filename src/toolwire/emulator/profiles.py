"""The emulator's provider profiles: Vertex AI (Google and Anthropic publishers) and Azure OpenAI.

==================================================================================  ============
route                                                                               answers as
==================================================================================  ============
``POST /v1/projects/{p}/locations/{l}/publishers/google/models/{m}:generateContent``  ``gemini``
``...:streamGenerateContent`` (``alt=sse``: SSE), ``...:countTokens``                 + Vertex
``POST /v1/projects/{p}/locations/{l}/publishers/anthropic/models/{m}:rawPredict``    ``anthropic``
``...:streamRawPredict``; ``.../models/count-tokens:rawPredict``
``POST /openai/deployments/{d}/chat/completions?api-version=...``                     ``openai-chat``
``POST /openai/v1/chat/completions``, ``/openai/v1/responses`` (Azure's v1 API)     OpenAI
==================================================================================  ============

Vertex answers carry what AI Studio's do not (recordings in
tests/data/fixtures/firebase-vertexai-sdk-test-data/gemini-vertex): ``createTime`` and
``usageMetadata.trafficType`` on the body and on every stream chunk. Claude on Vertex takes
``anthropic_version: "vertex-2023-10-16"`` in the body and the model in the path only; the
emulator refuses a body without the one or with a ``model``, then answers as the Messages API
for the path's model. Vertex takes an OAuth bearer token, Azure an ``api-key`` header (or a
bearer token); a wrong one gets each service's own 401.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from starlette.requests import Request as HTTPRequest

from toolwire._json import dumps, loads
from toolwire.emulator.wording import error_body
from toolwire.errors import ToolwireError
from toolwire.formats._stream import WireEvent
from toolwire.hop._layouts import VERTEX_ANTHROPIC_VERSION
from toolwire.ir import Format

__all__ = [
    "PROFILES",
    "anthropic_body",
    "profile_auth_error",
    "profile_key",
    "vertex_decorate",
]

PROFILES = ("vertex", "azure")
"""The profiles routes may name (``None``: the provider's own API)."""


def profile_key(profile: str, req: HTTPRequest) -> str | None:
    """The credential a request carries in the profile's style (``None``: none)."""
    if profile == "azure" and req.headers.get("api-key") is not None:
        return req.headers["api-key"]
    value = req.headers.get("authorization")
    if value is None:
        return None
    scheme, _, token = value.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


_VERTEX_401 = (
    "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or "
    "other valid authentication credential. See "
    "https://developers.google.com/identity/sign-in/web/devconsole-project."
)
_AZURE_401 = (
    "Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a "
    "valid key for an active subscription and use a correct regional API endpoint for your resource."
)


def profile_auth_error(profile: str, fmt: Format) -> tuple[int, Any]:
    """The service's 401 (Vertex: Google's ``UNAUTHENTICATED`` for either publisher)."""
    if profile == "vertex":
        return error_body("gemini", 401, _VERTEX_401, type="UNAUTHENTICATED")
    return 401, {"error": {"code": "401", "message": _AZURE_401}}


def anthropic_body(body: bytes, model: str | None) -> bytes | tuple[int, Any]:
    """A Claude-on-Vertex body as the Messages API takes it (``model`` from the path, no
    ``anthropic_version``), or the 400 for a body Vertex refuses."""
    try:
        payload = loads(body) if body else None
    except ToolwireError:
        payload = None
    if not isinstance(payload, dict):
        return body  # the Messages handler answers a body that is not JSON
    version = payload.pop("anthropic_version", None)
    if version != VERTEX_ANTHROPIC_VERSION:
        shown = "Field required" if version is None else f"Input should be {VERTEX_ANTHROPIC_VERSION!r}"
        return error_body("anthropic", 400, f"anthropic_version: {shown}")
    if model is not None:
        if "model" in payload:
            return error_body("anthropic", 400, "model: Extra inputs are not permitted")
        payload["model"] = model
    return dumps(payload)


def _create_time(seconds: float) -> str:
    moment = dt.datetime.fromtimestamp(seconds, dt.UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def vertex_decorate(event: WireEvent, created: float) -> WireEvent:
    """A Gemini answer (body or stream chunk) as Vertex AI sends it: ``createTime`` and the
    usage's ``trafficType``."""
    if not isinstance(event, dict):
        return event
    usage = event.get("usageMetadata")
    usage = dict(usage) if isinstance(usage, dict) else {}
    usage["trafficType"] = "ON_DEMAND"
    return {**event, "usageMetadata": usage, "createTime": _create_time(created)}
