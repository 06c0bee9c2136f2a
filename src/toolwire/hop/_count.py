"""Token counting across a hop: the upstream's own count endpoint where it has one (no I/O).

==========================  ==============================================  =======================
upstream format             count call                                      answer read
==========================  ==============================================  =======================
``anthropic``               ``POST /v1/messages/count_tokens``              ``input_tokens``
``gemini``                  ``POST /v1beta/models/{model}:countTokens``     ``totalTokens``
                            with ``{"generateContentRequest": ...}``
``openai-responses``        ``POST /v1/responses/input_tokens``             ``input_tokens``
``openai-chat``             none: the estimate below                        --
==========================  ==============================================  =======================

The client's count body is translated like a generation request, then cut to the fields the
count endpoint takes (:data:`COUNT_FIELDS`). The estimate, where the upstream has no count
endpoint, is one token per four bytes of the translated request's JSON, rounded up: a documented
over-estimate for English text and JSON, which is what a client uses a count for (to stay under
a context window).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from toolwire._json import dumps, loads
from toolwire.errors import PayloadError
from toolwire.hop._call import ClientCall, InboundRequest
from toolwire.hop._models import COUNT_BODIES
from toolwire.ir.base import Format

if TYPE_CHECKING:
    from toolwire.translate import Exchange

__all__ = ["COUNT_FIELDS", "CountCall", "count_call", "count_reply", "estimate_reply", "estimate_tokens"]

COUNT_FIELDS: dict[str, tuple[str, ...]] = {
    "anthropic": ("model", "messages", "system", "tools", "tool_choice", "thinking", "mcp_servers"),
    "openai-responses": (
        "model",
        "input",
        "instructions",
        "tools",
        "tool_choice",
        "reasoning",
        "text",
        "truncation",
        "parallel_tool_calls",
        "conversation",
        "previous_response_id",
    ),
    "gemini": ("contents", "systemInstruction", "tools", "toolConfig", "generationConfig", "cachedContent"),
}
"""The request fields each upstream's count endpoint takes."""

_ANSWER_FIELD = {"anthropic": "input_tokens", "openai-responses": "input_tokens", "gemini": "totalTokens"}
_HEADERS = {"content-type": "application/json", "accept": "application/json"}


@dataclass(frozen=True, slots=True)
class CountCall:
    """The upstream count call: ``path`` (``None``: no endpoint, estimate) and body bytes."""

    path: str | None
    body: bytes
    headers: dict[str, str]


def _client_body(fmt: Format, payload: dict[str, Any]) -> dict[str, Any]:
    if fmt == "gemini" and isinstance(payload.get("generateContentRequest"), dict):
        return dict(payload["generateContentRequest"])
    return payload


def count_call(ex: Exchange, payload: dict[str, Any], call: ClientCall) -> CountCall:
    """The upstream count call for the client's count body (translated through ``ex``)."""
    body = ex.request(_client_body(ex.client, payload), stream=False, model=call.model)  # type: ignore[arg-type]
    upstream = ex.upstream
    if upstream == "openai-chat":
        return CountCall(None, dumps(body), {})
    kept = {key: value for key, value in body.items() if key in COUNT_FIELDS[upstream]}
    headers = dict(_HEADERS)
    if upstream == "anthropic":
        headers["anthropic-version"] = "2023-06-01"
        return CountCall("/v1/messages/count_tokens", dumps(kept), headers)
    if upstream == "gemini":
        model = ex.last_request.model if ex.last_request is not None else None
        name = quote(str(model or ex.client_model or ""), safe="")
        inner = {"model": f"models/{name}", **kept}
        return CountCall(
            f"/v1beta/models/{name}:countTokens", dumps({"generateContentRequest": inner}), headers
        )
    return CountCall("/v1/responses/input_tokens", dumps(kept), headers)


def estimate_tokens(body: bytes) -> int:
    """The documented estimate: one token per four bytes of the request JSON, rounded up."""
    return (len(body) + 3) // 4


def _beta(inbound: InboundRequest) -> bool:
    return "beta=true" in inbound.query.split("&")


def estimate_reply(client: Format, body: bytes, inbound: InboundRequest) -> dict[str, Any]:
    """The client's count answer from :func:`estimate_tokens` of the translated request."""
    return COUNT_BODIES[client](estimate_tokens(body), _beta(inbound))


def count_reply(upstream: Format, client: Format, body: bytes, inbound: InboundRequest) -> dict[str, Any]:
    """The client's count answer for the upstream's count answer.

    Raises:
        PayloadError: the upstream's answer has no token count.
    """
    answer = loads(body)
    count = answer.get(_ANSWER_FIELD[upstream]) if isinstance(answer, dict) else None
    if not isinstance(count, int) or isinstance(count, bool):
        raise PayloadError(f"the upstream's count answer has no {_ANSWER_FIELD[upstream]}", path="$")
    return COUNT_BODIES[client](count, _beta(inbound))
