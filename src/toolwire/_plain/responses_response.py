"""The OpenAI Responses reader and writer of the response lanes (see
:mod:`toolwire._plain._response_form`).

Reading: the shape :func:`read_response` reads (anything else returns ``None``, and the general
path runs): a ``response`` object with a non-empty ``id`` and ``model``, a ``status`` of a
finished response (not ``in_progress`` or ``queued``), no ``error``, and an ``output`` of at
most one assistant ``message`` item holding one ``output_text`` part (a non-empty text,
``annotations`` and ``logprobs`` empty when given), then ``function_call`` items (a non-empty
``call_id`` used once, name and arguments; an item ``id`` and ``status`` when given are
strings); ``usage`` as the Responses decoder reads it.

``created_at`` is the creation time when it is an integer (the decoder keeps any other value for
this format only). The request echo fields (``instructions``, ``tools``...) and the fields the
decoder does not name (``billing``, ``completed_at``...) are left out by every other format's
encoder (the echo fields silently, the others noted by the general path), so the reader lets
them be.

Writing: :func:`write_response` writes what
``formats.openai_responses.response.encode_response`` writes for a response of another format:
the response id, ``created_at`` (``0`` when unknown), the status of the stop reason, the output
items (a ``message`` with one ``output_text`` part, then ``function_call`` items, their ids
derived from the response id), the usage, and the request echo fields at their neutral values.
It returns ``None`` for a stop reason the target reports as ``failed``.

``read_typed`` reads the same shape from what the format's typed schema decoded from a JSON body
(:mod:`toolwire._plain._response_wire`; ``translate_response_bytes``): the schema checked the
keys and types, it checks the values left, and makes the same :class:`PlainResponse`.
"""

from __future__ import annotations

from typing import Any, Final

from toolwire._plain._form import Call
from toolwire._plain._response_form import PlainResponse, arguments_json, distinct, typed_usage
from toolwire._plain._response_out import (
    InputDetailsOut,
    OutputCall,
    OutputDetailsOut,
    OutputMessage,
    OutputText,
    ResponseOut,
    ResponseOutBare,
    UsageOut,
)
from toolwire._plain._response_wire import ResponsesMessage
from toolwire.errors import ToolwireError
from toolwire.formats.openai_responses._ids import id_seed, seeded_id
from toolwire.formats.openai_responses._stop import decode_stop, status_of
from toolwire.formats.openai_responses._usage import _NAMES, decode_usage, foreign_usage
from toolwire.ir.response import StopReason, Usage

__all__ = ["read_response", "write_response", "write_wire"]

_MESSAGE = frozenset({"id", "type", "status", "role", "content"})
_PART = frozenset({"type", "text", "annotations", "logprobs"})
_CALL = frozenset({"id", "type", "status", "call_id", "name", "arguments"})
_EMPTY: Final[list[Any]] = []

# The imported names the hot paths read, as Finals: compiled, a static each, not a look-up in
# the module's globals each time one is read.
_OUT_MESSAGE: Final = OutputMessage
_OUT_TEXT: Final = OutputText
_OUT_CALL: Final = OutputCall
_OUT_RESPONSE: Final = ResponseOut
_OUT_BARE: Final = ResponseOutBare
_OUT_INPUT: Final = InputDetailsOut
_OUT_OUTPUT: Final = OutputDetailsOut
_OUT_USAGE: Final = UsageOut
_MESSAGE_IN: Final = ResponsesMessage
_USAGE_NAMES: Final = _NAMES


def _text(item: dict[str, Any]) -> str | None:
    """The text of an assistant ``message`` item of one plain ``output_text`` part."""
    if item.get("role") != "assistant" or type(item.get("id", "")) is not str:
        return None
    if type(item.get("status", "")) is not str:
        return None
    content = item.get("content")
    if type(content) is not list or len(content) != 1 or type(content[0]) is not dict:
        return None
    if len(item) != 3 + ("id" in item) + ("status" in item):  # another field than _MESSAGE's
        return None  # (type, role and content are there, id and status counted)
    part = content[0]
    if part.get("type") != "output_text":
        return None
    if part.get("annotations", _EMPTY) != _EMPTY or part.get("logprobs", _EMPTY) != _EMPTY:
        return None
    text = part.get("text")
    if type(text) is not str or not text:
        return None
    if len(part) != 2 + ("annotations" in part) + ("logprobs" in part):  # another than _PART's
        return None
    return text


