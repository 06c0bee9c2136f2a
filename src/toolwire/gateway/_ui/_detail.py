"""One trace's page (``GET /ui/trace/<id>``, pure): summary, notes, payloads, stream timeline.

The four payloads are pretty-printed (:mod:`._jsonspan`) in two side-by-side pairs: client
request | upstream request, upstream response | client response. Each note's ``path`` (and its
``target``, when known) is highlighted in the payload it points into; the notes table links each
path to its highlight (``#id``: the browser scrolls there, ``:target`` styles it, and the script
lights up every highlight of that note). A body that is not JSON, or was cut at the cap, is
shown as it was kept, without highlights.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec

from toolwire.gateway._ui._html import Mark, esc, marked, page, utc_time
from toolwire.gateway._ui._jsonspan import PrettyJson, locate, pretty_spans
from toolwire.gateway._ui._timeline import events_table, timeline
from toolwire.trace import TraceBody, TraceNote, TraceRecord

__all__ = ["SIDES", "detail_page"]

SIDES = {
    "client_request": "Client request",
    "upstream_request": "Upstream request",
    "upstream_response": "Upstream response",
    "client_response": "Client response",
}
"""The four payloads of a call and their headings."""


@dataclass(frozen=True, slots=True)
class _Link:
    """Where one end of a note points: the mark's id, or why there is none."""

    href: str | None
    exact: bool = True


def _pretty(body: TraceBody | None) -> PrettyJson | None:
    if body is None or body.truncated or "json" not in body.content_type:
        return None
    try:
        value = msgspec.json.decode(body.text)
    except msgspec.DecodeError:
        return None
    return pretty_spans(value)


class _Marks:
    """The highlights of every payload, built from the notes."""

    def __init__(self, record: TraceRecord) -> None:
        self.docs = {side: _pretty(getattr(record, side)) for side in SIDES}
        self.marks: dict[str, dict[tuple[int, int], list[int]]] = {side: {} for side in SIDES}
        self.exact: dict[tuple[str, int, int], bool] = {}

    def add(self, number: int, side: str | None, path: str | None) -> _Link:
        doc = self.docs.get(side) if side is not None else None
        if doc is None or path is None:
            return _Link(None)
        found = locate(doc, path)
        if found is None:
            return _Link(None)
        assert side is not None
        if (found.start, found.end) == (0, len(doc.text)):  # the whole payload: link it, mark nothing
            return _Link(f"body-{side}", found.exact)
        self.marks[side].setdefault((found.start, found.end), []).append(number)
        key = (side, found.start, found.end)
        self.exact[key] = self.exact.get(key, True) and found.exact
        return _Link(_mark_id(side, found.start, found.end), found.exact)

    def html(self, side: str) -> str:
        doc = self.docs[side]
        assert doc is not None
        marks = [
            Mark(s, e, _mark_id(side, s, e), tuple(notes), self.exact[(side, s, e)])
            for (s, e), notes in self.marks[side].items()
        ]
        return marked(doc.text, marks)


def _mark_id(side: str, start: int, end: int) -> str:
    return f"m-{side}-{start}-{end}"


def _path_cell(number: int, side: str | None, path: str | None, link: _Link) -> str:
    if path is None or side is None:
        return "<td>-</td>"
    where = f'<span class="side">{esc(SIDES.get(side, side))}</span><br>'
    code = f"<code>{esc(path)}</code>"
    if link.href is None:
        return f'<td>{where}{code} <span class="muted">(not shown in the payload)</span></td>'
    near = ""
    if not link.exact:
        near = ' <span class="muted">(absent; its parent is marked)</span>'
        if link.href.startswith("body-"):
            near = ' <span class="muted">(absent from this payload)</span>'
    anchor = f'<a class="note-link" href="#{esc(link.href)}" data-note="{number}">{code}</a>'
    return f"<td>{where}{anchor}{near}</td>"


def _notes(record: TraceRecord, marks: _Marks) -> str:
    if not record.notes:
        return (
            '<section aria-labelledby="h-notes"><h2 id="h-notes">Notes</h2>'
            "<p>No conversion notes.</p></section>"
        )
    rows = "".join(_note_row(i, note, marks) for i, note in enumerate(record.notes, 1))
    return (
        '<section aria-labelledby="h-notes"><h2 id="h-notes">Notes</h2>'
        '<table class="notes"><caption>Conversion notes; a path links to its highlight</caption><thead><tr>'
        '<th scope="col">#</th><th scope="col">Path</th><th scope="col">Kind</th>'
        '<th scope="col">Loss</th><th scope="col">Message</th><th scope="col">Converted to</th>'
        f"</tr></thead><tbody>{rows}</tbody></table></section>"
    )


