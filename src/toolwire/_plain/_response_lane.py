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

__all__ = ["RESPONSE_READERS", "RESPONSE_WRITERS", "response_lane"]

RESPONSE_READERS: dict[str, Callable[[Any], PlainResponse | None]] = {
    "openai-chat": chat_response.read_response,
    "anthropic": anthropic_response.read_response,
    "gemini": gemini_response.read_response,
    "openai-responses": responses_response.read_response,
}
"""Each format's response reader: its response as a :class:`PlainResponse`, or ``None``."""

RESPONSE_WRITERS: dict[str, Callable[[PlainResponse], dict[str, Any] | None]] = {
    "openai-chat": chat_response.write_response,
    "openai-responses": responses_response.write_response,
    "anthropic": anthropic_response.write_response,
    "gemini": gemini_response.write_response,
}
"""Each format's response writer: a :class:`PlainResponse` as its response, or ``None``."""


def response_lane(payload: Any, source: str, target: str, policy: str) -> dict[str, Any] | None:
    """The target response of ``payload`` by the pair's lane, or ``None`` (a policy other than
    ``drop``, no lane for the pair, or a response not plain: the general path runs)."""
    if policy != "drop" or source == target:  # a same-format response keeps its own forms (hints)
        return None
    reader = RESPONSE_READERS.get(source)
    writer = RESPONSE_WRITERS.get(target)
    if reader is None or writer is None:
        return None
    plain = reader(payload)
    return None if plain is None else writer(plain)
