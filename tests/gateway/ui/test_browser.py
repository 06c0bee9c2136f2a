"""The /ui pages in a real headless Chromium, served by the real gateway behind its key.

The gateway runs over loopback in front of the emulator; the openai SDK runs a cross-format tool
loop through it (Anthropic upstream), and the traces the pages show are in the gateway's store.
The test signs in through the form, reads the list (and sees a new trace arrive without a
reload), filters it, opens a call's page (both payloads, the notes table, a note's highlights)
and a stream's timeline, and saves a screenshot of each view in light and dark
(``$TOOLWIRE_SCREENSHOTS``, default: ``screenshots/`` in pytest's temporary folder).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import openai
import pytest

from tests.emulator.tools import chat_tools, result_for
from tests.gateway.shells import ENV, GATEWAY_KEY, gateway_config
from tests.gateway.ui.browser import Browser, browser  # noqa: F401  (the fixture)
from tests.gateway.ui.samples import HOSTILE, record, stream_record
from toolwire.emulator import serve
from toolwire.gateway import create_app
from toolwire.store.memory import MemoryStore
from toolwire.trace import TraceRecord

LIGHT_BG, DARK_BG = "rgb(255, 255, 255)", "rgb(13, 17, 23)"


@dataclass
class Site:
    url: str
    store: MemoryStore

    def put(self, item: TraceRecord) -> None:
        asyncio.run(self.store.put_trace(item))


def _tool_loop(url: str, *, stream: bool, **extra: Any) -> str:
    """The openai SDK through the gateway to the emulated Anthropic: call, run the tool, answer."""
    client = openai.OpenAI(base_url=f"{url}/v1", api_key=GATEWAY_KEY, max_retries=0, timeout=60)
    messages: list[Any] = [{"role": "user", "content": "What is the weather in Paris?"}]
    ask: dict[str, Any] = {"model": "to-anthropic", "tools": chat_tools(), **extra}
    for _ in range(2):
        if stream:
            with client.chat.completions.stream(messages=messages, **ask) as events:
                for _event in events:
                    pass
                message = events.get_final_completion().choices[0].message
        else:
            message = client.chat.completions.create(messages=messages, **ask).choices[0].message
        if not message.tool_calls:
            return message.content or ""
        messages.append({"role": "assistant", "tool_calls": [c.model_dump() for c in message.tool_calls]})
        messages += [
            {"role": "tool", "tool_call_id": c.id, "content": result_for(c.function.name)}
            for c in message.tool_calls
        ]
    raise AssertionError("the tool loop did not end")


@pytest.fixture(scope="module")
def site(emulator_url: str) -> Iterator[Site]:
    app = create_app(gateway_config(emulator_url), env=ENV)
    store = MemoryStore()
    app.ui.source = store
    with serve(app=app, log_level="critical") as url:
        site = Site(url, store)
        assert "21" in _tool_loop(url, stream=False, seed=7)
        assert "21" in _tool_loop(url, stream=True)
        site.put(record("req_plain"))
        site.put(stream_record("req_stream", notes=[]))
        yield site


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
    assert {"req_plain", "req_stream"} <= set(_ids(browser))
    row = browser.find('tr[data-id="req_stream"]')
    assert "openai-chat → anthropic" in row.text and "stream" in row.text and "200" in row.text
    for dark in (False, True):
        browser.scheme(dark)
        browser.get(site.url + "/ui")
        assert browser.style(browser.find("body"), "background-color") == (DARK_BG if dark else LIGHT_BG)
        assert browser.screenshot(f"list-{'dark' if dark else 'light'}").stat().st_size > 10_000
    browser.scheme(False)


def test_a_new_trace_appears_without_a_reload(browser: Browser, site: Site) -> None:  # noqa: F811
    _sign_in(browser, site)
    browser.driver.execute_script("window.__same_page = true")
    site.put(record("req_live", created_at=1_900_000_000.0, client_model="live-model"))
    browser.wait(lambda: _ids(browser)[:1] == ["req_live"], "the new row at the top")
    assert browser.find("#live-status").text == "1 new trace"
    assert browser.driver.execute_script("return window.__same_page") is True


def test_filters_narrow_the_list(browser: Browser, site: Site) -> None:  # noqa: F811
    from selenium.webdriver.support.ui import Select

    _sign_in(browser, site)
    Select(browser.find("#f-loss")).select_by_visible_text("no")
    browser.find("#f-loss").submit()
    browser.wait(lambda: "loss=no" in browser.driver.current_url, "the filtered list")
    assert "req_stream" in _ids(browser) and "req_plain" not in _ids(browser)
    assert Select(browser.find("#f-loss")).first_selected_option.text == "no"
    browser.find("#f-model").send_keys("live-model")
    Select(browser.find("#f-loss")).select_by_visible_text("yes")
    browser.find("#f-model").submit()
    browser.wait(lambda: "model=live-model" in browser.driver.current_url, "the model filter")
    assert _ids(browser) == ["req_live"]
    browser.get(site.url + "/ui?pair=gemini-%3Eanthropic")
    assert _ids(browser) == [] and browser.find("#empty").text == "No traces match."
    browser.get(site.url + "/ui?status=5xx")
    assert _ids(browser) == []
    browser.get(site.url + "/ui?status=2xx&pair=openai-chat-%3Eanthropic")
    assert {"req_plain", "req_stream", "req_live"} <= set(_ids(browser))


def test_a_call_page_shows_both_payloads_and_highlights_a_note(browser: Browser, site: Site) -> None:  # noqa: F811
    _sign_in(browser, site)
    browser.find('tr[data-id="req_plain"] a').click()
    browser.wait(lambda: "/ui/trace/req_plain" in browser.driver.current_url, "the trace page")
    texts = {pre.get_attribute("data-side"): pre.text for pre in browser.find_all("pre")}
    item = record("req_plain")
    for side in ("client_request", "upstream_request", "upstream_response", "client_response"):
        assert json.loads(texts[side]) == json.loads(getattr(item, side).text)
    rows = browser.find_all("table.notes tbody tr")
    assert [r.find_element("css selector", "td:nth-of-type(3)").text for r in rows] == ["loss", "info", "loss"]
    link = browser.find('a.note-link[data-note="2"]')
    link.click()
    active = browser.find_all("mark.active")
    assert sorted(m.text for m in active) == ['"system": "Be brief."', item_text_of_system(item)]
    assert all(m.get_attribute("data-notes") == "2" for m in active)
    assert browser.find("#note-2").get_attribute("class") == "active"
    hl = browser.style(browser.find('mark[data-notes="1"]'), "background-color")
    assert browser.style(active[0], "background-color") != hl
    for dark in (False, True):
        browser.scheme(dark)
        browser.driver.refresh()
        browser.screenshot(f"detail-{'dark' if dark else 'light'}")
    browser.scheme(False)


def item_text_of_system(item: TraceRecord) -> str:
    """The printed client system message (what note 2 points at), as the page shows it."""
    assert item.client_request is not None
    system = json.loads(item.client_request.text)["messages"][0]
    return json.dumps(system, indent=2).replace("\n", "\n    ")


def test_a_stream_page_shows_its_timeline(browser: Browser, site: Site) -> None:  # noqa: F811
    _sign_in(browser, site)
    browser.get(site.url + "/ui/trace/req_stream")
    items = [li.text for li in browser.find_all("ol.timeline li")]
    assert items[0] == "5.0 ms upstream: first byte"
    assert items[-1] == "15.5 ms client: end of stream"
    assert len(items) == 12
    chart = browser.find("svg.chart")
    assert chart.is_displayed() and chart.get_attribute("role") == "img"
    assert len(browser.find_all("svg.chart rect.bar")) == 4
    section = browser.find('section[aria-labelledby="h-timeline"]')
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


def test_hostile_text_in_a_trace_stays_text(browser: Browser, site: Site) -> None:  # noqa: F811
    arguments = json.dumps({"city": HOSTILE})
    hostile = record(
        "req_hostile",
        client_model=HOSTILE,
        error=HOSTILE,
        client_request=record("x").client_request.__class__(  # type: ignore[union-attr]
            text=json.dumps({"messages": [{"role": "assistant", "tool_calls": [
                {"id": "c", "type": "function", "function": {"name": "f", "arguments": arguments}}]}]}),
            size=10,
        ),
    )
    site.put(hostile)
    _sign_in(browser, site)
    browser.get(site.url + "/ui/trace/req_hostile")
    assert HOSTILE in browser.find('pre[data-side="client_request"]').text.replace('\\"', '"')
    assert browser.find_all("img") == []
    assert browser.driver.execute_script("return document.scripts.length") == 1
    browser.get(site.url + "/ui")
    assert browser.find_all("img") == []
    assert HOSTILE in browser.find('tr[data-id="req_hostile"]').text


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
