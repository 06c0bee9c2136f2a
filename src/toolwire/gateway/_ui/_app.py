"""The ``/ui`` pages as a small ASGI app the gateway mounts (the shell: reads, routes, sends).

=======================  ======  ==========================================================
path                     method  answer
=======================  ======  ==========================================================
``/ui``                  GET     the list of recent traces (filters: see ``_list``)
``/ui/trace/<id>``       GET     one trace's page
``/ui/api/traces``       GET     JSON: summaries and rows newer than ``after`` (live updates)
``/ui/login``            GET     the login form (only when the gateway has keys)
``/ui/login``            POST    form field ``key``: sets the session cookie, 303 to ``next``
``/ui/logout``           POST    clears the cookie
``/ui/static/<file>``    GET     ``ui.css``, ``ui.js`` (no key needed)
=======================  ======  ==========================================================

Every page but the login form and the static files needs a gateway key when the gateway has
keys (:mod:`._auth`): a browser is sent to the login form, an API call gets a 401. With tracing
off every page says so. Pages are sent with a strict Content-Security-Policy, ``no-store`` and
``nosniff``.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, MutableMapping
from importlib import resources
from typing import Any, Protocol
from urllib.parse import parse_qs, quote, unquote

from toolwire.errors import ToolwireError
from toolwire.gateway._body import BodyTooLarge, ClientGone, read_body
from toolwire.gateway._ui._auth import UiAuth, clear_cookie
from toolwire.gateway._ui._detail import detail_page
from toolwire.gateway._ui._html import CSP
from toolwire.gateway._ui._list import PAGE_SIZE, api_body, list_page, newer_than, parse_filters
from toolwire.gateway._ui._pages import login_page, message_page, off_page, safe_next
from toolwire.hop._config import GatewayKey
from toolwire.trace import TraceQuery, TraceRecord, TraceSummary

__all__ = ["TraceSource", "TraceUI"]

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

_FORM_LIMIT = 8192
_STATIC = {"ui.css": "text/css; charset=utf-8", "ui.js": "text/javascript; charset=utf-8"}
_HTML = "text/html; charset=utf-8"
_JSON = "application/json"


class TraceSource(Protocol):
    """Where the pages read traces (the gateway's store)."""

    async def get_trace(self, trace_id: str) -> TraceRecord | None: ...

    async def list_traces(self, query: TraceQuery) -> list[TraceSummary]: ...


class _Answer:
    __slots__ = ("body", "headers", "status")

    def __init__(self, status: int, body: str | bytes, content_type: str = _HTML, **headers: str) -> None:
        self.status = status
        self.body = body.encode() if isinstance(body, str) else body
        self.headers = {"content-type": content_type, **{k.replace("_", "-"): v for k, v in headers.items()}}


def _redirect(location: str, **headers: str) -> _Answer:
    return _Answer(303, b"", "text/plain", location=location, **headers)


class TraceUI:
    """The pages (see the module docstring).

    Args:
        keys: the gateway's keys (empty: the pages are open).
        source: where traces are read; ``None``: tracing is off.
        clock: the current time, unix seconds (session expiry).
    """

    def __init__(
        self,
        keys: tuple[GatewayKey, ...],
        source: TraceSource | None,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.auth = UiAuth(keys, clock=clock)
        self.source = source

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        answer = await self._answer(scope, receive)
        headers = {
            **answer.headers,
            "content-length": str(len(answer.body)),
            "x-content-type-options": "nosniff",
            "referrer-policy": "no-referrer",
        }
        if answer.headers["content-type"] == _HTML:
            headers |= {"content-security-policy": CSP, "cache-control": "no-store"}
        raw = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]
        await send({"type": "http.response.start", "status": answer.status, "headers": raw})
        await send({"type": "http.response.body", "body": answer.body, "more_body": False})

    async def _answer(self, scope: Scope, receive: Receive) -> _Answer:
        method, path = scope["method"], scope["path"].rstrip("/") or "/"
        if path.startswith("/ui/static/"):
            return _static(path.removeprefix("/ui/static/"))
        if path == "/ui/login":
            return await self._login(scope, receive) if method == "POST" else self._login_form(scope)
        if path == "/ui/logout" and method == "POST":
            return _redirect("/ui/login", set_cookie=clear_cookie(secure=_secure(scope)))
        if method != "GET":
            refused = message_page("Method not allowed", "These pages are read with GET.")
            return _Answer(405, refused, allow="GET")
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        if not self.auth.allowed(headers):
            return _refused(scope, path)
        try:
            return await self._page(scope, path)
        except ToolwireError:  # the store failed: say so, keep the details in the store's own logs
            return _Answer(503, message_page("Traces unavailable", "The trace store could not be read."))

    async def _page(self, scope: Scope, path: str) -> _Answer:
        query = scope.get("query_string", b"").decode("latin-1")
        if self.source is None:
            if path.startswith("/ui/api/"):
                return _Answer(404, b'{"error":"tracing is off"}', _JSON)
            return _Answer(200, off_page())
        if path == "/ui":
            filters = parse_filters(query)
            found = await self.source.list_traces(filters.query())
            return _Answer(200, list_page(found, filters, signed_in=not self.auth.open))
        if path == "/ui/api/traces":
            filters = parse_filters(query)
            found = await self.source.list_traces(filters.query(PAGE_SIZE))
            return _Answer(200, api_body(newer_than(found, filters.after)), _JSON)
        if path.startswith("/ui/trace/"):
            record = await self.source.get_trace(unquote(path.removeprefix("/ui/trace/")))
            if record is not None:
                return _Answer(200, detail_page(record, signed_in=not self.auth.open))
            gone = message_page("Trace not found", "No trace has that id (it may have been pruned).")
            return _Answer(404, gone)
        return _Answer(404, message_page("Not found", "There is no such page."))

    def _login_form(self, scope: Scope) -> _Answer:
        if self.auth.open:
            return _redirect("/ui")
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        return _Answer(200, login_page(query.get("next", ["/ui"])[-1], failed=False))

    async def _login(self, scope: Scope, receive: Receive) -> _Answer:
        body = await _read_form(receive)
        form = parse_qs(body.decode("utf-8", "replace")) if body is not None else {}
        next_url = safe_next(form.get("next", ["/ui"])[-1])
        key = self.auth.known(form.get("key", [""])[-1]) if not self.auth.open else None
        if key is None:
            return _Answer(401, login_page(next_url, failed=not self.auth.open))
        return _redirect(next_url, set_cookie=self.auth.set_cookie(key, secure=_secure(scope)))


def _refused(scope: Scope, path: str) -> _Answer:
    if path.startswith("/ui/api/"):
        return _Answer(401, b'{"error":"a gateway key is required"}', _JSON, www_authenticate="Bearer")
    query = scope.get("query_string", b"").decode("latin-1")
    here = scope["path"] + (f"?{query}" if query else "")
    return _redirect("/ui/login?next=" + quote(safe_next(here), safe=""))


def _secure(scope: Scope) -> bool:
    return scope.get("scheme") == "https"


def _static(name: str) -> _Answer:
    content_type = _STATIC.get(name)
    if content_type is None:
        return _Answer(404, message_page("Not found", "There is no such file."))
    body = resources.files("toolwire.gateway._ui").joinpath("static", name).read_bytes()
    return _Answer(200, body, content_type, cache_control="max-age=300")


async def _read_form(receive: Receive) -> bytes | None:
    """The request body, or ``None`` when it is larger than a login form can be."""
    try:
        return await read_body(receive, _FORM_LIMIT)
    except (BodyTooLarge, ClientGone):
        return None