def _call(item: dict[str, Any]) -> Call | None:
    """The call of a plain ``function_call`` item (its id not checked against the others')."""
    if type(item.get("id", "")) is not str or type(item.get("status", "")) is not str:
        return None
    call_id, name, arguments = item.get("call_id"), item.get("name"), item.get("arguments")
    if type(call_id) is not str or not call_id:
        return None
    if type(name) is not str or not name or type(arguments) is not str or not arguments:
        return None
    if len(item) != 4 + ("id" in item) + ("status" in item):  # another field than _CALL's (type
        return None  # and the three read are there, id and status counted)
    return call_id, name, arguments


def _output(output: Any, plain: PlainResponse) -> bool:
    """The text and calls of ``output`` read into ``plain``, when plain."""
    if type(output) is not list or not output:
        return False
    for index, item in enumerate(output):
        if type(item) is not dict:
            return False
        kind = item.get("type")
        if kind == "message" and index == 0:
            text = _text(item)
            if text is None:
                return False
            plain.text = text
        elif kind == "function_call":
            call = _call(item)
            if call is None:
                return False
            plain.calls.append(call)
        else:
            return False
    return len(plain.calls) < 2 or distinct(plain.calls)


def read_response(p: Any) -> PlainResponse | None:
    """The :class:`PlainResponse` of a Responses response ``p`` of the module docstring's shape,
    else ``None``."""
    if type(p) is not dict or p.get("object") != "response" or p.get("error") is not None:
        return None
    response_id, model, status = p.get("id"), p.get("model"), p.get("status")
    if type(response_id) is not str or not response_id or type(model) is not str or not model:
        return None
    if type(status) is not str:
        return None
    stop: StopReason | None = "end_turn"  # completed, as decode_stop reads it (no calls read yet)
    raw: Any = status  # a string for a string status (Any: no cast() call at run time)
    if status != "completed":  # the common status
        stop, raw = decode_stop(status, p.get("incomplete_details"), ())
    if stop is None:  # not finished
        return None
    plain = PlainResponse(response_id, model, stop, raw)
    if not _output(p.get("output"), plain):
        return None
    if stop == "end_turn" and plain.calls:
        plain.stop = "tool_calls"
    created = p.get("created_at")
    if type(created) is int:
        plain.created = created
    usage = p.get("usage")
    if usage is not None:
        try:  # not an object: the decoder says so
            plain.usage = decode_usage(usage)
        except ToolwireError:
            return None
    return plain


def _typed_output(output: Any, plain: PlainResponse) -> bool:
    """:func:`_output` of the output of a response its schema decoded."""
    if not output:
        return False
    for index, item in enumerate(output):
        if type(item) is _MESSAGE_IN:
            if index or len(item.content) != 1:
                return False
            part = item.content[0]
            if part.annotations or part.logprobs or not part.text:
                return False
            plain.text = part.text
            continue
        call_id, name, arguments = item.call_id, item.name, item.arguments
        if not call_id or not name or not arguments:
            return False
        plain.calls.append((call_id, name, arguments))
    return len(plain.calls) < 2 or distinct(plain.calls)


