"""HTML building blocks of the ``/ui`` pages (pure): escaping, the page frame, highlighted text.

Every text that comes from a trace (payloads, paths, models, messages, error text) goes through
:func:`esc` before it is written; attributes are always double-quoted, so ``esc`` (which also
escapes quotes) is enough for them too. Pages load one stylesheet and one script from
``/ui/static/`` (no inline code, so the Content-Security-Policy can forbid inline scripts).
"""

from __future__ import annotations

import html
import time
from dataclasses import dataclass

__all__ = ["CSP", "SIGN_OUT", "Mark", "esc", "marked", "page", "utc_time"]

CSP = (
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; connect-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
"""The Content-Security-Policy of every page: nothing inline, nothing from elsewhere."""


def esc(text: object) -> str:
    """``text`` as HTML text or double-quoted attribute value (``& < > " '`` escaped)."""
    return html.escape(str(text), quote=True)


def utc_time(seconds: float) -> str:
    """A ``<time>`` element for unix ``seconds`` (UTC, to the second)."""
    stamp = time.gmtime(seconds)
    iso = time.strftime("%Y-%m-%dT%H:%M:%SZ", stamp)
    return f'<time datetime="{iso}">{time.strftime("%Y-%m-%d %H:%M:%S", stamp)}Z</time>'


SIGN_OUT = (
    '<form class="signout" method="post" action="/ui/logout"><button type="submit">Sign out</button></form>'
)
"""The banner's sign-out button (pages behind gateway keys)."""


def page(title: str, main: str, *, script: bool = True, nav: str = "", signed_in: bool = False) -> str:
    """A whole page: skip link, banner with the site name and ``nav``, ``main``, footer.

    Args:
        title: the page title (plain text; escaped here).
        main: the HTML of the main landmark (already escaped by the caller).
        script: whether to load ``/ui/static/ui.js``.
        nav: extra HTML put in the banner's navigation.
        signed_in: whether to offer the sign-out button.
    """
    js = '<script src="/ui/static/ui.js" defer></script>' if script else ""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="color-scheme" content="light dark">'
        f"<title>{esc(title)} - toolwire traces</title>"
        f'<link rel="stylesheet" href="/ui/static/ui.css">{js}</head><body>'
        '<a class="skip" href="#main">Skip to content</a>'
        '<header class="banner"><p class="brand"><a href="/ui">toolwire traces</a></p>'
        f'<nav aria-label="Site">{nav}</nav>{SIGN_OUT if signed_in else ""}</header>'
        f'<main id="main" tabindex="-1">{main}</main>'
        "<footer><p>toolwire gateway trace viewer</p></footer></body></html>\n"
    )


@dataclass(frozen=True, slots=True)
class Mark:
    """A highlight: the text ``[start, end)`` wrapped in ``<mark id=... data-notes=...>``.

    Attributes:
        start: first character.
        end: just after the last character.
        id: the element id (note links point at it).
        notes: the numbers of the notes pointing here.
        exact: whether the notes' paths name this value (not an ancestor of a missing one).
    """

    start: int
    end: int
    id: str
    notes: tuple[int, ...]
    exact: bool = True


def marked(text: str, marks: list[Mark]) -> str:
    """``text`` escaped, with each mark wrapped around its span.

    Spans must nest or be disjoint (as JSON value spans do); a span that partly overlaps an
    earlier one is left out rather than producing broken markup.
    """
    out: list[str] = []
    stack: list[int] = []  # ends of the open marks
    pos = 0
    for mark in sorted(marks, key=lambda m: (m.start, -m.end)):
        while stack and stack[-1] <= mark.start:
            pos = _close(out, text, pos, stack.pop())
        if stack and mark.end > stack[-1]:
            continue
        out.append(esc(text[pos : mark.start]))
        pos = mark.start
        notes = " ".join(str(n) for n in mark.notes)
        kind = "" if mark.exact else " near"
        out.append(f'<mark id="{esc(mark.id)}" class="hl{kind}" data-notes="{notes}">')
        stack.append(mark.end)
    while stack:
        pos = _close(out, text, pos, stack.pop())
    out.append(esc(text[pos:]))
    return "".join(out)


def _close(out: list[str], text: str, pos: int, end: int) -> int:
    out.append(esc(text[pos:end]) + "</mark>")
    return end
