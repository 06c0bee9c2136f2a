"""Server-sent events encoding: events and comments to wire bytes (LF line endings).

The output is what :class:`~toolwire.framing.SSEDecoder` (and any WHATWG-conforming client)
reads back: multi-line data becomes several ``data:`` lines, every event ends with a blank
line. SSE cannot carry a CR inside a data line: CRLF and CR in data are written as LF.
"""

from __future__ import annotations

from toolwire.errors import PayloadError
from toolwire.framing.sse import SSEEvent

__all__ = ["DONE", "SSEEncoder", "encode_comment", "encode_sse"]

DONE = b"data: [DONE]\n\n"
"""OpenAI's end-of-stream sentinel event, encoded."""


def _split(text: str) -> list[str]:
    """Split ``text`` at CRLF, CR and LF (the SSE line endings), nothing else."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.split("\n")


def _check_field(name: str, value: str) -> None:
    """Reject a single-line field value that would break the framing."""
    if "\n" in value or "\r" in value:
        raise PayloadError(f"SSE {name} field cannot contain a line break: {value!r}")


def encode_sse(event: str | None, data: str, id: str | None = None, retry: int | None = None) -> bytes:
    """Encode one event: ``event:``, ``id:``, ``retry:``, ``data:`` lines and a blank line.

    ``event`` ``None`` or ``""`` writes no ``event:`` line (the type is then ``"message"``);
    ``id``/``retry`` ``None`` write no line. Bad field values raise
    :class:`~toolwire.errors.PayloadError`.
    """
    head = ""
    if event:
        _check_field("event", event)
        head = f"event: {event}\n"
    if id is not None:
        _check_field("id", id)
        if "\0" in id:
            raise PayloadError(f"SSE id field cannot contain NUL: {id!r}")
        head += f"id: {id}\n"
    if retry is not None:
        if isinstance(retry, bool) or not isinstance(retry, int) or retry < 0:
            raise PayloadError(f"SSE retry must be a non-negative integer: {retry!r}")
        head += f"retry: {retry}\n"
    if "\n" not in data and "\r" not in data:
        return f"{head}data: {data}\n\n".encode()
    body = "".join(f"data: {line}\n" for line in _split(data))
    return f"{head}{body}\n".encode()


def encode_comment(text: str = "") -> bytes:
    """Encode a comment (``: text``, one line per line of ``text``) followed by a blank line.

    Decoders ignore comments; servers send them as keep-alives.
    """
    return "".join(f": {line}\n" if line else ":\n" for line in _split(text)).encode() + b"\n"


class SSEEncoder:
    """Encodes :class:`SSEEvent` objects; writes ``id:`` only when the stream's id changes.

    SSE ids persist on the client until changed, and :class:`SSEDecoder` reports the
    persisting id on every event, so decode -> encode -> decode reproduces the events.
    """

    def __init__(self) -> None:
        self.last_event_id: str | None = None

    def encode(self, ev: SSEEvent) -> bytes:
        """Encode one decoded event (or comment) back to wire bytes."""
        if ev.comment is not None:
            return encode_comment(ev.comment)
        new_id = ev.id if ev.id is not None and ev.id != self.last_event_id else None
        out = encode_sse(ev.event, ev.data, new_id, ev.retry)
        if new_id is not None:
            self.last_event_id = new_id
        return out

    def event(self, event: str | None, data: str, id: str | None = None, retry: int | None = None) -> bytes:
        """Encode an event from its fields (same rules as :meth:`encode`)."""
        return self.encode(SSEEvent(event, data, id, retry))

    def comment(self, text: str = "") -> bytes:
        """Encode a comment (keep-alive)."""
        return encode_comment(text)

    def done(self) -> bytes:
        """Encode OpenAI's ``data: [DONE]`` sentinel."""
        return DONE
