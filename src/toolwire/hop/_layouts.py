"""Where a provider puts a wire format's endpoints, when not where the format's own API does (no I/O).

A layout takes the request a format's builder made (path from the server root, JSON body,
headers) and moves it to the provider's address, changing the body where the provider wants it
(one row per layout, :data:`LAYOUTS`):

==================  ===========================================  =================================
layout              format path -> provider path                 body and headers
==================  ===========================================  =================================
``vertex-google``   ``/v1beta/models/{m}:{method}`` ->           ``countTokens``: the request
                    ``/v1/projects/{p}/locations/{l}/``          itself, not wrapped in
                    ``publishers/google/models/{m}:{method}``    ``generateContentRequest``
                    (query kept: ``?alt=sse``)
``vertex-anthropic`` ``/v1/messages`` -> ``/v1/projects/{p}/``     ``model`` leaves the body (it is
                    ``locations/{l}/publishers/anthropic/``      in the path); ``anthropic_version:
                    ``models/{m}:rawPredict`` (a stream:         "vertex-2023-10-16"`` goes in; no
                    ``:streamRawPredict``);                      ``anthropic-version`` header
                    ``/v1/messages/count_tokens`` ->
                    ``.../models/count-tokens:rawPredict``
                    (``model`` stays in that body)
``azure-deployment`` ``/v1/chat/completions`` ->                  unchanged
                    ``/openai/deployments/{m}/chat/completions``
                    ``?api-version={v}``
==================  ===========================================  =================================

``{p}``, ``{l}`` and ``{v}`` are the ``project``, ``location`` and ``api_version`` parameters
(:data:`PARAMS` lists each layout's, with defaults). The server root comes from
:func:`layout_base_url`: Vertex's depends on the location (``global`` has no location prefix).
Sources: Google's Vertex AI REST reference (``generateContent``, ``streamGenerateContent``,
``countTokens``; ``rawPredict``, ``streamRawPredict`` for partner models) and Anthropic's
"Claude on Vertex AI" page (``anthropic_version`` in the body, no ``model``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import quote

from toolwire._json import dumps, loads
from toolwire.errors import PayloadError, ToolwireError

__all__ = [
    "LAYOUTS",
    "PARAMS",
    "VERTEX_ANTHROPIC_VERSION",
    "apply_layout",
    "layout_base_url",
    "layout_params",
    "relayout",
]

VERTEX_ANTHROPIC_VERSION = "vertex-2023-10-16"
"""The ``anthropic_version`` body field Claude on Vertex AI requires."""

AZURE_API_VERSION = "2024-10-21"
"""The ``api-version`` of Azure deployment paths when none is given (the GA data-plane version)."""

PARAMS: dict[str, dict[str, tuple[str | None, tuple[str, ...]]]] = {
    "vertex-google": {
        "project": (None, ("GOOGLE_CLOUD_PROJECT",)),
        "location": ("us-central1", ("GOOGLE_CLOUD_LOCATION",)),
    },
    "vertex-anthropic": {
        "project": (None, ("ANTHROPIC_VERTEX_PROJECT_ID", "GOOGLE_CLOUD_PROJECT")),
        "location": ("us-central1", ("CLOUD_ML_REGION", "GOOGLE_CLOUD_LOCATION")),
    },
    "azure-deployment": {"api_version": (AZURE_API_VERSION, ("OPENAI_API_VERSION",))},
}
"""Layout -> its parameters: name -> (default, environment variables read when not given; first
set wins). A parameter without a default must be given or set."""

_Body = dict[str, Any] | None
_Layout = Callable[[str, _Body, dict[str, str], Mapping[str, str]], tuple[str, _Body, dict[str, str]]]

_GEMINI_PATH = re.compile(r"/v1(?:beta|alpha)?/models/(?P<model>[^:/?]+):(?P<method>\w+)(?P<query>\?.*)?")


def _vertex_root(params: Mapping[str, str]) -> str:
    project = quote(params["project"], safe="-._~")
    location = quote(params["location"], safe="-._~")
    return f"/v1/projects/{project}/locations/{location}"


def _no_endpoint(layout: str, path: str) -> ToolwireError:
    return ToolwireError(f"{layout}: the provider has no endpoint for {path.partition('?')[0]}")


def _vertex_google(
    path: str, body: _Body, headers: dict[str, str], params: Mapping[str, str]
) -> tuple[str, _Body, dict[str, str]]:
    found = _GEMINI_PATH.fullmatch(path)
    if found is None:
        raise _no_endpoint("vertex-google", path)
    model, method = found["model"], found["method"]
    if method == "countTokens" and body is not None and isinstance(body.get("generateContentRequest"), dict):
        body = {k: v for k, v in body["generateContentRequest"].items() if k != "model"}
    out = f"{_vertex_root(params)}/publishers/google/models/{model}:{method}{found['query'] or ''}"
    return out, body, headers


def _model_name(body: _Body, layout: str) -> str:
    model = body.get("model") if body is not None else None
    if not isinstance(model, str) or not model:
        raise PayloadError(f"{layout}: the request needs a model (it goes in the URL)", path="$.model")
    return quote(model, safe="-._~@")


def _vertex_anthropic(
    path: str, body: _Body, headers: dict[str, str], params: Mapping[str, str]
) -> tuple[str, _Body, dict[str, str]]:
    bare = path.partition("?")[0]
    if bare not in ("/v1/messages", "/v1/messages/count_tokens"):
        raise _no_endpoint("vertex-anthropic", path)
    out: dict[str, Any] = dict(body or {})
    out.setdefault("anthropic_version", VERTEX_ANTHROPIC_VERSION)
    kept = {k: v for k, v in headers.items() if k != "anthropic-version"}
    root = f"{_vertex_root(params)}/publishers/anthropic/models"
    if bare == "/v1/messages/count_tokens":
        return f"{root}/count-tokens:rawPredict", out, kept
    model = _model_name(out, "vertex-anthropic")
    del out["model"]
    method = "streamRawPredict" if out.get("stream") is True else "rawPredict"
    return f"{root}/{model}:{method}", out, kept


def _azure_deployment(
    path: str, body: _Body, headers: dict[str, str], params: Mapping[str, str]
) -> tuple[str, _Body, dict[str, str]]:
    bare = path.partition("?")[0]
    if bare != "/v1/chat/completions":
        raise _no_endpoint("azure-deployment", path)
    deployment = _model_name(body, "azure-deployment")
    version = quote(params["api_version"], safe="-._~")
    return f"/openai/deployments/{deployment}/chat/completions?api-version={version}", body, headers


LAYOUTS: dict[str, _Layout] = {
    "vertex-google": _vertex_google,
    "vertex-anthropic": _vertex_anthropic,
    "azure-deployment": _azure_deployment,
}
"""Layout name -> the function moving a format's request to the provider's address."""


def layout_params(
    layout: str | None, given: Mapping[str, str | None], env: Mapping[str, str], *, source: str
) -> dict[str, str]:
    """The layout's parameters: given, else from the environment, else the default.

    Args:
        layout: the layout (``None``: no parameters).
        given: values passed by the caller (``None``: not given).
        env: the environment.
        source: who needs them, for the message (``"provider 'vertex-gemini'"``).

    Raises:
        ToolwireError: a parameter without a default is neither given nor set, or one was given
            that the layout does not take.
    """
    wanted = PARAMS.get(layout or "", {})
    for name, value in given.items():
        if value is not None and name not in wanted:
            raise ToolwireError(f"{source} takes no {name}")
    out: dict[str, str] = {}
    for name, (default, variables) in wanted.items():
        value = given.get(name) or next((env[v] for v in variables if env.get(v)), None) or default
        if not value:
            where = " or ".join(f"${v}" for v in variables)
            raise ToolwireError(f"{source} needs a {name}: pass {name}= or set {where}")
        out[name] = value
    return out


def layout_base_url(template: str, params: Mapping[str, str]) -> str:
    """A default base URL with its ``{location}`` filled in (``global``: the host without one)."""
    if "{location}" not in template:
        return template
    location = params.get("location", "")
    if location == "global":
        return template.replace("{location}-", "")
    return template.replace("{location}", location)


def apply_layout(
    layout: str, path: str, body: _Body, headers: Mapping[str, str], params: Mapping[str, str]
) -> tuple[str, _Body, dict[str, str]]:
    """``(path, body, headers)`` of a format's request, moved to ``layout``'s address.

    Raises:
        ToolwireError: the provider has no endpoint for ``path``.
        PayloadError: the request lacks what the path needs (the model).
    """
    return LAYOUTS[layout](path, body, dict(headers), params)


def relayout(
    layout: str, path: str, headers: Mapping[str, str], body: bytes, params: Mapping[str, str]
) -> tuple[str, dict[str, str], bytes]:
    """:func:`apply_layout` on a call whose body is bytes (the hop's); the body is re-encoded
    only when the layout changed it."""
    payload = loads(body) if body else None
    given = payload if isinstance(payload, dict) else None
    moved, out, kept = apply_layout(layout, path, given, headers, params)
    return moved, kept, body if out is None or out == payload else dumps(out)
