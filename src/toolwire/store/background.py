"""Background Responses (``background: true``) kept in a store: the steps, no I/O.

The gateway (:mod:`toolwire.hop`) and the emulator answer background requests with these
generators; their shells perform the steps (:class:`StoreCall` on a :class:`~toolwire.store.Store`,
:class:`Wait` by sleeping, :class:`Emit` by sending bytes to the client). Everything another
process needs is in the store, so a poll, a cancel or a stream replay may reach any instance that
shares it.

=====================================  ============================================================
what                                   how
=====================================  ============================================================
``background: true``                   the response is kept at once with status ``queued`` and
                                       answered; a job runs the model call off the request path
                                       and keeps it ``in_progress``, then ``completed`` /
                                       ``incomplete`` / ``failed``
``background`` with ``store: false``   400, param ``background`` (:data:`STORE_REQUIRED`)
``POST /v1/responses/{id}/cancel``     queued / in progress: the cancel flag is set
                                       (:func:`cancel_key`) and the response kept ``cancelled``;
                                       the running job sees the flag within :data:`POLL` seconds
                                       and stops its upstream call. Already finished: the
                                       response as it is (cancelling is idempotent). Not a
                                       background response: 400 (:data:`NOT_BACKGROUND`)
``background`` and ``stream: true``    the job keeps the client's SSE chunks in order
                                       (:class:`EventLog`); the creating request and
                                       ``GET /v1/responses/{id}?stream=true&starting_after=N``
                                       follow that log (:func:`follow`): the events after
                                       ``sequence_number`` N, then live ones until the log ends
``?stream=true`` on another response   400 (:data:`NOT_STREAMED`)
=====================================  ============================================================

Opaque state keys (kept :data:`EVENTS_TTL` seconds): ``bg:<id>:cancel`` (the flag),
``bg:<id>:n`` (the number of chunks kept, ASCII, then ``.`` once the log is complete) and
``bg:<id>:e:<k>`` (chunk ``k``, the SSE bytes as the client gets them). A job writes a chunk
before the count that includes it, and the end mark last, so a follower that reads the count
then the chunks misses nothing. Its final record is written between two reads of the cancel
flag: a cancel answered ``cancelled`` leaves the response ``cancelled``.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any

import msgspec

from toolwire._json import dumps
from toolwire.errors import PayloadError
from toolwire.store.base import ResponseRecord

__all__ = [
    "ACTIVE",
    "EVENTS_TTL",
    "NOT_BACKGROUND",
    "NOT_STREAMED",
    "POLL",
    "STORE_REQUIRED",
    "Cancelled",
    "Emit",
    "EventLog",
    "StoreCall",
    "Wait",
    "cancel",
    "cancel_key",
    "cancelled",
    "follow",
    "forget",
    "is_background",
    "replay_frames",
    "save_final",
    "settle_cancelled",
    "stream_query",
    "streamed",
    "wait_cancellable",
    "with_status",
]

POLL = 0.1
"""Seconds between a follower's reads of the log, and between a job's reads of its cancel flag."""
EVENTS_TTL = 24 * 3600.0
"""Seconds a background response's flag and events are kept."""
ACTIVE = frozenset({"queued", "in_progress"})
"""The statuses of a background response that has not finished."""
STORE_REQUIRED = "Background mode requires 'store' to be true; remove 'store: false' or 'background: true'."
NOT_BACKGROUND = "Only responses created with background=true can be cancelled."
NOT_STREAMED = "Only responses created with background=true and stream=true can be streamed."
_TIMEOUT_EVENT = (
    b'event: error\ndata: {"type":"error","code":"stream_timeout",'
    b'"message":"The background response sent no event within the idle limit.","param":null}\n\n'
)


@dataclass(frozen=True, slots=True)
class StoreCall:
    """A step: ``await store.<method>(*args, **kwargs)``; its result is sent back to the steps.

    Attributes:
        method: a :class:`~toolwire.store.Store` method name.
        args: its positional arguments.
        kwargs: its keyword arguments.
    """

    method: str
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Wait:
    """A step: sleep ``seconds``, then send ``None`` back."""

    seconds: float


@dataclass(frozen=True, slots=True)
class Emit:
    """A step: send ``data`` (SSE bytes) to the client, then send ``None`` back."""

    data: bytes


class Cancelled(Exception):
    """Thrown into a job's steps by its shell when the cancel flag is seen (the shell has stopped
    the upstream call the job was waiting for)."""


def cancel_key(response_id: str) -> str:
    """The opaque-state key of a background response's cancel flag."""
    return f"bg:{response_id}:cancel"


