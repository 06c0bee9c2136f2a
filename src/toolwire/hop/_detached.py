"""A ``background: true`` Responses request in front of a stateless upstream, as steps (no I/O).

The hop translates the request in the foreground (a refused translation is still a 400), keeps
the response ``queued`` and answers it (``stream: true``: follows the response's event log from
the store, :func:`toolwire.store.background.follow`); the upstream call runs in a
:class:`~toolwire.hop._steps.BackgroundJob` the shell starts (:class:`~toolwire.hop._steps.Detach`).
The job keeps the response ``in_progress``, then its final record (``completed``, ``incomplete``,
or ``failed`` with the upstream's error as the response's ``error``); a stream's client chunks go
to the log as they come. The rules shared with the emulator are in
:mod:`toolwire.store.background`.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

import msgspec

from toolwire._json import dumps, loads
from toolwire.errors import PayloadError, TransportError
from toolwire.hop._relay import StreamRelay
from toolwire.hop._stateful import ResponsesFacade, response_id
from toolwire.hop._steps import BackgroundJob, Detach, ReadChunk, Reply, ReplyFollow, client_error
from toolwire.hop._stored import save_calls
from toolwire.store.background import (
    POLL,
    STORE_REQUIRED,
    Cancelled,
    EventLog,
    StoreCall,
    follow,
    save_final,
    settle_cancelled,
    with_status,
)

if TYPE_CHECKING:
    from toolwire.hop._config import Upstream
    from toolwire.hop.core import Hop
    from toolwire.store import ResponseRecord

__all__ = ["generate_in_background"]

_JSON = {"content-type": "application/json"}
_SSE = {"content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache"}
_FOREGROUND_ONLY = (
    "Background responses need the gateway server (toolwire serve); this shell answers in the "
    "foreground only."
)
_Job = Generator[Any, Any, None]
ERROR_CODES = {400: "invalid_prompt", 429: "rate_limit_exceeded"}
"""Status of the upstream's error -> the failed response's ``error.code`` (else ``server_error``)."""


def _refused(message: str) -> Reply:
    return client_error("openai-responses", 400, message, type="invalid_request_error", param="background")


def generate_in_background(
    hop: Hop, facade: ResponsesFacade, ex: Any, upstream: Upstream, up: Any
) -> Generator[Any, Any, Reply | ReplyFollow]:
    """Keep the response ``queued``, start its job, answer (see the module docstring)."""
    if facade.request.get("store") is False:
        return _refused(STORE_REQUIRED)
    if not hop.background:
        return _refused(_FOREGROUND_ONLY)
    rid = response_id(f"background:{hop.record.request_id}")
    facade.fixed_id = rid
    skeleton: dict[str, Any] = {
        "id": rid,
        "object": "response",
        "created_at": int(hop._clock()),
        "status": "queued",
        "error": None,
        "incomplete_details": None,
        "model": facade.request.get("model"),
        "output": [],
        "usage": None,
    }
    queued = facade.finish(skeleton)
    assert facade.make_record is not None
    record = facade.make_record(queued, facade.request, facade.previous)
    log = EventLog(rid)
    calls = [StoreCall("put_response", (record,)), *(log.open(queued) if up.stream else [])]
    refused = yield from save_calls("openai-responses", calls)
    if refused is not None:
        return refused
    yield Detach(BackgroundJob(rid, _job(hop, facade, ex, upstream, up, record, log), POLL))
    if up.stream:
        return ReplyFollow(200, dict(_SSE), follow(rid, None, idle=hop.config.limits.stream_idle_timeout))
    return Reply(200, dict(_JSON), dumps(queued))


def _job(
    hop: Hop,
    facade: ResponsesFacade,
    ex: Any,
    upstream: Upstream,
    up: Any,
    record: ResponseRecord,
    log: EventLog,
) -> _Job:
    try:
        yield StoreCall("put_response", (with_status(record, "in_progress"),))
        try:
            received = yield hop._send(upstream, up.path, up.headers, up.body, up.stream)
        except TransportError as exc:
            yield from _fail(record, hop._transport_failed("openai-responses", exc), log, up.stream)
            return
        if received.status >= 400:
            answer = hop._upstream_error(ex, "openai-responses", upstream.name, received, {})
            yield from _fail(record, answer, log, up.stream)
        elif up.stream:
            yield from _pump(facade, ex, log)
            if not facade.saved:  # the stream ended without its final event
                ended = client_error("openai-responses", 502, "The upstream stream ended before the response")
                yield from _fail(record, ended, log, True)
        else:
            out = hop._whole(ex, "openai-responses", received)
            if isinstance(out, Reply):
                yield from _fail(record, out, log, False)
            elif (yield from save_final(record.id, facade.save(facade.finish(out)))):
                raise Cancelled
    except Cancelled:
        yield from settle_cancelled(record.id)
    if up.stream:
        yield from log.end()


def _pump(facade: ResponsesFacade, ex: Any, log: EventLog) -> _Job:
    """The upstream stream through the relay into the log; the final record kept (unless
    cancelled) before the chunk that carries it."""
    relay = StreamRelay(ex)
    while True:
        try:
            chunk = yield ReadChunk()
        except TransportError:
            chunk = b""
        out = relay.feed(chunk) if chunk else relay.close()
        if out:
            out, calls = facade.frames(out)
            if calls and (yield from save_final(log.response_id, calls)):
                raise Cancelled
            yield from log.append(out)
        if not chunk:
            return


def _error_object(reply: Reply) -> dict[str, Any]:
    """A failed response's ``error``: the client-shaped error's message, a code of the API's
    ``ResponseErrorCode`` list picked by status (:data:`ERROR_CODES`)."""
    try:
        error = loads(reply.body).get("error")
    except (PayloadError, AttributeError):
        error = None
    message = error.get("message") if isinstance(error, dict) else None
    text = message if isinstance(message, str) and message else "The upstream call failed"
    return {"code": ERROR_CODES.get(reply.status, "server_error"), "message": text}


def _fail(record: ResponseRecord, reply: Reply, log: EventLog, stream: bool) -> _Job:
    """Keep the response ``failed`` with the upstream's error (a stream: and a
    ``response.failed`` event)."""
    failed = with_status(record, "failed")
    response = {**failed.response, "error": _error_object(reply)}
    failed = msgspec.structs.replace(failed, response=response)
    if (yield from save_final(record.id, [StoreCall("put_response", (failed,))])):
        raise Cancelled
    if stream:
        yield from log.failed(response)
        yield from log.end()
