"""The small pages of ``/ui`` (pure): login, tracing off, not found, store unavailable."""

from __future__ import annotations

from toolwire.gateway._ui._html import esc, page

__all__ = ["login_page", "message_page", "off_page", "safe_next"]

TRACING_HELP = (
    "Turn tracing on in the gateway's config (<code>[trace]</code> with <code>enabled = true</code>) "
    "or with <code>toolwire serve --trace</code>, then restart the gateway."
)
"""How to turn tracing on, as the tracing-off page says it."""


def safe_next(target: str) -> str:
    """``target`` when it is a ``/ui`` page of this gateway, else ``/ui`` (no open redirect)."""
    path = target.split("?", 1)[0]
    ok = (path == "/ui" or path.startswith("/ui/")) and "//" not in target and "\\" not in target
    return target if ok and not any(c in target for c in "\r\n") else "/ui"


def login_page(next_url: str, *, failed: bool) -> str:
    """The login form (the key field is never filled in)."""
    error = '<p class="error" role="alert" id="login-error">That key is not one of this gateway\'s keys.</p>'
    described = ' aria-describedby="login-error"' if failed else ""
    main = (
        "<h1>Sign in</h1><p>This gateway has keys: enter one to see its traces.</p>"
        f"{error if failed else ''}"
        '<form class="login" method="post" action="/ui/login">'
        f'<input type="hidden" name="next" value="{esc(safe_next(next_url))}">'
        '<div><label for="key">Gateway key</label>'
        '<input id="key" name="key" type="password" autocomplete="current-password" '
        f"required{described}></div>"
        '<div class="actions"><button type="submit">Sign in</button></div></form>'
    )
    return page("Sign in", main, script=False)


def off_page() -> str:
    """What ``/ui`` shows when the gateway keeps no traces."""
    main = (
        "<h1>Tracing is off</h1>"
        '<p class="notice" role="status">'
        "This gateway does not record traces, so there is nothing to show.</p>"
        f"<p>{TRACING_HELP}</p>"
    )
    return page("Tracing is off", main, script=False)


def message_page(title: str, message: str) -> str:
    """A page that only says ``message`` (not found, store unavailable)."""
    main = f'<h1>{esc(title)}</h1><p>{esc(message)}</p><p><a href="/ui">All traces</a></p>'
    return page(title, main, script=False)
