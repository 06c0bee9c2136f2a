"""Input and output items -> IR parts and messages.

Each item decodes to one of three things (see :func:`decode_item`):

``("assistant", parts)``  model output: ``message`` items of role ``assistant`` (one part per
                          content part; the item's own fields ride on the first part as the
                          ``~msg`` hint), ``reasoning``, ``function_call``,
                          ``custom_tool_call`` and every built-in call item (``web_search_call``,
                          ``mcp_call``, ``compaction``...; kept verbatim as a
                          :class:`ToolCall` ``kind="builtin"`` named after the item type).
``("tool", part)``        tool results: ``function_call_output``, ``custom_tool_call_output``
                          and built-in outputs (``*_output``, ``mcp_approval_response``,
                          verbatim as :class:`ToolResult` ``kind="builtin"``).
``("message", message)``  a ``user`` / ``system`` / ``developer`` message item, or an item
                          the IR has no place for (``item_reference``): a part-less message
                          holding the item verbatim in the ``~item`` hint.
"""

from __future__ import annotations

from typing import Any, Literal

from toolwire.formats._wire import as_dict, child, fail, opt_str, req_name, req_str
from toolwire.formats.openai_responses._content import decode_content
from toolwire.formats.openai_responses._extra import split_fields
from toolwire.ir.base import Extra
from toolwire.ir.content import Message, Part, ReasoningPart, Role, TextPart, ToolCall, ToolResult

__all__ = ["Decoded", "decode_item", "opaque_call"]

Decoded = (
    tuple[Literal["assistant"], list[Part]]
    | tuple[Literal["tool"], Part]
    | tuple[Literal["message"], Message]
)

_STATUS = frozenset({"status"})
_OUTPUT_QUIET = frozenset({"status", "id"})
_MESSAGE_KNOWN = frozenset({"type", "role", "content", "id"})
_REASONING_KNOWN = frozenset({"type", "id", "summary", "content", "encrypted_content"})
_CALL_KNOWN = frozenset({"type", "call_id", "name", "arguments", "input", "id", "namespace"})
_RESULT_KNOWN = frozenset({"type", "call_id", "output", "name"})
_ROLES: dict[str, Role] = {"user": "user", "system": "system", "developer": "developer"}
_RESULT_TYPES = frozenset({"mcp_approval_response"})


def _assistant(parts: list[Part]) -> Decoded:
    return "assistant", parts


def opaque_call(item: dict[str, Any], kind: str) -> ToolCall:
    """An item kept verbatim as a built-in :class:`ToolCall` named after its type."""
    call_id = item.get("call_id")
    item_id = item.get("id")
    return ToolCall(
        name=kind,
        id=call_id if type(call_id) is str else None,
        item_id=item_id if type(item_id) is str else None,
        kind="builtin",
        extra={"~item": item},
    )


def _opaque_result(item: dict[str, Any], kind: str) -> ToolResult:
    call_id = item.get("call_id")
    return ToolResult(
        call_id=call_id if type(call_id) is str else None, name=kind, kind="builtin", extra={"~item": item}
    )


def _content(item: dict[str, Any], path: str, default: str) -> tuple[tuple[Any, ...], bool, bool]:
    """Parts of a message item's ``content``, whether it was a string, whether all parts were known."""
    content = item.get("content")
    if type(content) is str:
        return (TextPart(text=content),), True, True
    if content is None:
        fail(child(path, "content"), "missing required field 'content'")
    parts, complete = decode_content(content, child(path, "content"), default)
    return parts, False, complete


def _assistant_message(item: dict[str, Any], path: str, output: bool) -> Decoded:
    opt_str(item, "id", path)  # a wrong-typed id fails here, not later in an encoder
    parts, string, complete = _content(item, path, "output_text")
    fields = {key: value for key, value in item.items() if key != "content"}
    if not complete or (not parts and output):
        return _assistant([opaque_call(item, "message")])
    if not parts:
        return "message", Message(role="assistant", id=opt_str(item, "id", path), extra={"~msg": fields})
    first = parts[0]
    first.extra["~msg"] = fields
    if string:
        first.extra["~string"] = True
    return _assistant(list(parts))