def _note_row(number: int, note: TraceNote, marks: _Marks) -> str:
    source = marks.add(number, note.side, note.path)
    target = marks.add(number, note.target_side, note.target)
    loss = '<span class="loss">loss</span>' if note.loss else "info"
    return (
        f'<tr id="note-{number}" data-note="{number}"><th scope="row">{number}</th>'
        f"{_path_cell(number, note.side, note.path, source)}<td>{esc(note.kind)}</td><td>{loss}</td>"
        f"<td>{esc(note.message)}</td>{_path_cell(number, note.target_side, note.target, target)}</tr>"
    )


def _payload(record: TraceRecord, side: str, marks: _Marks) -> str:
    body: TraceBody | None = getattr(record, side)
    heading = f'<h3 id="h-{side}">{esc(SIDES[side])}</h3>'
    if body is None:
        why = "Streamed: see the stream timeline and events." if record.stream else "None was sent."
        return f'<section class="payload" aria-labelledby="h-{side}">{heading}<p>{why}</p></section>'
    size = f"{body.size} bytes, {esc(body.content_type)}"
    if body.truncated:
        size += f"; cut at the trace cap, the first {len(body.text)} characters shown"
    text = marks.html(side) if marks.docs[side] is not None else esc(body.text)
    return (
        f'<section class="payload" aria-labelledby="h-{side}">{heading}<p class="meta">{size}</p>'
        f'<pre id="body-{side}" tabindex="0" aria-label="{esc(SIDES[side])} body" data-side="{side}">'
        f"<code>{text}</code></pre>"
        "</section>"
    )


def _pair(title: str, ident: str, record: TraceRecord, sides: tuple[str, str], marks: _Marks) -> str:
    inner = "".join(_payload(record, side, marks) for side in sides)
    heading = f'<h2 id="{ident}">{title}</h2>'
    return f'<section aria-labelledby="{ident}">{heading}<div class="pair">{inner}</div></section>'


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} ms"


def _summary(r: TraceRecord) -> str:
    tokens = f"{r.input_tokens} in, {r.output_tokens} out"
    if r.input_tokens is None and r.output_tokens is None:
        tokens = "-"
    items = [
        ("Time", utc_time(r.created_at)),
        ("Request", f"<code>{esc(r.method)} {esc(r.path)}</code>"),
        ("Status", f'<span class="{"ok" if r.status < 400 else "bad"}">{r.status}</span>'),
        ("Formats", f"{esc(r.client_format or '-')} &rarr; {esc(r.upstream_format or '-')}"),
        ("Models", f"{esc(r.client_model or '-')} &rarr; {esc(r.upstream_model or '-')}"),
        ("Upstream", f"{esc(r.upstream or '-')} (route {esc(r.route or 'default')})"),
        ("Stream", "yes" if r.stream else "no"),
        (
            "Latency",
            f"total {_ms(r.latency.total)}, upstream {_ms(r.latency.upstream)}, "
            f"gateway {_ms(r.latency.gateway)}, first byte {_ms(r.latency.first_byte)}",
        ),
        ("Tokens", esc(tokens)),
    ]
    if r.error:
        items.append(("Error", f'<span class="err">{esc(r.error)}</span>'))
    body = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in items)
    return f'<dl class="summary">{body}</dl>'


def detail_page(record: TraceRecord, *, signed_in: bool = False) -> str:
    """The whole page of ``record`` (``signed_in``: offer to sign out)."""
    marks = _Marks(record)
    notes = _notes(record, marks)  # first: it places the highlights the payloads show
    parts = [
        f"<h1>Trace <code>{esc(record.id)}</code></h1>",
        _summary(record),
        notes,
        _pair("Requests", "h-requests", record, ("client_request", "upstream_request"), marks),
        _pair("Responses", "h-responses", record, ("upstream_response", "client_response"), marks),
    ]
    if record.stream or record.events:
        parts.append(
            '<section aria-labelledby="h-timeline"><h2 id="h-timeline">Stream timeline</h2>'
            f"{timeline(record.events)}{events_table(record.events)}</section>"
        )
    nav = '<a href="/ui">All traces</a>'
    return page(f"Trace {record.id}", "".join(parts), nav=nav, signed_in=signed_in)
