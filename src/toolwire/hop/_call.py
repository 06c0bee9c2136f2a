"""An HTTP hop's two requests as data: what the client sent in, what goes upstream (no I/O).

:func:`read_inbound` takes what the client's URL says that its body does not (Gemini puts the model
and the stream flag in the path: ``/v1beta/models/{model}:streamGenerateContent?alt=sse``);
:func:`upstream_call` describes the call to the upstream with the request builders the client
uses (:mod:`toolwire.hop._build`): method, path with query, the format's required headers,
the body bytes. Credentials are not part of it: the shell adds them.

Headers a client sends for its own API are kept only when the upstream speaks the same format
(:data:`FORWARDED_HEADERS`); ``anthropic-beta`` values are merged with the options' betas.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import parse_qs, unquote

from toolwire._json import dumps, loads
from toolwire.errors import PayloadError
from toolwire.hop._build import BuildContext, build_http_request
from toolwire.hop._options import (
    AnthropicOptions,
    BedrockOptions,
    ChatOptions,
    GeminiOptions,
    Options,
    ResponsesOptions,
)
from toolwire.hop._providers import get_spec
from toolwire.ir.base import Format
from toolwire.ir.notes import Notes

__all__ = [
    "FORWARDED_HEADERS",
    "HOP_OPTIONS",
    "ClientCall",
    "InboundRequest",
    "UpstreamCall",
    "read_inbound",
    "upstream_call",
]

HOP_OPTIONS: dict[str, Options] = {
    # A hop forwards the client's choices: parallel calls stay allowed unless the client says no,
    # and the reference client's ``originator`` header is not ours to send.
    "openai-responses": ResponsesOptions(parallel_tool_calls=True, originator=None),
    "openai-chat": ChatOptions(include_usage=True),
    "anthropic": AnthropicOptions(),
    "gemini": GeminiOptions(),
    "bedrock-converse": BedrockOptions(),
}
"""Request options of an upstream call, by upstream format, when the caller gives none."""


FORWARDED_HEADERS: dict[str, tuple[str, ...]] = {
    "openai-chat": ("openai-beta",),
    "openai-responses": ("openai-beta", "session_id", "conversation_id"),
    "anthropic": ("anthropic-version",),
    "gemini": (),
    "bedrock-converse": (),
}
"""Client headers kept (lower-case) when the upstream speaks the client's format."""

_GEMINI_PATH = re.compile(
    r"/(?P<version>v1[a-z0-9]*)/(?P<model>(?:models|tunedModels)/(?:[a-z][a-z0-9-]*/)?[^:/]+):(?P<method>\w+)$"
)
_GEMINI_STREAM = "streamGenerateContent"
_BEDROCK_PATH = re.compile(r"/model/(?P<model>.+)/(?P<op>converse|converse-stream)")
_BETA = "anthropic-beta"


@dataclass(frozen=True, slots=True)
class InboundRequest:
    """One HTTP request as the client sent it.

    Attributes:
        method: HTTP method.
        path: URL path (a query after ``?`` is read too).
        query: the query string, without ``?``.
        headers: request headers (any case).
        body: the body bytes.
    """

    method: str
    path: str
    query: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)
    body: bytes = b""


@dataclass(frozen=True, slots=True)
class ClientCall:
    """What an inbound request says besides its body.

    Attributes:
        model: the model named in the URL (Gemini, Bedrock), else ``None`` (it is in the body).
        stream: the stream flag of the URL (Gemini, Bedrock), else ``None`` (it is in the body).
        json_array: a Gemini stream asked for without ``alt=sse``: the answer is a JSON array.
        betas: the client's ``anthropic-beta`` values.
        headers: the client's headers in :data:`FORWARDED_HEADERS` (lower-case names).
    """

    model: str | None = None
    stream: bool | None = None
    json_array: bool = False
    betas: tuple[str, ...] = ()
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class UpstreamCall:
    """The call to make upstream, without credentials.

    Attributes:
        method: HTTP method.
        path: path from the server root, query included (``/v1/messages``,
            ``/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse``).
        headers: request headers, lower-case names (``content-type``, ``accept``, the format's
            required ones such as ``anthropic-version``).
        body: the JSON body bytes.
        stream: whether the answer is a stream.
        model: the model the call is for.
    """

    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    stream: bool
    model: str | None = None

    def url(self, base_url: str) -> str:
        """The absolute URL under ``base_url``, the server root (without the version segment)."""
        return base_url.rstrip("/") + self.path

    def json(self) -> Any:
        """The body, decoded."""
        return loads(self.body)


