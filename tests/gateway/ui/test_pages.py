"""The /ui pages as HTML: everything from a trace is escaped, highlights land on the noted values."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

from tests.gateway.ui.samples import ANTHROPIC_REQUEST, CHAT_REQUEST, HOSTILE, body, record, stream_record
from toolwire.gateway._ui._detail import detail_page
from toolwire.gateway._ui._html import Mark, marked
from toolwire.gateway._ui._list import Filters, list_page, newer_than, parse_filters
from toolwire.gateway._ui._pages import login_page, off_page, safe_next
from toolwire.trace import TraceBody, TraceEvent, TraceNote, TraceQuery


class _Tags(HTMLParser):
    """Start tags with their attributes, and each element's text by id."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text_by_id: dict[str, str] = {}
        self._open: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._open.append((tag, dict(attrs).get("id")))
        for _, ident in self._open:
            if ident is not None:
                self.text_by_id.setdefault(ident, "")

    def handle_endtag(self, tag: str) -> None:
        while self._open and self._open.pop()[0] != tag:
            pass

    def handle_data(self, data: str) -> None:
        for _, ident in self._open:
            if ident is not None:
                self.text_by_id[ident] += data


def parse(page: str) -> _Tags:
    parser = _Tags()
    parser.feed(page)
    return parser


def _hostile_record():  # type: ignore[no-untyped-def]
    arguments = json.dumps({"city": HOSTILE})
    request = {
        **CHAT_REQUEST,
        "messages": [
            {
                "role": "assistant",
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": arguments},
                    }
                ],
            },
        ],
    }
    note = TraceNote(
        side="client_request",
        path="$.messages[0].tool_calls[0].function.arguments",
        kind=HOSTILE,
        message=HOSTILE,
        target_side="upstream_request",
        target=f'$["{HOSTILE}"]',
    )
    return record(
        f"req_{HOSTILE}",
        client_request=body(request),
        client_model=HOSTILE,
        upstream=HOSTILE,
        route=HOSTILE,
        error=HOSTILE,
        path=f"/v1/{HOSTILE}",
        client_response=TraceBody(text=HOSTILE, size=len(HOSTILE), content_type="text/html"),
        notes=[note],
        stream=True,
        events=[TraceEvent(t_ms=1.0, side="client_response", name=HOSTILE, kind="error", data=HOSTILE)],
    )


def _assert_inert(page: str) -> None:
    tags = parse(page).tags
    assert not [t for t, _ in tags if t == "img"]
    scripts = [a for t, a in tags if t == "script"]
    assert scripts in ([], [{"src": "/ui/static/ui.js", "defer": None}])
    assert not [a for _, a in tags if any(k.startswith("on") for k in a)]
    assert "<img" not in page and HOSTILE not in page


def test_hostile_payload_text_is_escaped_on_the_trace_page() -> None:
    page = detail_page(_hostile_record())
    _assert_inert(page)
    assert "&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;" in page
    # the tool argument is a JSON string inside the payload: its quotes are escaped, then shown as text
    assert "&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;\\&quot;}" in page


def test_hostile_summary_text_is_escaped_in_the_list() -> None:
    summary = _hostile_record().summary()
    page = list_page([summary], Filters(model=HOSTILE, status="", errors=(HOSTILE,)))
    _assert_inert(page)
    assert page.count("&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;") >= 5
    assert 'href="/ui/trace/req_%3C%2Fscript%3E%3Cimg%20src%3Dx%20onerror%3Dalert%281%29%3E"' in page


