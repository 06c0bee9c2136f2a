"""The /ui pages in a real headless Chromium, served by the real gateway behind its key.

The gateway runs over loopback in front of the emulator; the openai SDK runs a cross-format tool
loop through it (Anthropic upstream), and the traces the pages show are in the gateway's store.
The test signs in through the form, reads the list (and sees a new trace arrive without a
reload), filters it, opens a call's page (both payloads, the notes table, a note's highlights)
and a stream's timeline, and saves a screenshot of each view in light and dark
(``$TOOLWIRE_SCREENSHOTS``, default: ``build/screenshots/``, not committed).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import httpx
import openai
import pytest

from tests.emulator.tools import chat_tools, result_for
from tests.gateway.shells import ENV, GATEWAY_KEY, gateway_config
from tests.gateway.ui.browser import WAIT, Browser, browser  # noqa: F401  (the fixture)
from tests.gateway.ui.samples import HOSTILE
from toolwire.emulator import serve
from toolwire.gateway import GatewayApp, TraceConfig
from toolwire.store import open_store
from toolwire.trace import TraceQuery, TraceRecord, TraceSummary

LIGHT_BG, DARK_BG = "rgb(255, 255, 255)", "rgb(13, 17, 23)"
QUESTION = "What is the weather in Paris?"


@dataclass
class Site:
    """The traced gateway: its URL, the app (for its trace counter) and its store's URL."""

    url: str
    app: GatewayApp
    store_url: str

    def written(self, count: int) -> None:
        """Wait until the gateway's background writer has kept ``count`` traces."""
        deadline = time.monotonic() + WAIT * 2
        while self.app.metrics.traces["written"] < count and time.monotonic() < deadline:
            time.sleep(0.02)
        assert self.app.metrics.traces["written"] >= count, dict(self.app.metrics.traces)

    def summaries(self) -> list[TraceSummary]:
        return asyncio.run(self._read(lambda store: store.list_traces(TraceQuery(limit=200))))

    def record(self, trace_id: str) -> TraceRecord:
        found = asyncio.run(self._read(lambda store: store.get_trace(trace_id)))
        assert found is not None
        return found

    async def _read(self, step: Any) -> Any:
        store = await open_store(self.store_url)
        try:
            return await step(store)
        finally:
            await store.aclose()