def _count_key(response_id: str) -> str:
    return f"bg:{response_id}:n"


def _chunk_key(response_id: str, index: int) -> str:
    return f"bg:{response_id}:e:{index}"


def is_background(request: Any) -> bool:
    """Whether a Responses request body (or a record's ``request``) asks for background mode."""
    return isinstance(request, dict) and request.get("background") is True


def streamed(record: ResponseRecord) -> bool:
    """Whether ``record`` is a background response created with ``stream: true`` (it has a log)."""
    return is_background(record.request) and record.request.get("stream") is True


def with_status(record: ResponseRecord, status: str) -> ResponseRecord:
    """``record`` and its response object with ``status``."""
    return msgspec.structs.replace(record, status=status, response={**record.response, "status": status})


def cancelled(record: ResponseRecord) -> ResponseRecord:
    """``record`` as a cancel leaves it."""
    return with_status(record, "cancelled")


def stream_query(query: dict[str, str]) -> tuple[bool, int | None]:
    """``stream`` and ``starting_after`` of a retrieve's query.

    Raises:
        PayloadError: ``starting_after`` is not an integer (path ``starting_after``).
    """
    wanted = query.get("stream", "").lower() == "true"
    after = query.get("starting_after")
    if after is None or after == "":
        return wanted, None
    try:
        return wanted, int(after)
    except ValueError:
        raise PayloadError("Invalid 'starting_after': expected an integer.", path="starting_after") from None


def _frame(kind: str, response: dict[str, Any], sequence_number: int) -> bytes:
    data = {"type": kind, "response": response, "sequence_number": sequence_number}
    return f"event: {kind}\ndata: ".encode() + dumps(data) + b"\n\n"


_SEQ = b'"sequence_number":'


def _last_number(data: bytes) -> tuple[int, int] | None:
    """Where the digits of the last ``"sequence_number":`` in ``data`` are (compact JSON)."""
    at = data.rfind(_SEQ)
    if at < 0:
        return None
    start = end = at + len(_SEQ)
    while end < len(data) and data[end : end + 1].isdigit():
        end += 1
    return (start, end) if end > start else None


def _shifted(frame: bytes) -> bytes:
    found = _last_number(frame)
    if found is None:
        return frame
    start, end = found
    return frame[:start] + str(int(frame[start:end]) + 1).encode() + frame[end:]


class EventLog:
    """The writer of a background stream's log (see the module docstring).

    The log opens with the API's ``response.created`` (status ``queued``, sequence number 0)
    and ``response.queued`` (1); the producer's own stream, which numbers from 0 with its own
    ``response.created``, follows without that event and with every number one higher.
    """

    def __init__(self, response_id: str) -> None:
        self.response_id = response_id
        self.count = 0
        self.ended = False
        self.last_sequence = -1

    def _seen(self, data: bytes) -> None:
        found = _last_number(data)
        if found is not None:
            self.last_sequence = int(data[found[0] : found[1]])

    def open(self, response: dict[str, Any]) -> list[StoreCall]:
        """The store calls that write the log's first chunk (``response``: the queued response)."""
        opening = _frame("response.created", response, 0) + _frame("response.queued", response, 1)
        return self._put(opening)

    def append(self, data: bytes) -> list[StoreCall]:
        """The store calls that keep ``data``, the producer's next chunk, renumbered (none for
        nothing to keep)."""
        if b"sequence_number" in data:
            data = b"".join(
                _shifted(frame) + b"\n\n"
                for frame in data.split(b"\n\n")
                if frame.strip() and not frame.startswith(b"event: response.created\n")
            )
        return self._put(data)

    def failed(self, response: dict[str, Any]) -> list[StoreCall]:
        """The store calls that keep a ``response.failed`` event (the producer failed)."""
        return self._put(_frame("response.failed", response, self.last_sequence + 1))

    def _put(self, data: bytes) -> list[StoreCall]:
        if not data or self.ended:
            return []
        index, self.count = self.count, self.count + 1
        self._seen(data)
        return [
            StoreCall("put_state", (_chunk_key(self.response_id, index), data, EVENTS_TTL)),
            StoreCall("put_state", (_count_key(self.response_id), str(self.count).encode(), EVENTS_TTL)),
        ]

    def end(self) -> list[StoreCall]:
        """The store call that marks the log complete (once)."""
        if self.ended:
            return []
        self.ended = True
        return [StoreCall("put_state", (_count_key(self.response_id), b"%d." % self.count, EVENTS_TTL))]


