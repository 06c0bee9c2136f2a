"""Opaque reasoning state of a Chat client, kept through the shell's store (sans-IO).

A Chat client has no slot for the upstream's reasoning state (Anthropic thinking signatures,
Gemini thought signatures, Responses encrypted reasoning), but it echoes its call ids. In front
of another upstream the hop keeps that state for it (:mod:`toolwire._opaque_state`) in the
store, with :class:`~toolwire.hop._stateful.StoreCall` steps:

==========================  ========================================================================
when                        steps
==========================  ========================================================================
before the upstream call    ``get_state`` for the first call id of each assistant turn of the
                            request; what is kept goes back in front of its turn (replayed only
                            to the provider that made it: the envelope names its origin)
after a whole response      ``put_state`` for each new entry (TTL: ``limits.state_ttl``),
                            before the client gets the response
after a stream              ``put_state`` before the chunk that ends the client's stream
                            (``data: [DONE]``), under the first call id the stream showed
==========================  ========================================================================

Store keys are ``chat:`` + a tenant + ``:`` + the mapping's key (``tw1:<call id>``). The tenant
is a hash (:func:`tenant`) of the gateway key the client presented (with no gateway keys: its
own credential, else the upstream's), never the key: one client cannot pull another's reasoning
by echoing its call ids. A store that fails to load is as if nothing were kept (the upstream's
documented fallback applies, noted); one that fails to save is the client's 500 (a stream: the
store's error event), as for Responses state.
"""

from __future__ import annotations

import hashlib
from collections.abc import Generator, MutableMapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toolwire._opaque_state import first_stream_call_id, request_call_ids
from toolwire.errors import ToolwireError
from toolwire.hop._stateful import StoreCall
from toolwire.ir.base import Format

if TYPE_CHECKING:
    from toolwire.hop._steps import Reply

__all__ = ["StateTap", "load_state", "save_state", "store_state", "tenant"]

_DONE = b"data: [DONE]"


def tenant(identity: str) -> str:
    """The store's name for the owner of ``identity`` (a credential): a hash, never the secret."""
    return hashlib.sha256(b"toolwire opaque state\0" + identity.encode()).hexdigest()[:32]


def _key(owner: str, key: str) -> str:
    return f"chat:{owner}:{key}"


def load_state(
    owner: str, client: Format, payload: dict[str, Any]
) -> Generator[StoreCall, Any, dict[str, str]]:
    """The kept state of the request's assistant turns, as :attr:`Exchange.state` takes it."""
    state: dict[str, str] = {}
    for key in dict.fromkeys(request_call_ids(client, payload)):
        try:
            value = yield StoreCall("get_state", (_key(owner, key),))
        except ToolwireError:
            continue  # as if nothing were kept: the upstream's fallback applies, noted
        if value is not None:
            state[key] = bytes(value).decode()
    return state


def save_state(
    owner: str, before: dict[str, str], state: MutableMapping[str, str], ttl: float
) -> list[StoreCall]:
    """The store calls that keep the entries of ``state`` that are new since ``before``."""
    return [
        StoreCall("put_state", (_key(owner, key), value.encode(), ttl))
        for key, value in state.items()
        if before.get(key) != value
    ]


def store_state(fmt: Format, calls: list[StoreCall]) -> Generator[StoreCall, Any, Reply | None]:
    """Perform ``calls``; a store failure is the client's 500 (a ``Reply``), else ``None``."""
    from toolwire.hop._steps import client_error

    for call in calls:
        try:
            yield call
        except ToolwireError as exc:
            return client_error(fmt, 500, f"The reasoning state could not be stored: {exc.message}")
    return None


@dataclass(slots=True)
class StateTap:
    """A Chat client's stream, watched for its first call id; the state is saved before the
    chunk that ends it (a :class:`~toolwire.hop._steps.ReplyStream` tap).

    Args:
        exchange: the stream's exchange (its :attr:`state` holds what was loaded).
        owner: the tenant.
        ttl: seconds the state is kept.
    """

    exchange: Any
    owner: str
    ttl: float
    call_id: str | None = None
    before: dict[str, str] = field(default_factory=dict)

    def __call__(self, chunk: bytes) -> tuple[bytes, list[StoreCall]]:
        if self.call_id is None:
            self.call_id = first_stream_call_id(chunk)
        if _DONE not in chunk or self.call_id is None:
            return chunk, []
        self.exchange.keep_stream_state(self.call_id)
        return chunk, save_state(self.owner, self.before, self.exchange.state, self.ttl)
