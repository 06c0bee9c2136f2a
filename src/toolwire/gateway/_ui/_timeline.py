"""A streamed call's timeline (pure): the milestones as an ordered list and as an SVG chart.

The list is the content (screen readers and text browsers read it); the chart draws the same
milestones, one lane per side and one bar per tool call, and carries a text alternative.

===================  ============================================
event ``kind``       milestone written
===================  ============================================
``first_byte``       first byte
``tool_call_start``  tool call ``index`` starts
``tool_call_end``    tool call ``index`` ends
``end``              end of stream
``error``            error (the event's name)
===================  ============================================

Other kinds (text, reasoning, other) are only in the full events table below the timeline.
"""

from __future__ import annotations

from collections.abc import Callable

from toolwire.gateway._ui._html import esc
from toolwire.trace import TraceEvent

__all__ = ["MILESTONES", "events_table", "milestones", "timeline"]

SIDE_LABEL = {"upstream_response": "upstream", "client_response": "client"}
"""How a stream side is named on the page."""

MILESTONES: dict[str, Callable[[TraceEvent], str]] = {
    "first_byte": lambda e: "first byte",
    "tool_call_start": lambda e: f"tool call {e.index if e.index is not None else '?'} starts",
    "tool_call_end": lambda e: f"tool call {e.index if e.index is not None else '?'} ends",
    "end": lambda e: "end of stream",
    "error": lambda e: f"error ({e.name})",
}
"""The event kinds the timeline shows, and the words for each."""

_LEFT, _WIDTH, _LANE = 130, 850, 28


def milestones(events: list[TraceEvent]) -> list[TraceEvent]:
    """The events the timeline shows, in time order."""
    return sorted((e for e in events if e.kind in MILESTONES), key=lambda e: e.t_ms)


def _ms(t: float) -> str:
    return f"{t:.1f} ms"


def _list(shown: list[TraceEvent]) -> str:
    items = "".join(
        f'<li data-kind="{esc(e.kind)}"><span class="t">{_ms(e.t_ms)}</span> '
        f"<span>{esc(SIDE_LABEL.get(e.side, e.side))}: {esc(MILESTONES[e.kind](e))}</span></li>"
        for e in shown
    )
    return f'<ol class="timeline" aria-label="Stream milestones">{items}</ol>'


def _lanes(shown: list[TraceEvent]) -> list[tuple[str, str, int | None]]:
    """(label, side, tool index) per lane: each side, then its tool calls."""
    lanes: list[tuple[str, str, int | None]] = []
    for side in ("upstream_response", "client_response"):
        mine = [e for e in shown if e.side == side]
        if not mine:
            continue
        lanes.append((SIDE_LABEL[side], side, None))
        tools = sorted({e.index for e in mine if e.kind.startswith("tool_call") and e.index is not None})
        lanes.extend((f"{SIDE_LABEL[side]} tool {i}", side, i) for i in tools)
    return lanes


def _x(t: float, span: float) -> float:
    return _LEFT + (t / span) * _WIDTH if span > 0 else _LEFT


def _lane_svg(row: int, lane: tuple[str, str, int | None], shown: list[TraceEvent], span: float) -> str:
    label, side, index = lane
    y = 20 + row * _LANE
    out = [f'<text x="4" y="{y + 4}" class="lbl">{esc(label)}</text>']
    mine = [e for e in shown if e.side == side]
    if index is None:
        last = max((e.t_ms for e in mine), default=0.0)
        out.append(f'<line x1="{_LEFT}" y1="{y}" x2="{_x(last, span):.1f}" y2="{y}" class="axis"/>')
        out.extend(
            f'<circle cx="{_x(e.t_ms, span):.1f}" cy="{y}" r="5" class="dot {esc(e.kind)}"/>'
            for e in mine
            if not e.kind.startswith("tool_call")
        )
        return "".join(out)
    calls = [e for e in mine if e.index == index and e.kind.startswith("tool_call")]
    start = min((e.t_ms for e in calls if e.kind == "tool_call_start"), default=calls[0].t_ms)
    end = max((e.t_ms for e in calls if e.kind == "tool_call_end"), default=start)
    width = max(_x(end, span) - _x(start, span), 3.0)
    out.append(f'<rect x="{_x(start, span):.1f}" y="{y - 7}" width="{width:.1f}" height="14" class="bar"/>')
    return "".join(out)


def _svg(shown: list[TraceEvent]) -> str:
    lanes = _lanes(shown)
    span = max((e.t_ms for e in shown), default=0.0)
    height = 30 + len(lanes) * _LANE
    body = "".join(_lane_svg(i, lane, shown, span) for i, lane in enumerate(lanes))
    summary = f"{len(shown)} milestones over {_ms(span)} on {len(lanes)} lanes; the list has each time."
    return (
        f'<svg class="chart" viewBox="0 0 1000 {height}" role="img" aria-labelledby="tl-title">'
        f'<title id="tl-title">Stream timeline chart: {esc(summary)}</title>{body}'
        f'<text x="{_LEFT}" y="{height - 4}" class="lbl">0 ms</text>'
        f'<text x="{_LEFT + _WIDTH}" y="{height - 4}" class="lbl" text-anchor="end">{_ms(span)}</text></svg>'
    )


def timeline(events: list[TraceEvent]) -> str:
    """The timeline section's content: chart and list, or a sentence when there is nothing."""
    shown = milestones(events)
    if not shown:
        return "<p>No stream milestones were recorded.</p>"
    return _svg(shown) + _list(shown)


def events_table(events: list[TraceEvent]) -> str:
    """Every recorded event, in a collapsed table."""
    body = "".join(
        f'<tr><td class="num">{_ms(e.t_ms)}</td><td>{esc(SIDE_LABEL.get(e.side, e.side))}</td>'
        f"<td>{esc(e.name)}</td><td>{esc(e.kind)}</td><td>{'' if e.index is None else e.index}</td>"
        f'<td><code class="data">{esc(e.data)}</code></td></tr>'
        for e in events
    )
    return (
        f"<details><summary>All stream events ({len(events)})</summary>"
        '<table class="events"><caption>Stream events in time order</caption><thead><tr>'
        '<th scope="col">Time</th><th scope="col">Side</th><th scope="col">Event</th>'
        '<th scope="col">Kind</th><th scope="col">Index</th><th scope="col">Data</th>'
        f"</tr></thead><tbody>{body}</tbody></table></details>"
    )
