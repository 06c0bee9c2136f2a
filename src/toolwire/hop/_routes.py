"""Which API an inbound request speaks: (method, path) -> (client format, operation). No I/O.

==========  ==================================================  ===================  ============
method      path                                                format               operation
==========  ==================================================  ===================  ============
POST        ``/v1/chat/completions``                            ``openai-chat``      generate
POST        ``/v1/responses``                                   ``openai-responses`` generate
POST        ``/v1/responses/input_tokens``                      ``openai-responses`` count
GET         ``/v1/responses/{id}``                              ``openai-responses`` retrieve
DELETE      ``/v1/responses/{id}``                              ``openai-responses`` delete
GET         ``/v1/responses/{id}/input_items``                  ``openai-responses`` input_items
POST        ``/v1/responses/{id}/cancel``                       ``openai-responses`` cancel
POST        ``/v1/conversations``                               ``openai-responses`` conv_create
GET         ``/v1/conversations/{id}``                          ``openai-responses`` conv_get
POST        ``/v1/conversations/{id}``                          ``openai-responses`` conv_update
DELETE      ``/v1/conversations/{id}``                          ``openai-responses`` conv_delete
GET         ``/v1/conversations/{id}/items``                    ``openai-responses`` conv_items
POST        ``/v1/conversations/{id}/items``                    ``openai-responses`` conv_add
GET         ``/v1/conversations/{id}/items/{item}``             ``openai-responses`` conv_item
DELETE      ``/v1/conversations/{id}/items/{item}``             ``openai-responses`` conv_item_delete
POST        ``/v1/messages`` (``?beta=true`` too)               ``anthropic``        generate
POST        ``/v1/messages/count_tokens``                       ``anthropic``        count
POST        ``/v1beta/models/{model}:generateContent``          ``gemini``           generate
POST        ``/v1beta/models/{model}:streamGenerateContent``    ``gemini``           generate
POST        ``/v1beta/models/{model}:countTokens``              ``gemini``           count
POST        ``/model/{modelId}/converse``                       ``bedrock-converse`` generate
POST        ``/model/{modelId}/converse-stream``                ``bedrock-converse`` generate
GET         ``/v1/models``, ``/v1/models/{model}``              OpenAI or Anthropic  models
GET         ``/v1beta/models``, ``/v1beta/models/{model}``      ``gemini``           models
==========  ==================================================  ===================  ============

A Bedrock model id (or ARN) is the percent-decoded path between ``/model/`` and the operation;
the operation says whether the client streams.

A Gemini model may be a model string (``/v1beta/models/vertex/gemini-2.5-pro:generateContent``,
as the Gemini SDKs write ``models/{model}``; see :mod:`toolwire.hop._prefixes`). Gemini paths are
also answered under ``/v1/`` (``/v1/models/{model}:generateContent``), as
Google's API does. ``GET /v1/models`` answers in Anthropic's shape when the client sends an
``anthropic-version`` or ``x-api-key`` header (Anthropic's SDKs always do), else in OpenAI's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal
from urllib.parse import unquote

from toolwire.ir.base import Format

__all__ = ["INBOUND", "Endpoint", "Operation", "match_inbound"]

Operation = Literal[
    "generate",
    "count",
    "models",
    "retrieve",
    "delete",
    "input_items",
    "cancel",
    "conv_create",
    "conv_get",
    "conv_update",
    "conv_delete",
    "conv_items",
    "conv_add",
    "conv_item",
    "conv_item_delete",
]
"""What an inbound request asks for."""


@dataclass(frozen=True, slots=True)
class Endpoint:
    """A matched inbound request.

    Attributes:
        format: the client's wire format.
        operation: what it asks for.
        model: the model named in the path (Gemini calls, model lookups), else ``None``.
        ident: the response or conversation id of a stored-state operation, else ``None``.
        item: the conversation item id of ``conv_item`` and ``conv_item_delete``, else ``None``.
    """

    format: Format
    operation: Operation
    model: str | None = None
    ident: str | None = None
    item: str | None = None


_CONV = r"/v1/conversations/(?P<ident>[^/]+)"
_GEMINI = r"/v1(?:beta|alpha)?/models/(?P<model>(?:[a-z][a-z0-9-]*/)?[^/:]+):"
INBOUND: tuple[tuple[str, re.Pattern[str], Format | None, Operation], ...] = (
    ("POST", re.compile(r"/v1/chat/completions"), "openai-chat", "generate"),
    ("POST", re.compile(r"/v1/responses"), "openai-responses", "generate"),
    ("POST", re.compile(r"/v1/responses/input_tokens"), "openai-responses", "count"),
    ("GET", re.compile(r"/v1/responses/(?P<ident>[^/]+)"), "openai-responses", "retrieve"),
    ("DELETE", re.compile(r"/v1/responses/(?P<ident>[^/]+)"), "openai-responses", "delete"),
    ("GET", re.compile(r"/v1/responses/(?P<ident>[^/]+)/input_items"), "openai-responses", "input_items"),
    ("POST", re.compile(r"/v1/responses/(?P<ident>[^/]+)/cancel"), "openai-responses", "cancel"),
    ("POST", re.compile(r"/v1/conversations"), "openai-responses", "conv_create"),
    ("GET", re.compile(_CONV), "openai-responses", "conv_get"),
    ("POST", re.compile(_CONV), "openai-responses", "conv_update"),
    ("DELETE", re.compile(_CONV), "openai-responses", "conv_delete"),
    ("GET", re.compile(_CONV + "/items"), "openai-responses", "conv_items"),
    ("POST", re.compile(_CONV + "/items"), "openai-responses", "conv_add"),
    ("GET", re.compile(_CONV + r"/items/(?P<item>[^/]+)"), "openai-responses", "conv_item"),
    ("DELETE", re.compile(_CONV + r"/items/(?P<item>[^/]+)"), "openai-responses", "conv_item_delete"),
    ("POST", re.compile(r"/v1/messages"), "anthropic", "generate"),
    ("POST", re.compile(r"/v1/messages/count_tokens"), "anthropic", "count"),
    ("POST", re.compile(_GEMINI + r"(?:generateContent|streamGenerateContent)"), "gemini", "generate"),
    ("POST", re.compile(_GEMINI + r"countTokens"), "gemini", "count"),
    ("POST", re.compile(r"/model/(?P<model>.+)/converse"), "bedrock-converse", "generate"),
    ("POST", re.compile(r"/model/(?P<model>.+)/converse-stream"), "bedrock-converse", "generate"),
    ("GET", re.compile(r"/v1beta/models(?:/(?P<model>[^/:]+))?"), "gemini", "models"),
    ("GET", re.compile(r"/v1/models(?:/(?P<model>[^/:]+))?"), None, "models"),
)
"""Inbound routes, tried in order: (method, full-path pattern, client format, operation); a
format of ``None`` is decided by the headers (see the module docstring)."""

_ANTHROPIC_HEADERS = ("anthropic-version", "x-api-key")


def _family(headers: Mapping[str, str]) -> Format:
    names = {name.lower() for name in headers}
    return "anthropic" if any(h in names for h in _ANTHROPIC_HEADERS) else "openai-chat"


def match_inbound(method: str, path: str, headers: Mapping[str, str]) -> Endpoint | None:
    """The endpoint of a request, or ``None`` when no route has its method and path.

    Args:
        method: the HTTP method.
        path: the URL path (no query).
        headers: the request headers (any case).
    """
    path = path.rstrip("/") or "/"
    for verb, pattern, fmt, operation in INBOUND:
        if verb != method:
            continue
        found = pattern.fullmatch(path)
        if found is None:
            continue
        groups = found.groupdict()
        model = groups.get("model")
        ident = groups.get("ident")
        item = groups.get("item")
        return Endpoint(
            fmt if fmt is not None else _family(headers),
            operation,
            unquote(model) if model else None,
            unquote(ident) if ident else None,
            unquote(item) if item else None,
        )
    return None


def allowed_methods(path: str) -> tuple[str, ...]:
    """The methods some route accepts on ``path`` (for a 405's ``allow`` header)."""
    path = path.rstrip("/") or "/"
    return tuple(dict.fromkeys(verb for verb, pattern, _, _ in INBOUND if pattern.fullmatch(path)))
