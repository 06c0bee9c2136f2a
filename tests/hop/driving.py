"""Driving :class:`~toolwire.hop.core.Hop` steps in memory, as a shell would, without I/O.

:func:`drive` runs the step generator against canned upstream answers and returns every
:class:`Send` it yielded plus the final answer; :func:`pump` feeds a :class:`ReplyStream`'s relay
the upstream's bytes whole, one event at a time or one byte at a time (h11's ``tr()`` habit).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from toolwire.errors import TransportError
from toolwire.formats._stream import WireEvent, encode_wire_event
from toolwire.hop import InboundRequest
from toolwire.hop._config import HopConfig
from toolwire.hop._stateful import StoreCall
from toolwire.hop.core import Hop, Received, Reply, ReplyStream, Send

CLOCK = 1_800_000_000.0
"""The hops' fixed clock (unix seconds)."""

FEEDS = ("whole", "per-event", "per-byte")
"""How :func:`pump` cuts the upstream's body."""


def make_hop(config: HopConfig, env: Mapping[str, str] | None = None) -> Hop:
    """A hop with a fixed clock and request id."""
    return Hop(config, env=env if env is not None else {}, clock=lambda: CLOCK, request_id="req_gw")


def _keep(kept: dict[str, Any], step: StoreCall) -> Any:
    """A store call on ``kept`` (responses by id): the hop's store steps, without a backend."""
    if step.method == "put_response":
        kept[step.args[0].id] = step.args[0]
        return None
    if step.method == "get_response":
        return kept.get(step.args[0])
    if step.method == "delete_response":
        return kept.pop(step.args[0], None) is not None
    raise AssertionError(f"unexpected store call {step.method}")


def answer_with(steps: Any, received: Received, kept: dict[str, Any] | None = None) -> Any:
    """Send ``received`` into a hop's steps, answer its store calls from ``kept``, and return
    the hop's answer (the steps must end there)."""
    kept = {} if kept is None else kept
    try:
        step = steps.send(received)
        while isinstance(step, StoreCall):
            step = steps.send(_keep(kept, step))
    except StopIteration as stop:
        return stop.value
    raise AssertionError(f"the hop asked for more after its answer: {step!r}")


def drive(
    hop: Hop,
    inbound: InboundRequest,
    answers: Sequence[Received | TransportError] = (),
    kept: dict[str, Any] | None = None,
) -> tuple[list[Send], Reply | ReplyStream]:
    """Run ``hop`` on ``inbound``; each :class:`Send` gets the next of ``answers``; store calls
    go to ``kept`` (responses by id; a fresh dict by default)."""
    steps = hop.steps(inbound)
    sends: list[Send] = []
    pending = list(answers)
    kept = {} if kept is None else kept
    try:
        step = next(steps)
        while True:
            if isinstance(step, StoreCall):
                step = steps.send(_keep(kept, step))
                continue
            sends.append(step)
            answer = pending.pop(0)
            step = steps.throw(answer) if isinstance(answer, TransportError) else steps.send(answer)
    except StopIteration as stop:
        assert not pending, f"{len(pending)} upstream answers were not asked for"
        return sends, stop.value


def upstream_frames(fmt: str, events: Sequence[WireEvent]) -> list[bytes]:
    """The upstream's body, one chunk per event, in its framing (SSE; the emulator's)."""
    return [encode_wire_event(fmt, event) for event in events]  # type: ignore[arg-type]


def pump(stream: ReplyStream, frames: Sequence[bytes], feed: str) -> bytes:
    """The client's bytes for the upstream's ``frames``, cut as ``feed`` says."""
    raw = b"".join(frames)
    if feed == "whole":
        chunks: Sequence[bytes] = [raw]
    elif feed == "per-event":
        chunks = frames
    else:
        chunks = [raw[i : i + 1] for i in range(len(raw))]
    out = [stream.relay.feed(chunk) for chunk in chunks]
    return b"".join(out) + stream.relay.close()


def json_body(reply: Reply | ReplyStream) -> Any:
    """A whole reply's JSON body."""
    assert isinstance(reply, Reply), reply
    return json.loads(reply.body)