def test_each_note_links_to_the_highlight_of_its_value_in_both_payloads() -> None:
    page = detail_page(record())
    parsed = parse(page)
    links = [a for t, a in parsed.tags if t == "a" and a.get("class") == "note-link"]
    shown = {(a["data-note"], parsed.text_by_id[str(a["href"])[1:]]) for a in links}
    assert shown == {
        ("1", '"logprobs": true'),
        ("2", '{\n      "role": "system",\n      "content": "Be brief."\n    }'),
        ("2", '"system": "Be brief."'),
        ("3", '"strict": true'),
        ("3", json.dumps(ANTHROPIC_REQUEST["tools"][0], indent=2).replace("\n", "\n    ")),
    }
    marks = {a["id"]: a for t, a in parsed.tags if t == "mark"}
    assert {m["data-notes"] for m in marks.values()} == {"1", "2", "3"}
    absent = [m for m in marks.values() if "near" in str(m["class"])]
    assert len(absent) == 1 and absent[0]["data-notes"] == "3"
    assert "(absent; its parent is marked)" in page


def test_a_note_on_a_payload_that_is_not_json_is_listed_without_a_highlight() -> None:
    cut = TraceBody(text='{"model": "to-anth', size=5000, truncated=True)
    page = detail_page(record(client_request=cut))
    assert "<mark" in page  # the upstream side still has its highlights
    assert '$.logprobs</code> <span class="muted">(not shown in the payload)</span>' in page
    assert "5000 bytes, application/json; cut at the trace cap, the first 18 characters shown" in page
    assert "<code>{&quot;model&quot;: &quot;to-anth</code>" in page


def test_payload_pairs_are_side_by_side_in_order() -> None:
    parsed = parse(detail_page(record()))
    sides = [a["data-side"] for t, a in parsed.tags if t == "pre"]
    assert sides == ["client_request", "upstream_request", "upstream_response", "client_response"]
    headings = [a["id"] for t, a in parsed.tags if t in ("h2", "h3")]
    assert headings == [
        "h-notes",
        "h-requests",
        "h-client_request",
        "h-upstream_request",
        "h-responses",
        "h-upstream_response",
        "h-client_response",
    ]


def test_a_stream_has_a_timeline_in_time_order_and_a_whole_call_has_none() -> None:
    page = detail_page(stream_record())
    item = r'<li data-kind="([a-z_]+)"><span class="t">([0-9.]+ ms)</span> <span>([^<]+)</span>'
    items = re.findall(item, page)
    assert items[:4] == [
        ("first_byte", "5.0 ms", "upstream: first byte"),
        ("first_byte", "5.5 ms", "client: first byte"),
        ("tool_call_start", "6.0 ms", "upstream: tool call 0 starts"),
        ("tool_call_start", "6.5 ms", "client: tool call 0 starts"),
    ]
    assert items[-1] == ("end", "15.5 ms", "client: end of stream")
    assert len(items) == 12
    assert page.count('class="bar"') == 4  # one bar per tool call per side
    assert "Streamed: see the stream timeline and events." in page
    assert "All stream events (12)" in page
    assert "Stream timeline" not in detail_page(record())


def test_marks_nest_and_a_partly_overlapping_one_is_left_out() -> None:
    out = marked("abcdef<", [Mark(0, 6, "a", (1,)), Mark(1, 3, "b", (2, 3)), Mark(2, 5, "c", (4,))])
    assert out == (
        '<mark id="a" class="hl" data-notes="1">a'
        '<mark id="b" class="hl" data-notes="2 3">bc</mark>def</mark>&lt;'
    )


def test_filters_map_to_the_store_query_and_bad_values_are_dropped_with_a_reason() -> None:
    f = parse_filters("model=to-anthropic&pair=openai-chat-%3Eanthropic&status=4xx&loss=yes&before=t9")
    assert f.query() == TraceQuery(
        limit=50,
        before="t9",
        model="to-anthropic",
        pair="openai-chat->anthropic",
        status="4xx",
        has_loss=True,
    )
    bad = parse_filters("status=abc&pair=x-%3Ey&loss=maybe&model=")
    assert bad.query() == TraceQuery(limit=50)
    assert len(bad.errors) == 3
    page = list_page([], bad)
    assert page.count('role="alert"') == 3 and "No traces match." in page
    assert parse_filters("loss=no").query().has_loss is False


