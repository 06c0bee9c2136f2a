"""Fit an encoded Chat request to one provider's dialect (see :mod:`.dialects`).

The Chat encoder writes the Chat Completions API; :func:`fit_dialect` then rewrites what the
target provider spells or accepts differently, one table-driven step at a time, each change a
note:

* call ids: Mistral's ``^[a-zA-Z0-9]{9}$`` (``mistral_call_id``: deterministic, so every turn of
  a conversation maps the same way; the ids the provider answers with are its own and reach the
  client unchanged, so nothing needs restoring);
* fields: the output limit under the provider's name, fields it refuses dropped, fields of
  another provider's dialect dropped;
* ``tool_choice`` values it lacks (``any`` -> ``required``), ``type`` where it is required;
* roles (``developer`` -> ``system``) and closed message schemas (Mistral);
* reasoning on assistant messages (``reasoning_content``, ``reasoning``, OpenRouter
  ``reasoning_details``, Mistral thinking chunks): replayed only to the provider that wrote it,
  and only as far as that provider takes it back (:attr:`.Dialect.replay`).

The request is rewritten in place: every dict it touches is one the encoder built for it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolwire.formats.openai_chat._ids import mistral_call_id
from toolwire.formats.openai_chat.dialects import DIALECTS, Dialect
from toolwire.ir.notes import Notes

__all__ = ["REASONING_KEYS", "fit_dialect"]

REASONING_KEYS = ("reasoning_content", "reasoning", "reasoning_details")
"""Assistant message fields that carry reasoning in some dialect."""


class _Fit:
    """One request being fitted: target and source dialects, notes."""

    __slots__ = ("dialect", "last_user", "notes", "source")

    def __init__(self, dialect: Dialect, source: Dialect | None, notes: Notes) -> None:
        self.dialect = dialect
        self.source = source
        self.notes = notes
        self.last_user = -1

    def drop(self, obj: dict[str, Any], key: str, path: str, why: str) -> None:
        """Remove ``obj[key]``: a loss note unless its value carries nothing (null, false)."""
        value = obj.pop(key)
        if value is None or value is False:
            self.notes.info(path, "dropped", why)
        else:
            self.notes.add(path, "dropped", why)

    def own_history(self) -> bool:
        """Whether the request was written for the target provider itself."""
        return self.source is not None and self.source.name == self.dialect.name

    def foreign(self, own: Callable[[Dialect], frozenset[str]]) -> frozenset[str]:
        """Fields of the source dialect (``own`` of it) that the target does not have."""
        if self.source is None or self.source.name == self.dialect.name:
            return frozenset()
        return own(self.source) - own(self.dialect)


# ---------------------------------------------------------------- top level


def _fit_fields(out: dict[str, Any], fit: _Fit) -> None:
    d = fit.dialect
    if d.max_tokens == "max_tokens" and "max_completion_tokens" in out:
        value = out.pop("max_completion_tokens")
        if "max_tokens" not in out:
            out["max_tokens"] = value
            fit.notes.info("$.max_completion_tokens", "renamed", f"{d.title} reads the limit as max_tokens")
    for key in [k for k in out if k in d.rejects or k in fit.foreign(lambda x: x.fields)]:
        fit.drop(out, key, f"$.{key}", f"{d.title} does not accept '{key}'")


def _fit_tool_choice(out: dict[str, Any], fit: _Fit) -> None:
    choice = out.get("tool_choice")
    d = fit.dialect
    if type(choice) is str and choice not in d.tool_choice and choice == "any":
        out["tool_choice"] = "required"
        fit.notes.info("$.tool_choice", "renamed", f"tool_choice 'any' sent as 'required' to {d.title}")
    elif type(choice) is dict and "type" not in choice and not d.optional_types:
        out["tool_choice"] = {"type": "function", **choice}


def _fit_tools(out: dict[str, Any], fit: _Fit) -> None:
    d = fit.dialect
    tools: list[dict[str, Any]] = out.get("tools") or []
    for index, tool in enumerate(tools):
        if "type" not in tool and not d.optional_types:
            tool = tools[index] = {"type": "function", **tool}
        inner = tool.get("function")
        if d.closed_messages is not None and type(inner) is dict and "parameters" not in inner:
            tool["function"] = {**inner, "parameters": {"type": "object", "properties": {}}}
            fit.notes.info(f"$.tools[{index}].function", "synthesized", f"{d.title} requires parameters")


# ---------------------------------------------------------------- messages


def _fit_calls(message: dict[str, Any], fit: _Fit, path: str) -> None:
    for position, call in enumerate(message.get("tool_calls") or ()):
        call_path = f"{path}.tool_calls[{position}]"
        if "type" not in call and not fit.dialect.optional_types:
            call["type"] = "function"
        _fit_id(call, "id", fit, call_path)


def _fit_id(obj: dict[str, Any], key: str, fit: _Fit, path: str) -> None:
    call_id = obj.get(key)
    if fit.dialect.call_ids == "alnum9" and type(call_id) is str:
        new = mistral_call_id(call_id)
        if new != call_id:
            obj[key] = new
            fit.notes.info(f"{path}.{key}", "renamed", f"call id {call_id!r} sent as {new!r}")


def _replayed(fit: _Fit, index: int) -> bool:
    """Whether reasoning of the target's own kind goes back on message ``index``."""
    d = fit.dialect
    return d.replay == "always" or (d.replay == "tool_loop" and index > fit.last_user)