def _read_count(value: Any) -> tuple[int, bool]:
    if not isinstance(value, bytes | bytearray):
        return 0, False
    text = bytes(value).decode("ascii", "replace")
    ended = text.endswith(".")
    digits = text.rstrip(".")
    return (int(digits) if digits.isdigit() else 0), ended


def _sequence(frame: bytes) -> int | None:
    found = _last_number(frame)  # a string's quotes are escaped: an unescaped one is the key
    return int(frame[found[0] : found[1]]) if found is not None else None


def replay_frames(chunk: bytes, after: int | None, last: int) -> tuple[bytes, int]:
    """The frames of a kept ``chunk`` a follower sends, and the last sequence number seen.

    A frame with a ``sequence_number`` goes when it is above ``after``; one without (a keep-alive,
    an error event) goes when the numbered frame before it went (``last``: that number, -1 before
    any). ``after=None`` sends every frame.
    """
    if after is None:
        return chunk, last
    out: list[bytes] = []
    for frame in chunk.split(b"\n\n"):
        if not frame.strip():
            continue
        seq = _sequence(frame)
        if seq is not None:
            last = seq
        if last > after:
            out.append(frame + b"\n\n")
    return b"".join(out), last


def follow(
    response_id: str, after: int | None, *, idle: float, poll: float = POLL
) -> Generator[StoreCall | Wait | Emit, Any, None]:
    """A background stream's events after ``after``, then live ones until its log ends; a log
    that grows by nothing for ``idle`` seconds ends with an ``error`` event (its job is gone)."""
    index, last, waited = 0, -1, 0.0
    while True:
        count, ended = _read_count((yield StoreCall("get_state", (_count_key(response_id),))))
        progressed = index < count
        while index < count:
            chunk = yield StoreCall("get_state", (_chunk_key(response_id, index),))
            index += 1
            out, last = replay_frames(chunk or b"", after, last)
            if out:
                yield Emit(out)
        if ended:
            return
        waited = 0.0 if progressed else waited + poll
        if waited > idle:
            yield Emit(_TIMEOUT_EVENT)
            return
        yield Wait(poll)


def _flagged(response_id: str) -> Generator[StoreCall, Any, bool]:
    return (yield StoreCall("get_state", (cancel_key(response_id),))) is not None


def save_final(response_id: str, calls: list[StoreCall]) -> Generator[StoreCall, Any, bool]:
    """Perform ``calls`` (the first keeps the final record) unless the response was cancelled;
    a cancel that comes while they run leaves it cancelled. Whether it was cancelled."""
    if (yield from _flagged(response_id)):
        return True
    yield from calls
    if (yield from _flagged(response_id)):
        kept = calls[0].args[0] if calls and calls[0].method == "put_response" else None
        if isinstance(kept, ResponseRecord):
            yield StoreCall("put_response", (cancelled(kept),))
        return True
    return False


def settle_cancelled(response_id: str) -> Generator[StoreCall, Any, None]:
    """After a job stopped on a cancel: the kept response ``cancelled`` (a job that wrote
    ``in_progress`` after the cancel leaves no other status; a deleted response stays deleted)."""
    kept = yield StoreCall("get_response", (response_id,))
    if isinstance(kept, ResponseRecord) and kept.status != "cancelled":
        yield StoreCall("put_response", (cancelled(kept),))


def forget(record: ResponseRecord) -> Generator[StoreCall, Any, bool]:
    """Delete ``record``; a background response still running is flagged first, so its job stops
    instead of keeping it again. Whether it was kept."""
    if is_background(record.request) and record.status in ACTIVE:
        yield StoreCall("put_state", (cancel_key(record.id), b"1", EVENTS_TTL))
    deleted: bool = yield StoreCall("delete_response", (record.id,))
    return deleted


def cancel(record: ResponseRecord) -> Generator[StoreCall, Any, dict[str, Any]]:
    """Cancel the background response ``record`` (not yet finished: flag it and keep it
    cancelled); the response object to answer."""
    if record.status not in ACTIVE:
        return record.response
    yield StoreCall("put_state", (cancel_key(record.id), b"1", EVENTS_TTL))
    done = cancelled(record)
    yield StoreCall("put_response", (done,))
    return done.response


def wait_cancellable(
    response_id: str, seconds: float, poll: float = POLL
) -> Generator[StoreCall | Wait, Any, bool]:
    """Wait ``seconds`` in ``poll`` steps, reading the cancel flag between them; whether it was set."""
    left = seconds
    while left > 0:
        yield Wait(min(poll, left))
        left -= poll
        if (yield from _flagged(response_id)):
            return True
    return False
