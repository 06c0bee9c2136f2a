"""The list of recent traces (``GET /ui``) and its JSON twin for live updates (pure).

The filters are a plain GET form, so a filtered list is a link. Each filter maps to a field of
:class:`~toolwire.trace.TraceQuery`:

==========  ================================  =========================================
parameter   form control                      query field
==========  ================================  =========================================
``model``   text: a client or upstream model  ``model``
``pair``    select of format pairs            ``pair`` (``"<client>-><upstream>"``)
``status``  text: ``200`` or ``4xx``          ``status``
``loss``    select: any / yes / no            ``has_loss``
``before``  (the "Older" link)                ``before``
==========  ================================  =========================================

``GET /ui/api/traces`` takes the same parameters plus ``after`` (a trace id): the traces newer
than it, newest first, as summaries and as the table rows the page inserts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, quote, urlencode

import msgspec

from toolwire.gateway._ui._html import esc, page, utc_time
from toolwire.ir.base import FORMATS
from toolwire.trace import TraceQuery, TraceSummary

__all__ = [
    "PAGE_SIZE",
    "PAIRS",
    "Filters",
    "api_body",
    "list_page",
    "newer_than",
    "parse_filters",
    "rows",
    "trace_href",
]

PAGE_SIZE = 50
"""Traces per page."""

PAIRS = tuple(f"{a}->{b}" for a in FORMATS for b in FORMATS)
"""Every format pair the pair filter offers."""

_STATUS = re.compile(r"[1-5](?:\d\d|xx)")
_LOSS = {"": None, "yes": True, "no": False}


@dataclass(frozen=True, slots=True)
class Filters:
    """The list's filters as the form sent them, and what was wrong with them.

    Attributes:
        model: model filter (``""``: any).
        pair: format pair filter.
        status: status filter.
        loss: ``""``, ``"yes"`` or ``"no"``.
        before: id of the last trace of the previous page.
        after: (API only) id of the newest trace the page has.
        errors: one sentence per ignored filter.
    """

    model: str = ""
    pair: str = ""
    status: str = ""
    loss: str = ""
    before: str = ""
    after: str = ""
    errors: tuple[str, ...] = field(default=())

    def query(self, limit: int = PAGE_SIZE) -> TraceQuery:
        """The store query of these filters."""
        return TraceQuery(
            limit=limit,
            before=self.before or None,
            model=self.model or None,
            pair=self.pair or None,
            status=self.status or None,
            has_loss=_LOSS[self.loss],
        )

    def params(self, **changes: str) -> str:
        """The filters as a query string (empty ones left out), with ``changes`` applied."""
        values = {"model": self.model, "pair": self.pair, "status": self.status, "loss": self.loss}
        values.update(changes)
        return urlencode({k: v for k, v in values.items() if v})


def parse_filters(query_string: str) -> Filters:
    """The filters of a request's query string; a value the list cannot use is dropped with an
    error sentence (shown above the list) instead of failing the page."""
    raw = {k: v[-1].strip() for k, v in parse_qs(query_string, keep_blank_values=True).items()}
    errors: list[str] = []
    status = raw.get("status", "")
    if status and not _STATUS.fullmatch(status):
        errors.append("Status must be a code such as 200 or a class such as 4xx; the status filter is off.")
        status = ""
    pair = raw.get("pair", "")
    if pair and pair not in PAIRS:
        errors.append("Unknown format pair; the pair filter is off.")
        pair = ""
    loss = raw.get("loss", "")
    if loss not in _LOSS:
        errors.append("Loss notes must be any, yes or no; that filter is off.")
        loss = ""
    return Filters(
        model=raw.get("model", "")[:200],
        pair=pair,
        status=status,
        loss=loss,
        before=raw.get("before", "")[:200],
        after=raw.get("after", "")[:200],
        errors=tuple(errors),
    )


def trace_href(trace_id: str) -> str:
    """The detail page of a trace."""
    return "/ui/trace/" + quote(trace_id, safe="")


def _pair(a: str | None, b: str | None) -> str:
    return f"{esc(a or '-')} &rarr; {esc(b or '-')}"


def _row(s: TraceSummary) -> str:
    status_class = "ok" if s.status < 400 else "bad"
    loss = f' <span class="loss">({s.loss_notes} loss)</span>' if s.loss_notes else ""
    notes = f"{s.notes}{loss}" if s.notes else "0"
    stream = '<span class="badge">stream</span>' if s.stream else '<span class="muted">no</span>'
    error = f'<br><span class="err">{esc(s.error)}</span>' if s.error else ""
    return (
        f'<tr data-id="{esc(s.id)}"><td><a href="{esc(trace_href(s.id))}">{utc_time(s.created_at)}</a></td>'
        f"<td><code>{esc(s.method)} {esc(s.path)}</code></td>"
        f"<td>{_pair(s.client_format, s.upstream_format)}</td>"
        f"<td>{_pair(s.client_model, s.upstream_model)}</td>"
        f'<td class="{status_class}">{s.status}{error}</td>'
        f'<td class="num">{s.total_ms:.1f}&nbsp;ms</td><td class="num">{notes}</td><td>{stream}</td></tr>'
    )


def rows(summaries: list[TraceSummary]) -> str:
    """The table rows of ``summaries``."""
    return "".join(_row(s) for s in summaries)


def newer_than(summaries: list[TraceSummary], after: str) -> list[TraceSummary]:
    """The leading part of a newest-first list, up to (not including) the trace ``after``."""
    if not after:
        return summaries
    ids = [s.id for s in summaries]
    return summaries[: ids.index(after)] if after in ids else summaries


def api_body(summaries: list[TraceSummary]) -> bytes:
    """The JSON answer of ``/ui/api/traces``: summaries and their rendered rows."""
    body: dict[str, Any] = {"traces": summaries, "rows": rows(summaries)}
    return msgspec.json.encode(body)


def _option(value: str, label: str, chosen: str) -> str:
    selected = " selected" if value == chosen else ""
    return f'<option value="{esc(value)}"{selected}>{esc(label)}</option>'


def _form(f: Filters) -> str:
    pairs = _option("", "any", f.pair) + "".join(_option(p, p.replace("->", " -> "), f.pair) for p in PAIRS)
    losses = "".join(_option(v, label, f.loss) for v, label in (("", "any"), ("yes", "yes"), ("no", "no")))
    return (
        '<form class="filters" method="get" action="/ui" role="search" aria-label="Filter traces">'
        '<div><label for="f-model">Model</label>'
        f'<input id="f-model" name="model" value="{esc(f.model)}" placeholder="any"></div>'
        f'<div><label for="f-pair">Format pair</label><select id="f-pair" name="pair">{pairs}</select></div>'
        '<div><label for="f-status">Status</label>'
        f'<input id="f-status" name="status" value="{esc(f.status)}" placeholder="200 or 4xx" size="6"></div>'
        '<div><label for="f-loss">Has loss notes</label>'
        f'<select id="f-loss" name="loss">{losses}</select></div>'
        '<div class="actions"><button type="submit">Filter</button> <a href="/ui">Clear</a></div></form>'
    )


def list_page(summaries: list[TraceSummary], f: Filters, *, signed_in: bool = False) -> str:
    """The whole list page (``signed_in``: offer to sign out)."""
    errors = "".join(f'<p class="error" role="alert">{esc(e)}</p>' for e in f.errors)
    live = ""
    if not f.before:
        live = (
            '<p class="live"><label><input type="checkbox" id="live-toggle" checked> Live updates</label> '
            '<span id="live-status" role="status" aria-live="polite"></span></p>'
        )
    older = ""
    if len(summaries) >= PAGE_SIZE:
        older = f'<p><a href="/ui?{esc(f.params(before=summaries[-1].id))}" rel="next">Older traces</a></p>'
    empty = "" if summaries else '<p id="empty">No traces match.</p>'
    api = "/ui/api/traces?" + f.params()
    table = (
        f'<table class="traces" id="traces" data-api="{esc(api)}">'
        "<caption>Recent traces, newest first</caption>"
        '<thead><tr><th scope="col">Time (UTC)</th><th scope="col">Request</th>'
        '<th scope="col">Formats (client &rarr; upstream)</th><th scope="col">Models</th>'
        '<th scope="col">Status</th><th scope="col">Latency</th><th scope="col">Notes</th>'
        f'<th scope="col">Stream</th></tr></thead><tbody id="rows">{rows(summaries)}</tbody></table>'
    )
    main = f"<h1>Traces</h1>{_form(f)}{errors}{live}{table}{empty}{older}"
    return page("Traces", main, signed_in=signed_in)