def _client(url: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{url}/v1", api_key=GATEWAY_KEY, max_retries=0, timeout=60)


def _turn(client: openai.OpenAI, messages: list[Any], *, stream: bool, **ask: Any) -> Any:
    if not stream:
        return client.chat.completions.create(messages=messages, **ask).choices[0].message
    with client.chat.completions.stream(messages=messages, **ask) as events:
        for _event in events:
            pass
        return events.get_final_completion().choices[0].message


def _tool_loop(url: str, model: str, *, stream: bool, **extra: Any) -> str:
    """The openai SDK through the gateway to an emulated upstream: call, run the tool, answer."""
    client = _client(url)
    messages: list[Any] = [{"role": "user", "content": QUESTION}]
    for _ in range(2):
        message = _turn(client, messages, stream=stream, model=model, tools=chat_tools(), **extra)
        if not message.tool_calls:
            return str(message.content or "")
        messages.append({"role": "assistant", "tool_calls": [c.model_dump() for c in message.tool_calls]})
        messages += [
            {"role": "tool", "tool_call_id": c.id, "content": result_for(c.function.name)}
            for c in message.tool_calls
        ]
    raise AssertionError("the tool loop did not end")


@pytest.fixture(scope="module")
def site(emulator_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The gateway with tracing on (SQLite store) after a tool loop to Anthropic, whole (with a
    field Anthropic lacks: a loss note) and streamed: four traces."""
    store_url = f"sqlite://{tmp_path_factory.mktemp('ui') / 'traces.db'}"
    config = replace(gateway_config(emulator_url), store=store_url, trace=TraceConfig(enabled=True))
    app = GatewayApp(config, env=ENV)
    with serve(app=app, log_level="critical") as url:
        site = Site(url, app, store_url)
        assert "21" in _tool_loop(url, "to-anthropic", stream=False, seed=7)
        assert "21" in _tool_loop(url, "to-anthropic", stream=True)
        site.written(4)
        yield site


def _first(site: Site, *, stream: bool) -> TraceSummary:
    """The first call of the whole (or streamed) tool loop: the one that asked for the tool."""
    mine = [s for s in site.summaries() if s.stream == stream and s.client_model == "to-anthropic"]
    return min(mine, key=lambda s: s.created_at)


def _ids(b: Browser) -> list[str]:
    return [row.get_attribute("data-id") for row in b.find_all("#rows tr")]


def _sign_in(b: Browser, site: Site) -> None:
    b.get(site.url + "/ui")
    if "/ui/login" in b.driver.current_url:
        field = b.find("#key")
        assert b.find("label[for=key]").text == "Gateway key"
        field.send_keys(GATEWAY_KEY)
        field.submit()
    b.wait(lambda: b.driver.current_url.rstrip("/").endswith("/ui"), "signed in to the list")
    assert GATEWAY_KEY not in b.driver.page_source


def test_the_list_needs_the_key_then_shows_each_call(browser: Browser, site: Site) -> None:  # noqa: F811
    browser.get(site.url + "/ui")
    assert "/ui/login" in browser.driver.current_url
    browser.find("#key").send_keys("not-the-key")
    browser.find("#key").submit()
    browser.wait(lambda: browser.find_all("#login-error"), "the refusal")
    assert "not-the-key" not in browser.driver.page_source
    _sign_in(browser, site)
    summaries = site.summaries()
    assert len(summaries) >= 4 and set(_ids(browser)) >= {s.id for s in summaries[:4]}
    row = browser.find(f'tr[data-id="{_first(site, stream=True).id}"]')
    assert "openai-chat → anthropic" in row.text and "to-anthropic → claude-sonnet-4-5" in row.text
    assert "stream" in row.text and "200" in row.text and "loss)" in row.text
    for dark in (False, True):
        browser.scheme(dark)
        browser.get(site.url + "/ui")
        assert browser.style(browser.find("body"), "background-color") == (DARK_BG if dark else LIGHT_BG)
        assert browser.screenshot(f"list-{'dark' if dark else 'light'}").stat().st_size > 10_000
    browser.scheme(False)


def test_new_traces_appear_without_a_reload(browser: Browser, site: Site) -> None:  # noqa: F811
    _sign_in(browser, site)
    browser.driver.execute_script("window.sameDocument = true")
    before = len(site.summaries())
    assert "21" in _tool_loop(site.url, "to-gemini", stream=False)
    faulty = {"model": "to-faulty", "messages": [{"role": "user", "content": "hi"}]}
    reply = httpx.post(f"{site.url}/v1/chat/completions", json=faulty, headers=_auth(), timeout=60)
    assert reply.status_code == 429
    site.written(before + 3)
    newest = [s.id for s in site.summaries()[:3]]
    browser.wait(lambda: _ids(browser)[:3] == newest, "the three new rows on top, newest first")
    assert browser.driver.execute_script("return window.sameDocument") is True
    assert browser.find("#live-status").text.endswith(("new trace", "new traces"))
    assert "429" in browser.find(f'tr[data-id="{newest[0]}"]').text


def _auth() -> dict[str, str]:
    return {"authorization": f"Bearer {GATEWAY_KEY}"}


def test_filters_narrow_the_list(browser: Browser, site: Site) -> None:  # noqa: F811
    from selenium.webdriver.support.ui import Select

    _sign_in(browser, site)
    everything = site.summaries()
    Select(browser.find("#f-pair")).select_by_value("openai-chat->gemini")
    browser.find("#f-pair").submit()
    browser.wait(lambda: "pair=openai-chat-%3Egemini" in browser.driver.current_url, "the pair filter")
    gemini = [s.id for s in everything if s.upstream_format == "gemini"]
    assert len(gemini) == 2 and _ids(browser) == gemini
    assert (
        Select(browser.find("#f-pair")).first_selected_option.get_attribute("value") == "openai-chat->gemini"
    )
    browser.get(site.url + "/ui")
    browser.find("#f-status").send_keys("4xx")
    browser.find("#f-status").submit()
    browser.wait(lambda: "status=4xx" in browser.driver.current_url, "the status filter")
    failed = [s.id for s in everything if 400 <= s.status < 500]  # the 429, the browser's favicon.ico
    assert _ids(browser) == failed and any(s.status == 429 for s in everything if s.id in failed)
    browser.get(site.url + "/ui")
    browser.find("#f-model").send_keys("to-anthropic")
    Select(browser.find("#f-loss")).select_by_visible_text("yes")
    browser.find("#f-model").submit()
    browser.wait(lambda: "loss=yes" in browser.driver.current_url, "the model and loss filters")
    wanted = [s.id for s in everything if s.client_model == "to-anthropic" and s.loss_notes]
    assert len(wanted) == 4 and _ids(browser) == wanted
    assert all("loss)" in row.text for row in browser.find_all("#rows tr"))
    browser.get(site.url + "/ui?loss=no")
    assert _ids(browser) == [s.id for s in everything if not s.loss_notes]
    browser.get(site.url + "/ui?status=nonsense")
    assert "status filter is off" in browser.find("[role=alert]").text
    assert len(_ids(browser)) == len(everything)


def test_a_call_page_shows_both_payloads_and_highlights_a_note(browser: Browser, site: Site) -> None:  # noqa: F811
    first = _first(site, stream=False)
    item = site.record(first.id)
    _sign_in(browser, site)
    browser.find(f'tr[data-id="{first.id}"] a').click()
    browser.wait(lambda: f"/ui/trace/{first.id}" in browser.driver.current_url, "the trace page")
    assert browser.find("h1").text == f"Trace {first.id}"
    texts = {pre.get_attribute("data-side"): pre.text for pre in browser.find_all("pre")}
    for side in ("client_request", "upstream_request", "upstream_response", "client_response"):
        assert json.loads(texts[side]) == json.loads(getattr(item, side).text)
    assert json.loads(texts["client_request"])["seed"] == 7 and "seed" not in json.loads(
        texts["upstream_request"]
    )
    rows = browser.find_all("table.notes tbody tr")
    assert len(rows) == len(item.notes)
    seed = next(r for r in rows if "$.seed" in r.text)
    assert "dropped" in seed.text and "loss" in seed.text
    number = seed.get_attribute("data-note")
    seed.find_element("css selector", "a.note-link").click()
    active = browser.find_all("mark.active")
    assert [m.text for m in active] == ['"seed": 7']
    assert browser.find(f"#note-{number}").get_attribute("class") == "active"
    assert browser.driver.current_url.endswith("#" + active[0].get_attribute("id"))
    idle = browser.find_all('pre[data-side="upstream_request"] mark.hl')
    assert idle and browser.style(active[0], "background-color") != browser.style(idle[0], "background-color")
    max_tokens = next(r for r in rows if "$.max_tokens" in r.text)
    max_tokens.find_elements("css selector", "a.note-link")[-1].click()
    assert [m.text for m in browser.find_all('pre[data-side="upstream_request"] mark.active')] == [
        '"max_tokens": 4096'
    ]
    for dark in (False, True):
        browser.scheme(dark)
        browser.driver.refresh()
        browser.screenshot(f"detail-{'dark' if dark else 'light'}")
    browser.scheme(False)


def test_a_stream_page_shows_its_timeline(browser: Browser, site: Site) -> None:  # noqa: F811
    first = _first(site, stream=True)
    _sign_in(browser, site)
    browser.get(f"{site.url}/ui/trace/{first.id}")
    items = [li.text.split(" ms ", 1) for li in browser.find_all("ol.timeline li")]
    said = [what for _, what in items]
    for side in ("upstream", "client"):
        assert said.index(f"{side}: first byte") < said.index(f"{side}: tool call 0 starts")
        assert said.index(f"{side}: tool call 0 starts") <= said.index(f"{side}: tool call 0 ends")
        assert said.index(f"{side}: tool call 0 ends") <= len(said) - 1 - said[::-1].index(
            f"{side}: end of stream"
        )
    times = [float(t) for t, _ in items]
    assert times == sorted(times) and times[-1] > 0
    chart = browser.find("svg.chart")
    assert chart.is_displayed() and chart.get_attribute("role") == "img"
    assert len(browser.find_all("svg.chart rect.bar")) == 2  # tool call 0, upstream and client
    assert "Streamed: see the stream timeline" in browser.find('section[aria-labelledby="h-responses"]').text
    for dark in (False, True):
        browser.scheme(dark)
        browser.driver.refresh()
        section = browser.find('section[aria-labelledby="h-timeline"]')
        browser.driver.execute_script("arguments[0].scrollIntoView()", section)
        path = browser.shots / f"timeline-{'dark' if dark else 'light'}.png"
        section.screenshot(str(path))
        assert path.stat().st_size > 5_000
        browser.screenshot(f"stream-{'dark' if dark else 'light'}")
    browser.scheme(False)


def test_hostile_text_in_a_tool_argument_stays_text(browser: Browser, site: Site) -> None:  # noqa: F811
    before = len(site.summaries())
    call = {
        "id": "call_1",
        "type": "function",
        "function": {"name": "get_weather", "arguments": json.dumps({"city": HOSTILE})},
    }
    messages = [
        {"role": "user", "content": QUESTION},
        {"role": "assistant", "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "call_1", "content": HOSTILE},
    ]
    _turn(_client(site.url), messages, stream=False, model="to-anthropic", tools=chat_tools())
    site.written(before + 1)
    newest = site.summaries()[0]
    _sign_in(browser, site)
    browser.get(f"{site.url}/ui/trace/{newest.id}")
    shown = json.loads(browser.find('pre[data-side="client_request"]').text)
    assert shown["messages"][1]["tool_calls"][0]["function"]["arguments"] == json.dumps({"city": HOSTILE})
    assert shown["messages"][2]["content"] == HOSTILE
    upstream = json.loads(browser.find('pre[data-side="upstream_request"]').text)
    assert upstream["messages"][1]["content"][0]["input"] == {"city": HOSTILE}
    assert browser.find_all("img") == []
    assert browser.driver.execute_script("return document.scripts.length") == 1


CONTRAST = """
function rgb(text) { return text.match(/[0-9.]+/g).slice(0, 4).map(Number); }
function lum(c) {
  var v = c.slice(0, 3).map(function (x) {
    x /= 255;
    return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4);
  });
  return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
}
function background(el) {
  for (; el; el = el.parentElement) {
    var c = rgb(getComputedStyle(el).backgroundColor);
    if (c.length < 4 || c[3] > 0) return c;
  }
  return rgb(getComputedStyle(document.body).backgroundColor);
}
var worst = [];
document.querySelectorAll(arguments[0]).forEach(function (el) {
  var a = lum(rgb(getComputedStyle(el).color)), b = lum(background(el));
  var ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  worst.push([el.tagName + "." + el.className, Math.round(ratio * 100) / 100]);
});
return worst;
"""
"""Each element's text contrast against the first opaque background behind it (WCAG formula)."""

TEXT = (
    "h1, h2, h3, th, td, dt, dd, p, label, a, code, mark, .muted, .loss, .ok, .bad, .side, li span, summary"
)


def test_text_contrast_is_at_least_4_5_in_light_and_dark(browser: Browser, site: Site) -> None:  # noqa: F811
    _sign_in(browser, site)
    pages = [site.url + "/ui", f"{site.url}/ui/trace/{_first(site, stream=False).id}"]
    pages.append(f"{site.url}/ui/trace/{_first(site, stream=True).id}")
    for dark in (False, True):
        browser.scheme(dark)
        for url in pages:
            browser.get(url)
            ratios = browser.driver.execute_script(CONTRAST, TEXT)
            assert len(ratios) > 20
            low = [r for r in ratios if r[1] < 4.5]
            assert not low, (dark, url, low[:5])
    browser.scheme(False)


def test_keyboard_focus_is_visible(browser: Browser, site: Site) -> None:  # noqa: F811
    from selenium.webdriver.common.keys import Keys

    _sign_in(browser, site)
    browser.find("body").send_keys(Keys.TAB)
    skip = browser.driver.switch_to.active_element
    assert skip.text == "Skip to content"
    assert browser.style(skip, "outline-style") == "solid"
    assert [e.get_attribute("aria-label") for e in browser.find_all("nav, form[role=search]")] == [
        "Site",
        "Filter traces",
    ]


def test_sign_out_ends_the_session(browser: Browser, site: Site) -> None:  # noqa: F811
    _sign_in(browser, site)
    browser.find(".signout button").click()
    browser.wait(lambda: "/ui/login" in browser.driver.current_url, "the login form")
    browser.get(site.url + "/ui")
    assert "/ui/login" in browser.driver.current_url
    _sign_in(browser, site)
