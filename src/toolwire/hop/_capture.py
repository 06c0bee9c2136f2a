"""What a traced call keeps for its trace, collected as the hop runs (no I/O, no clock).

The hop fills the payloads and notes (:class:`HopCapture`) when the shell asks for a trace
(``Hop(trace=True)``); the shell adds what only it sees: the times (its own monotonic clock,
passed in), and for a stream each chunk of both sides as it goes by (:meth:`HopCapture.chunk`).
Nothing here is redacted or capped: the trace builder (:mod:`toolwire.trace.build`) does that,
off the request path. Stream chunks stop being kept past ``budget`` bytes per side (their sizes
are still counted), so a long stream costs bounded memory.

=========================  =====================================================================
field                      set by
=========================  =====================================================================
``payloads``               the hop: the inbound body, each :class:`~toolwire.hop.core.Send`'s
                           (the last wins), each whole :class:`~toolwire.hop.core.Received`, its
                           :class:`~toolwire.hop.core.Reply` (each at most ``budget`` plus
                           :data:`SLACK` bytes, with its full size)
``route``                  the hop: the ``match`` of the route taken
``notes`` / ``request_notes``  the hop: the exchange's notes (read when the call is over) and
                           how many of them the request's translation made
``secrets``                the hop: the key the client presented and the upstream auth
                           header values, for redaction
``started``, ``sent_at``,   the shell, its monotonic clock (``created_at``: unix seconds)
``upstream_done_at``,
``first_byte_at``
``chunks``                 the shell: ``(time, side, bytes)`` of a stream, in order
=========================  =====================================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import parse_qsl

from toolwire.ir.notes import Note

__all__ = ["AUTH_HEADERS", "SLACK", "HopCapture", "Payload", "Side", "StreamSide"]

Side = Literal["client_request", "upstream_request", "upstream_response", "client_response"]
StreamSide = Literal["upstream_response", "client_response"]

SLACK = 4096
"""Bytes kept past the budget of a payload, so that a secret cut by the budget is still whole
when it is redacted (the kept part is redacted, then cut at the budget)."""

AUTH_HEADERS = frozenset(
    {"authorization", "x-api-key", "x-goog-api-key", "api-key", "proxy-authorization", "x-amz-security-token"}
)
"""Request headers whose values are credentials (their values are redacted from traces)."""


@dataclass(frozen=True, slots=True)
class Payload:
    """One whole payload: its first ``budget + SLACK`` bytes, its full size, its media type."""

    data: bytes
    size: int
    content_type: str = "application/json"


@dataclass(slots=True)
class HopCapture:
    """One call's raw material for its trace (see the module docstring).

    Args:
        budget: stream bytes kept per side.
    """

    budget: int = 256 * 1024
    started: float = 0.0
    created_at: float = 0.0
    payloads: dict[Side, Payload] = field(default_factory=dict)
    route: str | None = None
    notes: list[Note] = field(default_factory=list)
    request_notes: int = 0
    secrets: set[str] = field(default_factory=set)
    sent_at: float | None = None
    upstream_done_at: float | None = None
    first_byte_at: float | None = None
    chunks: list[tuple[float, StreamSide, bytes]] = field(default_factory=list)
    seen: dict[str, int] = field(default_factory=lambda: {"upstream_response": 0, "client_response": 0})

    def inbound(self, headers: Mapping[str, str], query: str, body: bytes) -> None:
        """The client's request: its body, and every credential it presented (headers, ``?key=``)."""
        self.keep("client_request", body, headers)
        for name, value in headers.items():
            if name.lower() in AUTH_HEADERS:
                self.secret(value)
        for name, value in parse_qsl(query):
            if name == "key":
                self.secret(value)

    def sent(self, body: bytes, headers: Mapping[str, str]) -> None:
        """An upstream request is about to go: keep its body and its credentials."""
        self.keep("upstream_request", body, headers)
        self.payloads.pop("upstream_response", None)
        for name, value in headers.items():
            if name.lower() in AUTH_HEADERS and value:
                self.secret(value)

    def secret(self, value: str) -> None:
        """A credential the trace must not hold (``Bearer x`` also adds ``x``)."""
        value = value.strip()
        if value:
            self.secrets.add(value)
            scheme, _, rest = value.partition(" ")
            if rest.strip() and scheme.lower() in ("bearer", "basic", "token"):
                self.secrets.add(rest.strip())

    def keep(self, side: Side, body: bytes, headers: Mapping[str, str]) -> None:
        """A whole payload (a copy of its start when it is longer than the budget allows)."""
        limit = self.budget + SLACK
        data = body if len(body) <= limit else body[:limit]
        self.payloads[side] = Payload(data, len(body), _media(headers))

    def chunk(self, now: float, side: StreamSide, data: bytes) -> None:
        """A stream chunk of ``side`` at ``now`` (kept while the side's budget lasts); the first
        client chunk is the call's first byte."""
        if not data:
            return
        if side == "client_response" and self.first_byte_at is None:
            self.first_byte_at = now
        seen = self.seen[side]
        self.seen[side] = seen + len(data)
        if seen < self.budget:
            self.chunks.append((now, side, data[: self.budget - seen]))

    def truncated(self, side: StreamSide) -> bool:
        """Whether chunks of ``side`` were left out."""
        return self.seen[side] > self.budget


def _media(headers: Mapping[str, str]) -> str:
    for name, value in headers.items():
        if name.lower() == "content-type":
            return value.split(";", 1)[0].strip() or "application/json"
    return "application/json"
