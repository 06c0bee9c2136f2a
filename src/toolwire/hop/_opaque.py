"""The opaque-state fallback kept in the shell's store: reasoning state a Chat client has no slot
to echo (:mod:`toolwire._opaque_state`), for an upstream that issues it.

Before translation, the kept entry of every assistant turn with calls the client echoed is
loaded (one :class:`~toolwire.hop._stateful.StoreCall` per turn; the mapping handed to the
:class:`~toolwire.translate.Exchange` holds what was found); after a whole answer, the entries
the exchange added are kept for :data:`STATE_TTL` seconds. A store that cannot be read leaves
the turn without its state (the upstream's documented fallback applies, noted); one that cannot
keep the new state fails the request (500), as a Responses store failure does.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from toolwire._opaque_state import KEY_PREFIX
from toolwire.errors import ToolwireError
from toolwire.hop._stateful import StoreCall
from toolwire.ir.base import Format

__all__ = ["STATE_TTL", "keep_calls", "recall"]

STATE_TTL = 30 * 24 * 3600.0
"""Seconds a turn's kept reasoning state lives (a tool loop's next turn comes long before)."""
_NO_SLOT: frozenset[Format] = frozenset({"openai-chat"})
"""Client formats without an echo slot for opaque state."""
_ISSUES_STATE: frozenset[Format] = frozenset({"anthropic", "gemini", "openai-responses"})
"""Upstream formats whose answers carry opaque reasoning state."""


def _first_call_ids(payload: dict[str, Any]) -> list[str]:
    ids: list[str] = []
    for message in payload.get("messages") or ():
        if not isinstance(message, dict) or message.get("role") != "assistant":
            continue
        calls = message.get("tool_calls")
        if (
            isinstance(calls, list)
            and calls
            and isinstance(calls[0], dict)
            and isinstance(calls[0].get("id"), str)
        ):
            ids.append(calls[0]["id"])
    return ids


def recall(
    client: Format, upstream: Format, payload: dict[str, Any]
) -> Generator[StoreCall, Any, dict[str, str] | None]:
    """The state mapping for this exchange (``None`` when the pair needs none), holding the
    kept entries of the turns ``payload`` echoes."""
    if client not in _NO_SLOT or upstream not in _ISSUES_STATE:
        return None
    state: dict[str, str] = {}
    for call_id in _first_call_ids(payload):
        key = KEY_PREFIX + call_id
        try:
            value = yield StoreCall("get_state", (key,))
        except ToolwireError:
            continue  # read failure: this turn goes without its state (the fallback is noted)
        if isinstance(value, bytes):
            state[key] = value.decode()
    return state


def keep_calls(state: dict[str, str] | None, recalled: frozenset[str]) -> list[StoreCall]:
    """The store calls that keep the entries the exchange added to ``state``."""
    if state is None:
        return []
    return [
        StoreCall("put_state", (key, value.encode(), STATE_TTL))
        for key, value in state.items()
        if key not in recalled
    ]
