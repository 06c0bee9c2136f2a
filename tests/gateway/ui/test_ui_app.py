"""The /ui shell: key check and login cookie, tracing off, the JSON endpoint, headers, errors."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import httpx

from tests.gateway.shells import ENV, GATEWAY_KEY, UPSTREAM_KEY, gateway_config
from tests.gateway.ui.samples import record, stream_record
from toolwire.gateway import GatewayApp, GatewayKey, HopConfig, TraceConfig
from toolwire.gateway._ui import TraceUI
from toolwire.gateway._ui._auth import SESSION_SECONDS, UiAuth
from toolwire.store.base import StoreError
from toolwire.store.memory import MemoryStore
from toolwire.trace import TraceQuery, TraceRecord, TraceSummary

KEY = "gw-ui-key-0001"
OTHER = "gw-ui-key-0002"


def _store(*records: TraceRecord) -> MemoryStore:
    store = MemoryStore()
    for item in records:
        asyncio.run(store.put_trace(item))
    return store


def _call(app: Any, method: str, url: str, **kwargs: Any) -> httpx.Response:
    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://gw.test") as http:
            return await http.request(method, url, **kwargs)

    return asyncio.run(go())


def _ui(keys: tuple[GatewayKey, ...] = (GatewayKey(KEY), GatewayKey(OTHER)), **kw: Any) -> TraceUI:
    return TraceUI(keys, _store(record("t1"), stream_record("t2")), **kw)


def test_an_open_gateway_shows_the_list_with_strict_headers() -> None:
    reply = _call(_ui(()), "GET", "/ui")
    assert reply.status_code == 200
    assert reply.headers["content-type"] == "text/html; charset=utf-8"
    assert "script-src 'self'" in reply.headers["content-security-policy"]
    assert "default-src 'none'" in reply.headers["content-security-policy"]
    assert reply.headers["x-content-type-options"] == "nosniff"
    assert reply.headers["cache-control"] == "no-store"
    assert reply.text.index('data-id="t2"') < reply.text.index('data-id="t1"')  # newest first
    assert _call(_ui(()), "GET", "/ui/login").headers["location"] == "/ui"


def test_without_a_key_a_browser_is_sent_to_the_login_form_and_the_api_gets_401() -> None:
    ui = _ui()
    reply = _call(ui, "GET", "/ui/trace/t1?x=1")
    assert reply.status_code == 303
    assert reply.headers["location"] == "/ui/login?next=%2Fui%2Ftrace%2Ft1%3Fx%3D1"
    api = _call(ui, "GET", "/ui/api/traces")
    assert api.status_code == 401 and api.json() == {"error": "a gateway key is required"}
    form = _call(ui, "GET", reply.headers["location"])
    assert form.status_code == 200 and 'name="next" value="/ui/trace/t1?x=1"' in form.text


def test_login_sets_a_signed_httponly_strict_cookie_that_opens_the_pages() -> None:
    ui = _ui()
    reply = _call(ui, "POST", "/ui/login", data={"key": OTHER, "next": "/ui/trace/t2"})
    assert reply.status_code == 303 and reply.headers["location"] == "/ui/trace/t2"
    cookie = reply.headers["set-cookie"]
    assert cookie.startswith("toolwire_ui=")
    for flag in ("HttpOnly", "SameSite=Strict", "Path=/ui", f"Max-Age={SESSION_SECONDS}"):
        assert flag in cookie
    assert OTHER not in cookie and "Secure" not in cookie
    token = cookie.split(";")[0]
    page = _call(ui, "GET", "/ui/trace/t2", headers={"cookie": token})
    assert page.status_code == 200 and "Stream timeline" in page.text
    assert _call(ui, "GET", "/ui/api/traces", headers={"cookie": token}).status_code == 200
    forged = token[:-1] + ("0" if token[-1] != "0" else "1")
    assert _call(ui, "GET", "/ui", headers={"cookie": forged}).status_code == 303


def test_a_wrong_key_is_refused_and_never_written_back() -> None:
    reply = _call(_ui(), "POST", "/ui/login", data={"key": "guess-123", "next": "//evil.example"})
    assert reply.status_code == 401
    assert "guess-123" not in reply.text and "set-cookie" not in reply.headers
    assert 'value="/ui"' in reply.text and "not one of this gateway" in reply.text
    assert _call(_ui(), "POST", "/ui/login", content=b"key=" + b"x" * 9000).status_code == 401


def test_api_callers_may_show_the_key_as_the_api_takes_it() -> None:
    ui = _ui()
    for headers in ({"authorization": f"Bearer {KEY}"}, {"x-api-key": OTHER}, {"x-goog-api-key": KEY}):
        reply = _call(ui, "GET", "/ui/api/traces", headers=headers)
        assert reply.status_code == 200
        assert [t["id"] for t in reply.json()["traces"]] == ["t2", "t1"]
    assert _call(ui, "GET", "/ui/api/traces", headers={"authorization": "Bearer nope"}).status_code == 401


def test_sessions_expire_and_end_with_their_key() -> None:
    now = [1000.0]

    def clock() -> float:
        return now[0]

    auth = UiAuth((GatewayKey(KEY),), clock=clock)
    cookie = {"cookie": "a=1; toolwire_ui=" + auth.token(KEY)}
    assert auth.allowed(cookie)
    now[0] += SESSION_SECONDS + 1
    assert not auth.allowed(cookie)
    now[0] = 1000.0
    assert not UiAuth((GatewayKey(OTHER),), clock=clock).allowed(cookie)  # the key was removed


def test_logout_clears_the_cookie() -> None:
    reply = _call(_ui(), "POST", "/ui/logout")
    assert reply.status_code == 303 and "toolwire_ui=;" in reply.headers["set-cookie"]
    assert "Max-Age=0" in reply.headers["set-cookie"]


def test_the_api_returns_only_traces_newer_than_after_with_their_rows() -> None:
    ui = _ui(())
    body = _call(ui, "GET", "/ui/api/traces?after=t1").json()
    assert [t["id"] for t in body["traces"]] == ["t2"]
    assert body["rows"].startswith('<tr data-id="t2">')
    assert _call(ui, "GET", "/ui/api/traces?after=t2").json() == {"traces": [], "rows": ""}
    filtered = _call(ui, "GET", "/ui/api/traces?model=nobody").json()
    assert filtered["traces"] == []


def test_tracing_off_says_so_on_every_page() -> None:
    ui = TraceUI((), None)
    for path in ("/ui", "/ui/", "/ui/trace/t1"):
        reply = _call(ui, "GET", path)
        assert reply.status_code == 200 and "<h1>Tracing is off</h1>" in reply.text
    api = _call(ui, "GET", "/ui/api/traces")
    assert api.status_code == 404 and api.json() == {"error": "tracing is off"}


def test_static_files_unknown_pages_and_methods() -> None:
    ui = _ui(())
    css = _call(ui, "GET", "/ui/static/ui.css")
    assert css.status_code == 200 and css.headers["content-type"] == "text/css; charset=utf-8"
    assert "prefers-color-scheme: dark" in css.text
    js = _call(ui, "GET", "/ui/static/ui.js")
    assert js.status_code == 200 and "/ui/api/traces" not in js.text and "data-api" in js.text
    assert _call(ui, "GET", "/ui/static/../app.py").status_code == 404
    assert _call(ui, "GET", "/ui/trace/missing").status_code == 404
    assert "Trace not found" in _call(ui, "GET", "/ui/trace/missing").text
    assert _call(ui, "GET", "/ui/nothing").status_code == 404
    assert _call(ui, "DELETE", "/ui").status_code == 405


class _Broken:
    async def get_trace(self, trace_id: str) -> TraceRecord | None:
        raise StoreError("backend down at redis://:secret@host")

    async def list_traces(self, query: TraceQuery) -> list[TraceSummary]:
        raise StoreError("backend down at redis://:secret@host")


def test_a_failing_store_is_a_503_page_without_its_details() -> None:
    reply = _call(TraceUI((), _Broken()), "GET", "/ui")
    assert reply.status_code == 503 and "could not be read" in reply.text and "secret" not in reply.text


def test_the_gateway_serves_ui_behind_its_keys() -> None:
    app = GatewayApp(HopConfig({}, keys=(GatewayKey(KEY),)))
    assert _call(app, "GET", "/ui").status_code == 303
    app.ui.source = _store(record("t1"))
    reply = _call(app, "GET", "/ui", headers={"authorization": f"Bearer {KEY}"})
    assert reply.status_code == 200 and 'data-id="t1"' in reply.text
    assert _call(app, "GET", "/healthz").status_code == 200


def test_a_traced_call_is_on_the_gateways_pages(emulator_url: str) -> None:
    config = replace(gateway_config(emulator_url), store="memory://", trace=TraceConfig(enabled=True))
    app = GatewayApp(config, env=ENV)
    ask = {"model": "to-anthropic", "seed": 3, "messages": [{"role": "user", "content": "hi"}]}
    auth = {"authorization": f"Bearer {GATEWAY_KEY}"}

    async def go() -> tuple[httpx.Response, httpx.Response, httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://gw.test", timeout=60) as http:
            call = await http.post("/v1/chat/completions", json=ask, headers=auth)
            assert call.status_code == 200
            assert app.tracer is not None
            await app.tracer.flush()
            listed = await http.get("/ui/api/traces", headers=auth)
            trace_id = listed.json()["traces"][0]["id"]
            page = await http.get(f"/ui/trace/{trace_id}", headers=auth)
            await app.aclose()
            return call, listed, page

    call, listed, page = asyncio.run(go())
    [summary] = listed.json()["traces"]
    assert summary["client_format"] == "openai-chat" and summary["upstream_format"] == "anthropic"
    assert (summary["client_model"], summary["upstream_model"], call.status_code) == (
        "to-anthropic",
        "claude-sonnet-4-5",
        200,
    )
    assert page.status_code == 200
    assert "<code>$.seed</code>" in page.text and "&quot;seed&quot;: 3</mark>" in page.text
    assert GATEWAY_KEY not in page.text and UPSTREAM_KEY not in page.text


def test_an_untraced_gateway_says_tracing_is_off() -> None:
    app = GatewayApp(HopConfig({}))
    reply = _call(app, "GET", "/ui")
    assert reply.status_code == 200 and "<h1>Tracing is off</h1>" in reply.text
    assert "toolwire serve --trace" in reply.text


def test_pages_of_fifty_with_an_older_link_and_a_sign_out_button_behind_keys() -> None:
    many = [record(f"t{i:02d}", created_at=1_790_000_000.0 + i) for i in range(60)]
    ui = TraceUI((GatewayKey(KEY),), _store(*many))
    auth = {"authorization": f"Bearer {KEY}"}
    first = _call(ui, "GET", "/ui?loss=yes", headers=auth).text
    assert first.count("<tr data-id=") == 50 and 'data-id="t59"' in first and 'data-id="t10"' in first
    assert 'href="/ui?loss=yes&amp;before=t10" rel="next"' in first
    assert '<form class="signout" method="post" action="/ui/logout">' in first
    second = _call(ui, "GET", "/ui?loss=yes&before=t10", headers=auth).text
    assert second.count("<tr data-id=") == 10 and 'data-id="t09"' in second and 'rel="next"' not in second
    assert 'id="live-toggle"' not in second  # an older page does not grow
    assert 'class="signout"' not in _call(_ui(()), "GET", "/ui").text
