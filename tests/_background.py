"""What every shell that offers ``background: true`` must answer, whatever serves it (the emulator,
the gateway): one set of checks, called by ``tests/emulator/test_background.py`` and
``tests/gateway/test_background.py`` against their own server."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx
import openai
import pytest

__all__ = ["WAIT", "assert_background_refusals", "until"]

WAIT = 30.0
"""The longest a test waits for a background job (generous: the machine is shared)."""

NO_STORE = "Background mode requires 'store' to be true; remove 'store: false' or 'background: true'."
NOT_BACKGROUND = "Only responses created with background=true can be cancelled."


def until(check: Callable[[], Any], what: str) -> Any:
    """Poll ``check`` every 50 ms until it returns something truthy (returned), or fail after
    :data:`WAIT` seconds naming ``what``."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"not within {WAIT} s: {what}")


def _refused(call: Callable[[], object]) -> dict[str, Any]:
    with pytest.raises(openai.BadRequestError) as refused:
        call()
    body: dict[str, Any] = refused.value.body  # type: ignore[assignment]
    return body


def assert_background_refusals(client: openai.OpenAI, model: str) -> None:
    """The 400s (and the 404) of background mode, worded and shaped as the Responses API words
    them: ``background`` with ``store: false``; cancelling or stream-retrieving a foreground
    response; a non-integer ``starting_after``; cancelling an unknown id."""
    assert _refused(
        lambda: client.responses.create(model=model, input="hi", background=True, store=False)
    ) == {"message": NO_STORE, "type": "invalid_request_error", "param": "background", "code": None}
    foreground = client.responses.create(model=model, input="hi")
    assert _refused(lambda: client.responses.cancel(foreground.id))["message"] == NOT_BACKGROUND
    assert _refused(lambda: list(client.responses.retrieve(foreground.id, stream=True)))["param"] == "stream"
    bad_after = _refused(
        lambda: client.get(f"/responses/{foreground.id}?stream=true&starting_after=x", cast_to=httpx.Response)
    )
    assert bad_after["param"] == "starting_after"
    with pytest.raises(openai.NotFoundError):
        client.responses.cancel("resp_unknown")
