"""The OpenAI Responses writer of the response lanes (see :mod:`toolwire._plain._response_form`).

It writes what ``formats.openai_responses.response.encode_response`` writes for a response of
another format: the response id, ``created_at`` (``0`` when unknown), the status of the stop
reason, the output items (a ``message`` with one ``output_text`` part, then ``function_call``
items, their ids derived from the response id), the usage, and the request echo fields at their
neutral values. It returns ``None`` for a stop reason the target reports as ``failed``.
"""

from __future__ import annotations

from typing import Any

from toolwire._plain._form import arguments_text
from toolwire._plain._response_form import PlainResponse
from toolwire.formats.openai_responses._ids import derived_id
from toolwire.formats.openai_responses._stop import encode_status
from toolwire.formats.openai_responses._usage import encode_usage
from toolwire.formats.openai_responses.response import echo_defaults
from toolwire.ir.notes import Notes

__all__ = ["write_response"]


def _output(plain: PlainResponse, status: str) -> list[dict[str, Any]] | None:
    """The output items: the text's message, then the calls, ids derived as the encoder does."""
    seed = plain.id
    items: list[dict[str, Any]] = []
    counter = 0
    if plain.text is not None:
        counter += 1
        part = {"type": "output_text", "text": plain.text, "annotations": [], "logprobs": []}
        message_id = derived_id("msg", seed, counter)
        items.append(
            {"id": message_id, "type": "message", "status": status, "role": "assistant", "content": [part]}
        )
    for call_id, name, arguments in plain.calls:
        text = arguments_text(arguments)
        if text is None:
            return None
        counter += 1
        item_id = derived_id("fc", seed, counter)
        item = {"type": "function_call", "call_id": call_id, "name": name, "arguments": text}
        item["id"] = item_id
        item["status"] = status
        items.append(item)
    return items


def write_response(plain: PlainResponse) -> dict[str, Any] | None:
    """The Responses ``response`` the general path writes for ``plain`` (see the module
    docstring), or ``None``."""
    scratch = Notes("drop")  # the lane runs under drop: the general path makes the notes
    status, details = encode_status(plain.stop, plain.raw_stop, scratch)
    if status == "failed":
        return None
    out: dict[str, Any] = {
        "id": plain.id,
        "object": "response",
        "created_at": 0 if plain.created is None else plain.created,
        "status": status,
        "incomplete_details": details,
        "error": None,
        "model": plain.model,
    }
    output = _output(plain, "incomplete" if status == "incomplete" else "completed")
    if output is None:
        return None
    out["output"] = output
    if plain.usage is not None:
        out["usage"] = encode_usage(plain.usage, scratch, same=False)
    out.update(echo_defaults())
    return out