def _message(item: dict[str, Any], path: str, output: bool) -> Decoded:
    role = item.get("role")
    if role == "assistant":
        return _assistant_message(item, path, output)
    ir_role = _ROLES.get(role) if type(role) is str else None
    if ir_role is None:
        fail(child(path, "role"), "expected 'user', 'assistant', 'system' or 'developer'")
    if output:
        return _assistant([opaque_call(item, "message")])
    content = item.get("content")
    if len(item) == 2 and type(content) is str and content:  # the common {"role", "content": "..."}
        return "message", Message(role=ir_role, parts=(TextPart(text=content),), extra={"~string": True})
    parts, string, complete = _content(item, path, "input_text")
    extra = split_fields(item, _MESSAGE_KNOWN, _STATUS)
    if "type" in item:
        extra["~typed"] = True
    if string:
        extra["~string"] = True
    if not complete:
        extra["~item"] = item
    return "message", Message(role=ir_role, parts=parts, id=opt_str(item, "id", path), extra=extra)


def _texts(value: Any, kind: str) -> list[str] | None:
    """The texts of a ``summary`` / ``content`` array in canonical shape, else ``None``."""
    if type(value) is not list:
        return None
    texts = []
    for entry in value:
        if type(entry) is not dict or entry.get("type") != kind or len(entry) != 2:
            return None
        text = entry.get("text")
        if type(text) is not str:
            return None
        texts.append(text)
    return texts


def _reasoning(item: dict[str, Any], path: str, output: bool) -> Decoded:
    extra = split_fields(item, _REASONING_KNOWN, _STATUS)
    summary = _texts(item.get("summary"), "summary_text")
    if summary is None:
        extra["~summary"] = item.get("summary", "absent")
        summary = []
    content = item.get("content")
    texts = _texts(content, "reasoning_text") if content is not None else []
    if texts is None or len(texts) > 1:
        extra["~content"] = content
    part = ReasoningPart(
        text="\n".join(texts) if texts else None,
        summary=tuple(summary),
        encrypted=opt_str(item, "encrypted_content", path),
        id=opt_str(item, "id", path),
        origin="openai-responses",
        extra=extra,
    )
    return _assistant([part])


def _call(item: dict[str, Any], path: str, output: bool) -> Decoded:
    custom = item["type"] == "custom_tool_call"
    part = ToolCall(
        id=req_str(item, "call_id", path),
        name=req_name(item, "name", path),
        arguments=req_str(item, "input" if custom else "arguments", path),
        kind="custom" if custom else "function",
        item_id=opt_str(item, "id", path),
        namespace=opt_str(item, "namespace", path),
        extra=split_fields(item, _CALL_KNOWN, _STATUS),
    )
    return _assistant([part])


def _result(item: dict[str, Any], path: str, output: bool) -> Decoded:
    out = item.get("output")
    extra: Extra = split_fields(item, _RESULT_KNOWN, _OUTPUT_QUIET)
    if type(out) is str:
        parts: tuple[Any, ...] = (TextPart(text=out),)
        extra["~string"] = True
    elif out is None:
        fail(child(path, "output"), "missing required field 'output'")
    else:
        parts, complete = decode_content(out, child(path, "output"), "input_text")
        if not complete:
            extra["~item"] = item
    part = ToolResult(
        call_id=opt_str(item, "call_id", path),
        content=parts,
        name=opt_str(item, "name", path),
        kind="custom" if item["type"] == "custom_tool_call_output" else "function",
        extra=extra,
    )
    return "tool", part


_DECODERS = {
    "message": _message,
    "reasoning": _reasoning,
    "function_call": _call,
    "custom_tool_call": _call,
    "function_call_output": _result,
    "custom_tool_call_output": _result,
}


def decode_item(item: Any, path: str, *, output: bool = False) -> Decoded:
    """Decode one input or output item (``output``: it sits in a response's ``output``)."""
    item = as_dict(item, path)
    kind = item.get("type")
    if kind is None:
        if "role" in item:
            return _message(item, path, output)
        if "id" in item and not output:  # an item reference whose type was left out
            return "message", Message(role="user", extra={"~item": item})
        fail(child(path, "type"), "missing required field 'type'")
    if type(kind) is not str:
        fail(child(path, "type"), "expected a string")
    decoder = _DECODERS.get(kind)
    if decoder is not None:
        return decoder(item, path, output)
    if kind.endswith("_output") or kind in _RESULT_TYPES:
        return "tool", _opaque_result(item, kind)
    if kind == "item_reference" and not output:
        return "message", Message(role="user", extra={"~item": item})
    return _assistant([opaque_call(item, kind)])