def _own(key: str, d: Dialect) -> bool:
    return key in d.reasoning or (key == "reasoning_details" and d.reasoning_details)


def _fit_reasoning(message: dict[str, Any], fit: _Fit, index: int, path: str) -> None:
    """Reasoning on an assistant message: the provider's own history passes as its client wrote
    it; reasoning of another provider is dropped; of an unknown writer, kept where the target
    reads that field and takes that turn's reasoning back."""
    if fit.own_history():
        return
    d = fit.dialect
    for key in REASONING_KEYS:
        if key not in message:
            continue
        if fit.source is not None or not _own(key, d):
            writer = fit.source.title if fit.source is not None else "another provider"
            fit.drop(message, key, f"{path}.{key}", f"reasoning of {writer} is not sent to {d.title}")
        elif not _replayed(fit, index):
            message.pop(key)
            fit.notes.info(f"{path}.{key}", "dropped", f"{d.title} takes no reasoning of earlier turns")
    content = message.get("content")
    if type(content) is list and any(type(c) is dict and c.get("type") == "thinking" for c in content):
        keep = fit.source is None and d.thinking_chunks and _replayed(fit, index)
        if not keep:
            message["content"] = [c for c in content if not (type(c) is dict and c.get("type") == "thinking")]
            fit.notes.add(f"{path}.content", "dropped", f"thinking chunks are not sent to {d.title}")
            if not message["content"] and "tool_calls" not in message:
                message["content"] = ""


def _fit_closed(message: dict[str, Any], fit: _Fit, path: str) -> None:
    closed = fit.dialect.closed_messages
    allowed = closed.get(message.get("role", "")) if closed is not None else None
    if allowed is None:
        return
    for key in [k for k in message if k not in allowed]:
        fit.drop(message, key, f"{path}.{key}", f"{fit.dialect.title} messages have no '{key}'")


def _fit_message(message: dict[str, Any], fit: _Fit, index: int) -> None:
    path = f"$.messages[{index}]"
    role = message.get("role")
    if role == "developer" and not fit.dialect.developer_role:
        message["role"] = "system"
        fit.notes.info(
            f"{path}.role", "renamed", f"{fit.dialect.title} has no developer role: sent as system"
        )
    elif role == "assistant":
        _fit_calls(message, fit, path)
        _fit_reasoning(message, fit, index, path)
        if message.get("content") == [] and not fit.own_history():
            message["content"] = None if message.get("tool_calls") else ""  # Mistral writes []
    elif role == "tool":
        _fit_id(message, "tool_call_id", fit, path)
    for key in [k for k in message if k in fit.foreign(lambda x: x.message_fields)]:
        fit.drop(message, key, f"{path}.{key}", f"{fit.dialect.title} messages have no '{key}'")
    _fit_closed(message, fit, path)


def _fit_messages(out: dict[str, Any], fit: _Fit) -> None:
    messages = out.get("messages") or []
    fit.last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
    for index, message in enumerate(messages):
        _fit_message(message, fit, index)


_STEPS: tuple[Callable[[dict[str, Any], _Fit], None], ...] = (
    _fit_fields,
    _fit_tool_choice,
    _fit_tools,
    _fit_messages,
)


def fit_dialect(out: dict[str, Any], dialect: Dialect, source: str | None, notes: Notes) -> None:
    """Rewrite the encoded request ``out`` for ``dialect`` (in place; see the module docstring).

    Args:
        out: the Chat request the encoder built.
        dialect: the provider it goes to.
        source: the dialect the request was decoded as (``None``: not known, or not Chat).
        notes: where each change goes.
    """
    fit = _Fit(dialect, DIALECTS.get(source) if source is not None else None, notes)
    for step in _STEPS:
        step(out, fit)
