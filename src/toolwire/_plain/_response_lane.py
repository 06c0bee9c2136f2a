"""Response lanes: a plain response straight from its source dict to the target payload.

See :mod:`toolwire._plain._response_form`. A lane is a reader of the source format and a writer
of the target format; :func:`response_lane` runs the pair's under the ``drop`` policy, and the
general path runs for every other response.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolwire._plain import (
    anthropic_response,
    chat_response,
    gemini_response,
    responses_response,
)
from toolwire._plain._response_form import PlainResponse

__all__ = ["RESPONSE_LANES", "RESPONSE_READERS", "RESPONSE_WRITERS", "response_lane"]

Reader = Callable[[Any], PlainResponse | None]
Writer = Callable[[PlainResponse], dict[str, Any] | None]

RESPONSE_READERS: dict[str, Reader] = {
    "openai-chat": chat_response.read_response,
    "anthropic": anthropic_response.read_response,
    "gemini": gemini_response.read_response,
    "openai-responses": responses_response.read_response,
}
"""Each format's response reader: its response as a :class:`PlainResponse`, or ``None``."""

RESPONSE_WRITERS: dict[str, Writer] = {
    "openai-chat": chat_response.write_response,
    "openai-responses": responses_response.write_response,
    "anthropic": anthropic_response.write_response,
    "gemini": gemini_response.write_response,
}
"""Each format's response writer: a :class:`PlainResponse` as its response, or ``None``."""


RESPONSE_LANES: dict[tuple[str, str], tuple[Reader, Writer]] = {
    (source, target): (reader, writer)
    for source, reader in RESPONSE_READERS.items()
    for target, writer in RESPONSE_WRITERS.items()
    if source != target  # a same-format response keeps its own forms (hints)
}
"""Each pair's lane, ``(source, target) -> (reader, writer)``: one look-up a call."""


def response_lane(payload: Any, source: str, target: str, policy: str) -> dict[str, Any] | None:
    """The target response of ``payload`` by the pair's lane, or ``None`` (a policy other than
    ``drop``, no lane for the pair, or a response not plain: the general path runs)."""
    if policy != "drop":
        return None
    lane = RESPONSE_LANES.get((source, target))
    if lane is None:
        return None
    plain = lane[0](payload)
    return None if plain is None else lane[1](plain)