def test_the_form_keeps_the_chosen_filters() -> None:
    page = list_page([], parse_filters("model=m%22x&pair=gemini-%3Eanthropic&loss=no&status=200"))
    assert 'name="model" value="m&quot;x"' in page
    assert '<option value="gemini-&gt;anthropic" selected>' in page
    assert '<option value="no" selected>no</option>' in page
    assert 'name="status" value="200"' in page
    api = "/ui/api/traces?model=m%22x&amp;pair=gemini-%3Eanthropic&amp;status=200&amp;loss=no"
    assert f'data-api="{api}"' in page


def test_newer_than_cuts_a_newest_first_list_at_the_known_trace() -> None:
    summaries = [record(f"t{i}").summary() for i in (3, 2, 1)]
    assert [s.id for s in newer_than(summaries, "t2")] == ["t3"]
    assert [s.id for s in newer_than(summaries, "t3")] == []
    assert [s.id for s in newer_than(summaries, "gone")] == ["t3", "t2", "t1"]
    assert [s.id for s in newer_than(summaries, "")] == ["t3", "t2", "t1"]


@pytest.mark.parametrize(
    ("target", "safe"),
    [
        ("/ui/trace/x?a=1", "/ui/trace/x?a=1"),
        ("//evil.example/ui", "/ui"),
        ("https://evil.example", "/ui"),
        ("/uix", "/ui"),
        ("/ui/\\evil", "/ui"),
        ("/ui\r\nSet-Cookie: x", "/ui"),
        ("/ui", "/ui"),
    ],
)
def test_login_only_sends_back_to_ui_pages(target: str, safe: str) -> None:
    assert safe_next(target) == safe


def test_login_and_off_pages() -> None:
    page = login_page("/ui/trace/a", failed=True)
    assert 'type="password"' in page and 'value="/ui/trace/a"' in page and 'role="alert"' in page
    assert '<label for="key">Gateway key</label>' in page
    assert "Tracing is off" in off_page() and "<h1>" in off_page()


def test_a_timeline_without_milestones_says_so_and_an_unfinished_call_still_has_a_bar() -> None:
    from toolwire.gateway._ui._timeline import timeline

    quiet = [TraceEvent(t_ms=1.0, side="client_response", name="data", kind="text")]
    assert timeline(quiet) == "<p>No stream milestones were recorded.</p>"
    cut = [
        TraceEvent(t_ms=0.0, side="upstream_response", name="message_start", kind="first_byte"),
        TraceEvent(
            t_ms=4.0, side="upstream_response", name="content_block_start", kind="tool_call_start", index=2
        ),
        TraceEvent(t_ms=8.0, side="upstream_response", name="overloaded_error", kind="error"),
    ]
    page = timeline(cut)
    assert re.findall(r"<span>([^<]+)</span>", page) == [
        "upstream: first byte",
        "upstream: tool call 2 starts",
        "upstream: error (overloaded_error)",
    ]
    assert '<rect x="555.0" y="41" width="3.0" height="14" class="bar"/>' in page
    assert '<circle cx="980.0" cy="20" r="5" class="dot error"/>' in page
    assert "3 milestones over 8.0 ms on 2 lanes" in page


def test_a_note_on_the_whole_payload_links_the_payload_and_marks_nothing() -> None:
    notes = [
        TraceNote(side="client_request", path="$", kind="synthesized", message="max_tokens", loss=False),
        TraceNote(side="upstream_response", path="$.choices[0].caller", kind="dropped", message="caller"),
    ]
    page = detail_page(record(notes=notes))
    parsed = parse(page)
    links = [a["href"] for t, a in parsed.tags if t == "a" and a.get("class") == "note-link"]
    assert links == ["#body-client_request", "#body-upstream_response"]
    assert [a["id"] for t, a in parsed.tags if t == "pre"][:3] == [
        "body-client_request",
        "body-upstream_request",
        "body-upstream_response",
    ]
    assert "<mark" not in page
    assert page.count("(absent from this payload)") == 1