def read_typed(r: Any) -> PlainResponse | None:
    """:func:`read_response` of a response its schema decoded (``r``, a
    :class:`~toolwire._plain._response_wire.ResponsesResponse`): the checks left are of values,
    the reader's own; ``None`` too for a usage of an empty details object (which only the
    decoder's general code reads: the caller reads the response again). ``r`` untyped: a field
    its schema types ``int`` may be ``None`` (compiled, a typed local would refuse it)."""
    if not r.id or not r.model:
        return None
    status = r.status
    stop: StopReason | None = "end_turn"  # completed, as decode_stop reads it (no calls read yet)
    raw: Any = status
    if status != "completed":
        stop, raw = decode_stop(status, r.incomplete_details, ())
    if stop is None:  # not finished
        return None
    plain = PlainResponse(r.id, r.model, stop, raw)
    if not _typed_output(r.output, plain):
        return None
    if stop == "end_turn" and plain.calls:
        plain.stop = "tool_calls"
    created = r.created_at
    if type(created) is int:
        plain.created = created
    if r.usage is not None:
        u = r.usage
        plain.usage = typed_usage(
            u.input_tokens,
            u.output_tokens,
            u.total_tokens,
            u.input_tokens_details,
            u.output_tokens_details,
            _USAGE_NAMES,
        )
        if plain.usage is None:
            return None
    return plain


_MESSAGE_ITEM: Final[dict[str, Any]] = {
    "id": "",
    "type": "message",
    "status": "completed",
    "role": "assistant",
    "content": None,
}
"""The keys of :func:`_output_items`' message item in order, its constant values set (copied, as
``_RESPONSE``: a key set replaces a value, no insertion)."""

_CALL_ITEM: Final[dict[str, Any]] = {
    "type": "function_call",
    "call_id": "",
    "name": "",
    "arguments": "",
    "id": "",
    "status": "completed",
}
"""The keys of :func:`_output_items`' ``function_call`` item in order, its constant values set."""


def _output_items(plain: PlainResponse, status: str) -> list[dict[str, Any]] | None:
    """The output items: the text's message, then the calls, ids derived as the encoder does
    (``derived_id(prefix, plain.id, counter)``, the seed encoded once: ``seeded_id``). The items
    are copies of ``_MESSAGE_ITEM`` and ``_CALL_ITEM``, their other keys set (an item's status
    only when not ``completed``, the template's)."""
    head = id_seed(plain.id)
    text = plain.text
    if text is None:
        items: list[dict[str, Any]] = []
        counter = 0
    else:
        part = {"type": "output_text", "text": text, "annotations": [], "logprobs": []}
        message = _MESSAGE_ITEM.copy()
        message["id"] = seeded_id("msg_", head, 1)
        if status != "completed":
            message["status"] = status
        message["content"] = [part]
        items = [message]
        counter = 1
    for call_id, name, arguments in plain.calls:
        if type(arguments) is not str:
            arguments = arguments_json(arguments)
            if arguments is None:
                return None
        counter += 1
        item = _CALL_ITEM.copy()
        item["call_id"] = call_id
        item["name"] = name
        item["arguments"] = arguments
        item["id"] = seeded_id("fc_", head, counter)
        if status != "completed":
            item["status"] = status
        items.append(item)
    return items


def _wire_items(plain: PlainResponse, status: str) -> list[Any] | None:
    """:func:`_output_items` as Structs (:mod:`toolwire._plain._response_out`)."""
    head = id_seed(plain.id)
    text = plain.text
    if text is None:
        items: list[Any] = []
        counter = 0
    else:
        message_id = seeded_id("msg_", head, 1)
        items = [
            _OUT_MESSAGE(message_id, "message", status, "assistant", [_OUT_TEXT("output_text", text, [], [])])
        ]
        counter = 1
    for call_id, name, arguments in plain.calls:
        if type(arguments) is not str:
            arguments = arguments_json(arguments)
            if arguments is None:
                return None
        counter += 1
        item_id = seeded_id("fc_", head, counter)
        items.append(_OUT_CALL("function_call", call_id, name, arguments, item_id, status))
    return items


_COMPLETED: Final[tuple[str, Any, str]] = ("completed", None, "completed")


