"""Sans-IO steps of executing one tool call: look up, validate, and turn outcomes into results.

The sync and async executors only differ in how they wait for approval and for the handler;
everything else about a call (unknown tools, bad arguments, exceptions, timeouts, result
conversion) is decided here, once.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from toolwire.errors import ToolwireError
from toolwire.ir.content import ContentPart, FilePart, ImagePart, TextPart, ToolCall, ToolResult
from toolwire.runner._toolbox import RegisteredTool, Toolbox

__all__ = [
    "PreparedCall",
    "approval_failed_result",
    "denied_result",
    "error_result",
    "exception_result",
    "lookup",
    "not_run_result",
    "prepare_call",
    "result_from_value",
    "timeout_result",
]

_CONTENT_TYPES = (TextPart, ImagePart, FilePart)


@dataclass(frozen=True, slots=True)
class PreparedCall:
    """A call that may run: its tool and validated arguments."""

    call: ToolCall
    entry: RegisteredTool
    arguments: dict[str, Any]


def error_result(call: ToolCall, message: str) -> ToolResult:
    """A tool result telling the model the call failed."""
    return ToolResult(
        call_id=call.id, name=call.name, kind=call.kind, is_error=True, content=(TextPart(text=message),)
    )


def lookup(call: ToolCall, toolbox: Toolbox) -> RegisteredTool | ToolResult:
    """The tool the call names, or the error result for an unknown tool."""
    entry = toolbox.get(call.name)
    if entry is None or call.kind == "builtin":
        known = ", ".join(sorted(e.name for e in toolbox)) or "none"
        return error_result(call, f"Error: unknown tool {call.name!r} (available tools: {known}).")
    return entry


def prepare_call(call: ToolCall, toolbox: Toolbox) -> PreparedCall | ToolResult:
    """The call ready to run (its arguments validated), or the error result to send back instead."""
    entry = lookup(call, toolbox)
    if isinstance(entry, ToolResult):
        return entry
    try:
        arguments = entry.validate(call.arguments)
    except ToolwireError as exc:
        return error_result(call, f"Error: invalid arguments for {call.name!r}: {exc}")
    return PreparedCall(call, entry, arguments)


def _parts(value: Sequence[Any]) -> tuple[ContentPart, ...] | None:
    if value and all(isinstance(item, _CONTENT_TYPES) for item in value):
        return tuple(value)
    return None


def result_from_value(call: ToolCall, value: Any) -> ToolResult:
    """A successful tool result from what a handler returned.

    Text stays text; content parts (text, images, files) are kept as parts; anything else is
    sent as JSON (pydantic models through ``model_dump``). A value JSON cannot encode, or text
    that is not valid Unicode (lone surrogates, as ``surrogateescape`` leaves them), cannot be
    sent: it becomes an error result.
    """
    if isinstance(value, ToolResult):
        return value
    try:
        result = _success(call, value)
    except (TypeError, ValueError) as exc:  # circular structures, non-string keys
        message = f"returned a value that cannot be sent as JSON ({type(exc).__name__}: {exc})"
        return error_result(call, f"Error: tool {call.name!r} {message}.")
    bad = _invalid_unicode(result)
    if bad is not None:
        message = f"returned text that is not valid Unicode ({bad})"
        return error_result(call, f"Error: tool {call.name!r} {message}.")
    return result


def _success(call: ToolCall, value: Any) -> ToolResult:
    if isinstance(value, _CONTENT_TYPES):
        content: tuple[ContentPart, ...] = (value,)
    elif isinstance(value, (list, tuple)) and (parts := _parts(value)) is not None:
        content = parts
    elif isinstance(value, str):
        content = (TextPart(text=value),)
    else:
        content = (TextPart(text=_to_json(value)),)
    return ToolResult(call_id=call.id, name=call.name, kind=call.kind, content=content)


def _invalid_unicode(result: ToolResult) -> str | None:
    """Where the result's text cannot be encoded as UTF-8, or ``None``."""
    for part in result.content:
        if isinstance(part, TextPart):
            try:
                part.text.encode("utf-8")
            except UnicodeEncodeError as exc:
                return f"{exc.reason} at index {exc.start}"
    return None


def _to_json(value: Any) -> str:
    if hasattr(value, "model_dump"):
        value = value.model_dump(mode="json")
    return json.dumps(value, ensure_ascii=False, default=str)


def exception_result(call: ToolCall, exc: BaseException) -> ToolResult:
    """The error result for a handler that raised ``exc``."""
    return error_result(call, f"Error: tool {call.name!r} raised {type(exc).__name__}: {exc}")


def timeout_result(call: ToolCall, seconds: float) -> ToolResult:
    """The error result for a handler that took longer than ``seconds``."""
    return error_result(call, f"Error: tool {call.name!r} timed out after {seconds:g} s.")


def denied_result(call: ToolCall) -> ToolResult:
    """The error result for a call the approval callback refused."""
    return error_result(call, f"Error: the call of {call.name!r} was not approved by the user.")


def approval_failed_result(call: ToolCall, exc: BaseException) -> ToolResult:
    """The error result for a call whose approval callback raised ``exc`` (the call did not run)."""
    return error_result(call, f"Error: approval failed for {call.name!r}: {type(exc).__name__}: {exc}")


def not_run_result(call: ToolCall, reason: str) -> ToolResult:
    """The error result for a call the run ended before running (``reason`` says why)."""
    return error_result(call, f"Error: tool {call.name!r} not run: {reason}.")
