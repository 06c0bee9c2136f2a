"""Stateful Responses over a stateless upstream: what the hop keeps, and asks the store for.

A Responses client in front of an Anthropic, Gemini or Chat upstream expects the API's server
state. The hop keeps it itself through the shell's store, asked with :class:`StoreCall` steps
(the hop never touches a store):

====================================  ===========================================================
client does                           hop does
====================================  ===========================================================
``previous_response_id``              loads that response; the upstream gets its resolved input
                                      and output, then the new input (``instructions`` are not
                                      carried over, as the API documents); an unknown id is a
                                      400 ``previous_response_not_found`` before any upstream call
``store`` (default ``true``)          saves the response, with its resolved input, before the
                                      client sees it (a stream: before the chunk that carries
                                      ``response.completed``), so a continuation works at once
``store: false``                      saves nothing
``conversation`` (an id)              the upstream gets the conversation's items, then the new
                                      input; the new input and output items are appended to it
                                      with the response (an unknown id is a 404)
``GET /v1/responses/{id}``            the response object as answered; 404 when not kept
``DELETE /v1/responses/{id}``         ``{"id", "object": "response.deleted", "deleted": true}``
``GET .../{id}/input_items``          the resolved input items, an OpenAI list page
``background: true``                  kept ``queued`` and answered at once; the upstream call
                                      runs in a job (:mod:`toolwire.hop._detached`, rules in
                                      :mod:`toolwire.store.background`); ``POST .../{id}/cancel``
                                      and ``GET .../{id}?stream=true&starting_after=N``
====================================  ===========================================================

Every response object the client gets (whole, or in a stream's lifecycle events) carries a
``resp_`` id derived from the upstream's id and echoes the client's own request parameters
(:data:`~toolwire.formats.openai_responses.response.ECHO_FIELDS`), as the API's objects do.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from toolwire._json import dumps, loads
from toolwire.errors import PayloadError
from toolwire.formats.openai_responses.response import ECHO_FIELDS
from toolwire.store.background import StoreCall

__all__ = ["LIFECYCLE", "ResponsesFacade", "StoreCall", "is_stateful"]

LIFECYCLE = (
    b"response.created",
    b"response.in_progress",
    b"response.completed",
    b"response.incomplete",
    b"response.failed",
)
"""Stream events that carry the whole response object."""
_STATE_KEYS = frozenset({"previous_response_id", "conversation"})
_FINAL = frozenset({"response.completed", "response.incomplete", "response.failed"})


def is_stateful(client: str, upstream: str) -> bool:
    """Whether the hop keeps Responses state itself (a Responses client, another upstream)."""
    return client == "openai-responses" and upstream != "openai-responses"


def response_id(upstream_id: Any) -> str:
    """The ``resp_`` id (40 hex digits after it) a client sees for an upstream response id (stable)."""
    digest = hashlib.sha256(str(upstream_id).encode()).hexdigest()[:40]
    return f"resp_{digest}"


@dataclass(slots=True)
class ResponsesFacade:
    """One Responses request's state handling (see the module docstring).

    Args:
        request: the client's request body, as sent (``input`` not yet resolved).
        previous: the stored response it continues (a ``ResponseRecord``), or ``None``.
        make_record: builds the record to keep: ``(response, request, previous) -> record``.
        conversation: the id of the conversation the response joins, or ``None``.
        fixed_id: the id every response object gets (a background response's, known before the
            upstream answers); ``None`` derives it from the upstream's id.

    Attributes:
        body: the body the upstream translation gets (:meth:`resolved_body`), set when opened.
        saved: whether the response's store call was issued.
    """

    request: dict[str, Any]
    previous: Any = None
    make_record: Callable[[dict[str, Any], dict[str, Any], Any], Any] | None = None
    conversation: str | None = None
    fixed_id: str | None = None
    saved: bool = False
    body: dict[str, Any] = field(default_factory=dict)
    _ids: dict[str, str] = field(default_factory=dict)

    @property
    def store(self) -> bool:
        """Whether the response is to be kept (the API's default: yes)."""
        return self.request.get("store", True) is not False

    def resolved_body(self, history: list[dict[str, Any]]) -> dict[str, Any]:
        """The body the upstream translation gets: the stored ``history``, then this input."""
        from toolwire.store.responses import input_items

        body = {k: v for k, v in self.request.items() if k not in _STATE_KEYS}
        body["input"] = [*history, *input_items(self.request.get("input"))]
        return body

    def finish(self, response: dict[str, Any]) -> dict[str, Any]:
        """The client's response object: a ``resp_`` id and the request's echoed parameters."""
        out = dict(response)
        upstream_id = out.get("id")
        mapped = self.fixed_id or self._ids.get(str(upstream_id))
        if mapped is None:
            mapped = self._ids[str(upstream_id)] = response_id(upstream_id)
        out["id"] = mapped
        for key in ECHO_FIELDS:
            if key in self.request:
                out[key] = self.request[key]
        out["store"] = self.store
        out["previous_response_id"] = self.previous.id if self.previous is not None else None
        if self.conversation is not None:
            out["conversation"] = {"id": self.conversation}
        return out

    def save(self, response: dict[str, Any]) -> list[StoreCall]:
        """The store calls that keep ``response`` (none with ``store: false``, or once saved)."""
        if not self.store or self.saved or self.make_record is None:
            return []
        record = self.make_record(response, self.request, self.previous)
        if record is None:
            return []
        self.saved = True
        calls = [StoreCall("put_response", (record,))]
        if self.conversation is not None:
            items = [*record.input_items, *record.output_items]
            calls.append(StoreCall("append_items", (self.conversation, items)))
        return calls

    def frames(self, chunk: bytes) -> tuple[bytes, list[StoreCall]]:
        """A chunk of the client's SSE stream with its response objects finished, and the store
        calls to perform before it is sent (when it carries the final response)."""
        if not any(name in chunk for name in LIFECYCLE):  # "event:" may or may not have a space after it
            return chunk, []
        out: list[bytes] = []
        calls: list[StoreCall] = []
        for frame in chunk.split(b"\n\n"):
            new, more = self._frame(frame)
            out.append(new)
            calls.extend(more)
        return b"\n\n".join(out), calls

    def _frame(self, frame: bytes) -> tuple[bytes, list[StoreCall]]:
        lines = frame.split(b"\n")
        event = next((ln[6:].strip() for ln in lines if ln.startswith(b"event:")), b"")
        if event not in LIFECYCLE:
            return frame, []
        index = next((i for i, ln in enumerate(lines) if ln.startswith(b"data:")), None)
        if index is None:
            return frame, []
        try:
            data = loads(lines[index][5:].strip())
        except PayloadError:
            return frame, []
        if not isinstance(data, dict) or not isinstance(data.get("response"), dict):
            return frame, []
        data["response"] = self.finish(data["response"])
        lines[index] = b"data: " + dumps(data)
        calls = self.save(data["response"]) if event.decode() in _FINAL else []
        return b"\n".join(lines), calls