def _status(stop: StopReason) -> tuple[str, Any, str] | None:
    """The status, incomplete details and items' status of ``stop`` (``status_of``: the lane
    runs under ``drop``, the general path makes the notes), ``None`` for one the target reports
    ``failed``."""
    if stop == "tool_calls" or stop == "end_turn":  # the common stops: completed
        return _COMPLETED
    status, details = status_of(stop)
    if status == "failed":
        return None
    return status, details, "incomplete" if status == "incomplete" else "completed"


_RESPONSE: Final[dict[str, Any]] = {
    "id": "",
    "object": "response",
    "created_at": 0,
    "status": "completed",
    "incomplete_details": None,
    "error": None,
    "model": "",
    "output": None,
    "usage": None,
    "instructions": None,
    "tools": None,
    "tool_choice": "auto",
    "parallel_tool_calls": True,
    "metadata": None,
    "temperature": None,
    "top_p": None,
}
"""The keys of :func:`write_response`'s response in order, its constant values set (``None``,
strings, ``True``: shared by every copy; ``tools`` and ``metadata`` set anew in each). A copy
of it takes its keys' table at once (a ``memcpy``), and setting a key it holds replaces a
value: a 16-key response built so costs about half the instructions of its literal (pure
Python, cachegrind: 3.5K vs 6.2K; each key of a literal is an insertion)."""


def write_response(plain: PlainResponse) -> dict[str, Any] | None:
    """The Responses ``response`` the general path writes for ``plain`` (see the module
    docstring), or ``None``. The lane runs under ``drop``: the general path makes the notes, and
    the status and usage are written without them (``status_of``, ``foreign_usage``); the request
    echo fields last, as ``echo_defaults`` gives them (from ``_RESPONSE``, the other keys set:
    ``tests/plain/test_response_lane_responses_writer.py`` holds them to it)."""
    state = _status(plain.stop)
    if state is None:
        return None
    status, details, item_status = state
    output = _output_items(plain, item_status)
    if output is None:
        return None
    created = plain.created
    usage = plain.usage
    out = _RESPONSE.copy()
    out["id"] = plain.id
    if created is not None:
        out["created_at"] = created
    if status != "completed" or details is not None:  # the template's are the common stops'
        out["status"] = status
        out["incomplete_details"] = details
    out["model"] = plain.model
    out["output"] = output
    if usage is None:
        del out["usage"]  # no usage: none written (the keys after it keep their order)
    else:
        out["usage"] = foreign_usage(usage)
    out["tools"] = []
    out["metadata"] = {}
    return out


def write_wire(plain: PlainResponse) -> Any:
    """:func:`write_response` as Structs that encode to the same JSON (the bytes API's writer,
    :mod:`toolwire._plain._response_out`), or ``None``; the common stops' status inline."""
    state = _status(plain.stop)
    if state is None:
        return None
    status, details, item_status = state
    output = _wire_items(plain, item_status)
    if output is None:
        return None
    created = plain.created
    if created is None:
        created = 0
    usage = plain.usage
    if usage is None:
        return _OUT_BARE(plain.id, "response", created, status, details, None, plain.model, output)
    usage_out = _wire_usage(usage)
    return _OUT_RESPONSE(plain.id, "response", created, status, details, None, plain.model, output, usage_out)


def _wire_usage(usage: Usage) -> Any:
    """``foreign_usage(usage)`` as Structs (the details of a cache write only: a dict, its keys
    in that order). A count is an integer or ``None``: ``or 0`` is ``0`` for ``None``."""
    inp = usage.input_tokens or 0
    out = usage.output_tokens or 0
    cached, write = usage.cached_tokens, usage.cache_creation_tokens
    if cached is not None:
        inner: Any = _OUT_INPUT(cached, write or 0)
    elif write is not None:
        inner = {"cache_write_tokens": write, "cached_tokens": 0}
    else:
        inner = _OUT_INPUT(0, 0)
    total = usage.total_tokens
    details = _OUT_OUTPUT(usage.reasoning_tokens or 0)
    return _OUT_USAGE(inp, out, inner, details, inp + out if total is None else total)