def _lower(headers: Mapping[str, str]) -> dict[str, str]:
    return {name.lower(): value for name, value in headers.items()}


def _betas(value: str | None) -> tuple[str, ...]:
    return tuple(beta.strip() for beta in (value or "").split(",") if beta.strip())


def read_inbound(client: Format, inbound: InboundRequest) -> tuple[dict[str, Any], ClientCall]:
    """The client's JSON body and what its URL and headers add.

    Raises:
        PayloadError: the body is not a JSON object.
    """
    payload = loads(inbound.body) if inbound.body.strip() else {}
    if type(payload) is not dict:
        raise PayloadError("a request body must be a JSON object", path="$")
    headers = _lower(inbound.headers)
    kept = {name: headers[name] for name in FORWARDED_HEADERS[client] if name in headers}
    call = ClientCall(betas=_betas(headers.get(_BETA)), headers=kept)
    if client == "bedrock-converse":
        return payload, _bedrock_call(inbound.path, call)
    if client != "gemini":
        return payload, call
    path, _, query = inbound.path.partition("?")
    match = _GEMINI_PATH.search(path)
    if match is None:
        return payload, call
    params = parse_qs(inbound.query or query)
    stream = match["method"] == _GEMINI_STREAM
    model = unquote(match["model"]).removeprefix("models/")
    return payload, replace(
        call, model=model, stream=stream, json_array=stream and params.get("alt") != ["sse"]
    )


def _bedrock_call(path: str, call: ClientCall) -> ClientCall:
    """Bedrock names the model and the stream choice in the path (``/model/{id}/converse-stream``)."""
    match = _BEDROCK_PATH.fullmatch(path.partition("?")[0].rstrip("/"))
    if match is None:
        return call
    return replace(call, model=unquote(match["model"]), stream=match["op"] == "converse-stream")


def _anthropic_betas(options: AnthropicOptions, client_betas: tuple[str, ...]) -> AnthropicOptions:
    merged = tuple(dict.fromkeys((*options.beta, *client_betas)))
    return options if merged == options.beta else replace(options, beta=merged)


def upstream_call(
    upstream: Format,
    body: dict[str, Any],
    *,
    stream: bool,
    model: str | None = None,
    inbound: ClientCall | None = None,
    options: Options | None = None,
    notes: Notes | None = None,
    dialect: str | None = None,
) -> UpstreamCall:
    """The upstream call for ``body``, a payload in the upstream's format.

    Args:
        upstream: the upstream's format.
        body: the payload (e.g. :meth:`~toolwire.Exchange.request`'s result).
        stream: whether to ask for a stream (Chat streams then ask for usage).
        model: the model when ``body`` has none (Gemini bodies never do: it goes in the path).
        inbound: the client's call when the client speaks the upstream's format: its forwarded
            headers and ``anthropic-beta`` values are kept.
        options: request options (default: :data:`HOP_OPTIONS` of ``upstream``).
        notes: where builder notes go.
        dialect: a Chat upstream's provider dialect (the builder leaves out the fields it
            refuses, such as Mistral's ``stream_options``).
    """
    opts = options if options is not None else HOP_OPTIONS[upstream]
    if inbound is not None and isinstance(opts, AnthropicOptions):
        opts = _anthropic_betas(opts, inbound.betas)
    if inbound is not None and isinstance(opts, ResponsesOptions) and opts.store is None:
        # The client speaks Responses: its own ``store`` (the API's default: true) is kept, and with
        # it the item ids a stored conversation needs; the stateless default is for other clients.
        opts = replace(opts, store=body.get("store", True) is not False)
    spec = get_spec(upstream)
    if dialect is not None:
        spec = replace(spec, dialect=dialect)
    ctx = BuildContext(spec, "", opts, stream, notes if notes is not None else Notes("drop"), model)
    built = build_http_request(body, ctx)
    headers = built.headers if inbound is None else {**built.headers, **inbound.headers}
    return UpstreamCall(built.method, built.url, headers, dumps(built.body), stream, built.model)
