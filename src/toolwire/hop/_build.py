"""Request builders: a wire body of the provider's format in, the HTTP request to send out.

One builder per wire format (a table, not branches): it fills in the format's required or
customary fields, chooses the endpoint and adds the format's headers. Authentication headers are
added later (:func:`auth_headers`), so a refreshed key never needs a rebuild.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode

from toolwire.errors import PayloadError
from toolwire.formats.openai_chat.dialects import DIALECTS
from toolwire.hop._layouts import apply_layout
from toolwire.hop._options import (
    AnthropicOptions,
    ChatOptions,
    GeminiOptions,
    Options,
    ResponsesOptions,
)
from toolwire.hop._providers import ProviderSpec
from toolwire.hop._responses import build_responses_body, responses_headers
from toolwire.ir.base import Format
from toolwire.ir.notes import Notes

__all__ = ["BuildContext", "HTTPRequest", "auth_headers", "build_http_request"]


@dataclass(frozen=True, slots=True)
class HTTPRequest:
    """One HTTP request, ready for a transport (authentication headers not yet added).

    Attributes:
        method: HTTP method.
        url: absolute URL, query included.
        headers: request headers (lower-case names), without credentials.
        body: the JSON body.
        stream: whether the answer is a stream.
        format: the wire format of the body.
        model: the model the request is for.
        format_body: the body as the format's own API takes it, when the provider's layout
            changed it (Claude on Vertex: no ``model``, an ``anthropic_version``); what local
            validation checks.
    """

    method: str
    url: str
    headers: dict[str, str]
    body: dict[str, Any]
    stream: bool
    format: Format
    model: str | None = None
    format_body: dict[str, Any] | None = None


@dataclass(slots=True)
class BuildContext:
    """What a builder needs besides the body (``params``: the provider layout's, such as Vertex's
    project and location, see :mod:`toolwire.hop._layouts`)."""

    spec: ProviderSpec
    base_url: str
    options: Options
    stream: bool
    notes: Notes
    model: str | None = None
    extra_headers: dict[str, str] = field(default_factory=dict)
    params: Mapping[str, str] = field(default_factory=dict)


_Built = tuple[str, dict[str, Any], dict[str, str]]  # path (with query), body, headers


def _accept(stream: bool) -> dict[str, str]:
    return {"accept": "text/event-stream" if stream else "application/json"}


def _model(body: dict[str, Any], ctx: BuildContext) -> str | None:
    model = body.get("model")
    return model if isinstance(model, str) else ctx.model


def _with_model(body: dict[str, Any], ctx: BuildContext) -> dict[str, Any]:
    out = dict(body)
    if "model" not in out and ctx.model is not None:
        out["model"] = ctx.model
    return out


def _opts(ctx: BuildContext, kind: type[Any]) -> Any:
    if not isinstance(ctx.options, kind):
        raise PayloadError(
            f"options for provider {ctx.spec.name!r} must be {kind.__name__}, "
            f"got {type(ctx.options).__name__}"
        )
    return ctx.options


def _build_responses(body: dict[str, Any], ctx: BuildContext) -> _Built:
    opts: ResponsesOptions = _opts(ctx, ResponsesOptions)
    azure = ctx.spec.name == "azure-openai"
    out = build_responses_body(_with_model(body, ctx), opts, azure=azure, stream=ctx.stream, notes=ctx.notes)
    path = "/v1/responses"
    if opts.api_version is not None:
        path += "?" + urlencode({"api-version": opts.api_version})
    return path, out, responses_headers(opts, stream=ctx.stream)


def _build_chat(body: dict[str, Any], ctx: BuildContext) -> _Built:
    opts: ChatOptions = _opts(ctx, ChatOptions)
    out = _with_model(body, ctx)
    out["stream"] = ctx.stream
    if not ctx.stream:
        out.pop("stream_options", None)
    elif opts.include_usage and "stream_options" not in _rejected(ctx):
        stream_options = dict(out.get("stream_options") or {})
        stream_options.setdefault("include_usage", True)
        out["stream_options"] = stream_options
    return "/v1/chat/completions", out, _accept(ctx.stream)


def _rejected(ctx: BuildContext) -> frozenset[str]:
    """Standard Chat fields the provider's dialect refuses (Mistral: ``stream_options``)."""
    return DIALECTS[ctx.spec.dialect].rejects if ctx.spec.dialect else frozenset()


def _build_anthropic(body: dict[str, Any], ctx: BuildContext) -> _Built:
    opts: AnthropicOptions = _opts(ctx, AnthropicOptions)
    out = _with_model(body, ctx)
    out.setdefault("max_tokens", opts.max_tokens)
    out["stream"] = ctx.stream
    headers = {**_accept(ctx.stream), "anthropic-version": opts.version}
    if opts.beta:
        headers["anthropic-beta"] = ",".join(opts.beta)
    return "/v1/messages", out, headers


def _build_gemini(body: dict[str, Any], ctx: BuildContext) -> _Built:
    opts: GeminiOptions = _opts(ctx, GeminiOptions)
    model = _model(body, ctx)
    if not model:
        raise PayloadError("a Gemini request needs a model (it goes in the URL)", path="$.model")
    out = {k: v for k, v in body.items() if k != "model"}
    name = quote(model.removeprefix("models/"), safe="-._~")
    if not ctx.stream:
        path = f"/{opts.api_version}/models/{name}:generateContent"
    elif opts.sse:
        path = f"/{opts.api_version}/models/{name}:streamGenerateContent?alt=sse"
    else:
        path = f"/{opts.api_version}/models/{name}:streamGenerateContent"
    return path, out, _accept(ctx.stream and opts.sse)


def _build_bedrock(body: dict[str, Any], ctx: BuildContext) -> _Built:
    from toolwire.formats.bedrock_converse.request import endpoint_path

    model = _model(body, ctx)
    if not model:
        raise PayloadError("a Bedrock request needs a model (it goes in the URL)", path="$.modelId")
    out = {k: v for k, v in body.items() if k not in ("model", "modelId")}
    return endpoint_path(model, ctx.stream), out, {"accept": "application/json"}


_BUILDERS: dict[str, Callable[[dict[str, Any], BuildContext], _Built]] = {
    "openai-responses": _build_responses,
    "openai-chat": _build_chat,
    "anthropic": _build_anthropic,
    "gemini": _build_gemini,
    "bedrock-converse": _build_bedrock,
}


def build_http_request(body: dict[str, Any], ctx: BuildContext) -> HTTPRequest:
    """The HTTP request for ``body`` (a payload in the provider's wire format)."""
    path, out, headers = _BUILDERS[ctx.spec.format](body, ctx)
    own: dict[str, Any] | None = None
    if ctx.spec.layout is not None:  # the provider's own address (Vertex, Azure deployments)
        path, moved, headers = apply_layout(ctx.spec.layout, path, out, headers, ctx.params)
        own, out = out, moved if moved is not None else out
    merged = {"content-type": "application/json", **headers, **ctx.extra_headers}
    model = _model(body, ctx)
    fmt = ctx.spec.format
    return HTTPRequest("POST", ctx.base_url + path, merged, out, ctx.stream, fmt, model, own)


def auth_headers(spec: ProviderSpec, api_key: str | None) -> dict[str, str]:
    """The credential header for ``api_key`` (empty when there is no key)."""
    if not api_key:
        return {}
    return {spec.auth_header: spec.auth_scheme + api_key}
