"""The Gemini pair-lane reader: a plain ``generateContent`` body as a :class:`Plain` (issue 18).

:func:`read` returns the :class:`Plain` of a body of exactly this shape, and ``None`` for any
other (the general path then decodes it, and raises its errors):

* top-level fields: ``contents`` (a non-empty list), ``systemInstruction``, ``tools``,
  ``toolConfig``, ``generationConfig``; camelCase only (snake_case spellings take the general
  path), no ``model`` in the body (the model is the ``model`` argument, the URL's);
* ``systemInstruction``: ``{"parts": [{"text"}], "role"?}``, one non-empty text (a string
  ``role``, which only a Gemini target would see);
* contents ``{"role", "parts"}`` (non-empty ``parts``):

  - ``user`` with one ``{"text"}`` part (non-empty): a user turn;
  - ``model`` with an optional ``{"text"}`` part (non-empty) first, then ``{"functionCall":
    {"name", "args", "id"}}`` parts (a non-empty name, an object ``args``, a
    non-empty string ``id`` used once);
  - ``user`` with only ``{"functionResponse": {"name"?, "id", "response"}}`` parts, right after
    a model content with calls, answering each of its calls once (``id``, and ``name`` when
    given, of the call): ``response`` a one-key object of a string (not ``error``), that string
    being the result's text, or another object (not ``{"error": ...}``), its compact JSON text;
  - every call answered (no call turn left open at the end);
* ``tools``: a non-empty list of ``{"functionDeclarations": [...]}`` (non-empty), declarations
  ``{"name", "description"?, "parametersJsonSchema"? | "parameters"?}`` of distinct non-empty
  names, a string description, an object schema (an OpenAPI ``parameters`` only when it is
  already the JSON Schema the general path reads it as);
* ``toolConfig`` (with tools): ``{"functionCallingConfig": {"mode"}}`` of ``AUTO``, ``NONE`` or
  ``ANY``, or ``ANY`` with ``allowedFunctionNames`` of one declared name (a named choice);
* ``generationConfig``: an object of ``maxOutputTokens`` (an integer), ``temperature`` and
  ``topP`` (numbers), taken as given (the writer fits them to its target).

Arguments go into the :data:`Call` as the ``args`` object itself (as Anthropic's reader passes
an ``input``): a writer into a text target writes its compact JSON text, the text the general
path decodes them to, and declines one too deep to write.
Nothing of this shape is noted by the Gemini decoder: ``noted`` stays ``False``.
"""

from __future__ import annotations

from typing import Any

from toolwire._plain._form import ASSISTANT, CALL, RESULT, RESULTS, SYSTEM, USER, Plain, Tool
from toolwire.formats.gemini._decode_fast import _json
from toolwire.formats.gemini.tools import _from_gemini

__all__ = ["read"]

_TOP = frozenset({"contents", "systemInstruction", "tools", "toolConfig", "generationConfig"})
_RESPONSE_KEYS = frozenset({"name", "id", "response"})
_DECL_KEYS = frozenset({"name", "description", "parametersJsonSchema", "parameters"})
_MODES = {"AUTO": "auto", "NONE": "none", "ANY": "required"}
_GENERATION_KEYS = frozenset({"maxOutputTokens", "temperature", "topP"})
"""The ``generationConfig`` fields read (``maxOutputTokens`` an integer, the others numbers; ``bool``
is neither)."""


def _only_text(parts: Any) -> str | None:
    """The text of a ``parts`` list of one ``{"text"}`` part, non-empty; else ``None``."""
    if type(parts) is not list or len(parts) != 1:
        return None
    part = parts[0]
    if type(part) is not dict or len(part) != 1:
        return None
    text = part.get("text")
    return text if type(text) is str and text else None


def _system(value: Any) -> str | None:
    """The text of a ``systemInstruction`` (its ``role``, a string, is a same-format hint)."""
    if type(value) is not dict or len(value) != (2 if "role" in value else 1):
        return None
    if "role" in value and type(value["role"]) is not str:
        return None
    return _only_text(value.get("parts"))


def _response_text(response: Any) -> str | None:
    """The text the general path reads a ``functionResponse.response`` as (not an error)."""
    if type(response) is not dict:
        return None
    if len(response) == 1:
        ((key, value),) = response.items()
        if key == "error":
            return None
        if type(value) is str:
            return value or None
    text = _json(response)
    return text or None


def _call(inner: Any, called: set[str]) -> tuple[str, str, Any] | None:
    """The call of a ``functionCall`` of exactly ``name``, ``args`` and ``id`` (a name, an
    object, an id not in ``called``): its id, name and args (the object itself: a writer to an
    object target takes it as it is, one to a text target writes its compact JSON text), the id
    added to ``called``; ``None`` for another, ``KeyError`` for one missing a field (not plain)."""
    if type(inner) is not dict or len(inner) != 3:
        return None
    name, args, call_id = inner["name"], inner["args"], inner["id"]
    if type(name) is not str or not name or type(args) is not dict:
        return None
    if type(call_id) is not str or not call_id or call_id in called:
        return None
    called.add(call_id)
    return (call_id, name, args)


class _History:
    """The turns of a ``contents`` list, read content by content (see the module docstring)."""

    __slots__ = ("called", "pending", "turns")

    def __init__(self, turns: list[tuple[Any, ...]], called: set[str]) -> None:
        self.turns = turns
        self.called = called  # every call id so far
        self.pending: dict[str, str] | None = None  # the open call turn: call id -> name

    def model(self, parts: list[Any]) -> bool:
        if self.pending is not None:
            return False
        first = parts[0]
        text = None
        if type(first) is dict and len(first) == 1 and "text" in first:
            text = first["text"]
            if type(text) is not str or not text:
                return False
        calls: list[tuple[str, str, Any]] = []
        pending: dict[str, str] = {}
        for part in parts[0 if text is None else 1 :]:
            if type(part) is not dict or len(part) != 1:
                return False
            call = self.call(part.get("functionCall"), pending)
            if call is None:
                return False
            calls.append(call)
        if calls:
            self.pending = pending
        if text is None and len(calls) == 1:  # a turn of one call: flat
            self.turns.append((CALL, *calls[0]))
        else:
            self.turns.append((ASSISTANT, text, tuple(calls)))
        return True

    def call(self, inner: Any, pending: dict[str, str]) -> tuple[str, str, Any] | None:
        call = _call(inner, self.called)
        if call is not None:
            pending[call[0]] = call[1]
        return call

    def results(self, parts: list[Any]) -> bool:
        pending = self.pending
        if pending is None or len(parts) != len(pending):
            return False
        results: list[tuple[str, str]] = []
        for part in parts:
            if type(part) is not dict or len(part) != 1:
                return False
            result = self.result(part.get("functionResponse"), pending)
            if result is None:
                return False
            results.append(result)
        self.pending = None
        self.turns.append((RESULT, *results[0]) if len(results) == 1 else (RESULTS, tuple(results)))
        return True

    @staticmethod
    def result(inner: Any, pending: dict[str, str]) -> tuple[str, str] | None:
        """The result of a ``functionResponse`` answering one of ``pending`` (taken from it)."""
        if type(inner) is not dict or not _RESPONSE_KEYS.issuperset(inner) or "response" not in inner:
            return None
        call_id: Any = inner.get("id")
        name = pending.pop(call_id, None) if type(call_id) is str else None
        if name is None or ("name" in inner and inner["name"] != name):
            return None
        response = inner["response"]
        if type(response) is dict and len(response) == 1 and "output" in response:
            text = response["output"]  # the common response: {"output": text}
            if type(text) is str and text:
                return (call_id, text)
        text = _response_text(response)
        return None if text is None else (call_id, text)


def _read_contents(contents: list[Any], turns: list[tuple[Any, ...]]) -> bool:
    """Whether every content is of the lane's shape (then ``turns`` holds them); raises
    ``KeyError`` for a part missing a field its size requires (not plain). The hot loop of the
    lane: a content of one part, a text, a call or the one result of a turn of one call, and a
    model content of a text and one call, is read inline (what :class:`_History`'s methods make
    of it, with the open turn of one call a local ``(call id, name)``, no dict); any other by
    the methods (their reader made for the first). A content or a part whose size says which
    fields it has is read by subscript (one missing: another key in its place, not plain)."""
    append = turns.append
    called: set[str] = set()  # every call id so far
    history: _History | None = None  # the methods' reader, made when first needed
    pending: Any = None  # the open call turn: (call id, name) of one call, or the methods' dict
    for content in contents:
        if type(content) is not dict or len(content) != 2:
            return False
        role, parts = content["role"], content["parts"]
        if type(parts) is not list or not parts:
            return False
        first = parts[0]
        one = len(parts) == 1 and type(first) is dict and len(first) == 1
        if role == "model":
            if pending is not None:
                return False
            if not one:
                if len(parts) == 2 and type(first) is dict and len(first) == 1 and "text" in first:
                    second = parts[1]  # a text and one call, inline (model() refuses what this does)
                    if type(second) is dict and len(second) == 1:
                        text = first["text"]
                        if type(text) is not str or not text:
                            return False
                        call = _call(second.get("functionCall"), called)
                        if call is None:
                            return False
                        pending = (call[0], call[1])
                        append((ASSISTANT, text, (call,)))
                        continue
                if history is None:
                    history = _History(turns, called)
                if not history.model(parts):  # calls, or a text and calls (history.pending is None)
                    return False
                pending = history.pending
                if pending is not None and len(pending) == 1:  # read inline: a local
                    ((call_id, name),) = pending.items()
                    pending = (call_id, name)
                    history.pending = None
                continue
            if "text" in first:  # a model text
                text = first["text"]
                if type(text) is not str or not text:
                    return False
                append((ASSISTANT, text, ()))
                continue
            call = _call(first.get("functionCall"), called)  # a model call
            if call is None:
                return False
            call_id, name, arguments = call
            pending = (call_id, name)
            append((CALL, call_id, name, arguments))
            continue
        if role != "user":
            return False
        if pending is None:  # a user text, else not plain
            if not one or "text" not in first:
                return False
            text = first["text"]
            if type(text) is not str or not text:
                return False
            append((USER, text))
        elif type(pending) is tuple:  # the one result of a turn of one call (result() inline)
            inner = first.get("functionResponse") if one else None
            if type(inner) is not dict:
                return False
            call_id, name = pending
            size = len(inner)  # three keys, or two without the name
            if (size == 3 and inner["name"] != name) or size < 2 or size > 3 or inner["id"] != call_id:
                return False
            response = inner["response"]
            if type(response) is dict and len(response) == 1 and "output" in response:
                text = response["output"]  # the common response: {"output": text}
                if type(text) is not str or not text:
                    text = _response_text(response)
            else:
                text = _response_text(response)
            if text is None:
                return False
            append((RESULT, call_id, text))
            pending = None
        else:  # the results of a turn of more calls (its dict: history was made for it)
            assert history is not None
            history.pending = pending
            if not history.results(parts):
                return False
            pending = None
    return pending is None


def _declaration(decl: Any) -> Tool | None:
    """A declaration of any shape (the common one is read inline by :func:`_tools`)."""
    if type(decl) is not dict or not _DECL_KEYS.issuperset(decl):
        return None
    name, description = decl.get("name"), decl.get("description")
    if type(name) is not str or not name or (description is not None and type(description) is not str):
        return None
    if "description" in decl and description is None:
        return None
    schema = decl.get("parametersJsonSchema")
    if "parameters" in decl:
        schema = decl["parameters"]
        if "parametersJsonSchema" in decl or type(schema) is not dict:
            return None
        try:
            if _from_gemini(schema, "$") is not schema:  # OpenAPI read as another JSON Schema
                return None
        except Exception:  # a schema the general path refuses: its error, with the request's path
            return None
    elif "parametersJsonSchema" in decl and type(schema) is not dict:
        return None
    return (name, description, schema, None)


def _tools(wire: Any) -> list[Tool] | None:
    if type(wire) is not list or not wire:
        return None
    out: list[Tool] = []
    names: set[str] = set()
    for group in wire:
        if type(group) is not dict or len(group) != 1:
            return None
        decls = group.get("functionDeclarations")
        if type(decls) is not list or not decls:
            return None
        for decl in decls:
            tool: Tool | None = None
            if type(decl) is dict and len(decl) == 3:  # the common declaration inline: every field
                try:  # (three keys, one missing: another key, read field by field below)
                    name, description = decl["name"], decl["description"]
                    schema = decl["parametersJsonSchema"]
                except KeyError:
                    name = description = schema = None
                if type(name) is str and name and type(description) is str and type(schema) is dict:
                    tool = (name, description, schema, None)
            if tool is None:
                tool = _declaration(decl)
                if tool is None:
                    return None
            if tool[0] in names:
                return None
            names.add(tool[0])
            out.append(tool)
    return out


def _choice(config: Any, tools: list[Tool]) -> str | tuple[str, str] | None:
    if type(config) is not dict or len(config) != 1:
        return None
    fcc = config.get("functionCallingConfig")
    if type(fcc) is not dict or "mode" not in fcc:
        return None
    mode = _MODES.get(fcc["mode"]) if type(fcc["mode"]) is str else None
    if mode is None or len(fcc) == 1:
        return mode
    allowed = fcc.get("allowedFunctionNames")
    if len(fcc) != 2 or mode != "required" or type(allowed) is not list or len(allowed) != 1:
        return None
    name = allowed[0]
    if type(name) is not str or all(tool[0] != name for tool in tools):
        return None
    return ("tool", name)


def _generation(config: Any, plain: Plain) -> bool:
    if type(config) is not dict or not _GENERATION_KEYS.issuperset(config):
        return False
    if "maxOutputTokens" in config:  # each field straight (a loop of setattr costs more)
        value = config["maxOutputTokens"]
        if type(value) is not int:
            return False
        plain.max_tokens = value
    if "temperature" in config:
        value = config["temperature"]
        if type(value) is not int and type(value) is not float:
            return False
        plain.temperature = value
    if "topP" in config:
        value = config["topP"]
        if type(value) is not int and type(value) is not float:
            return False
        plain.top_p = value
    return True


def _tool_fields(p: dict[str, Any], plain: Plain) -> bool:
    if "tools" not in p:
        return "toolConfig" not in p
    tools = _tools(p["tools"])
    if tools is None:
        return False
    plain.tools = tools
    if "toolConfig" in p:
        choice = _choice(p["toolConfig"], tools)
        if choice is None:
            return False
        plain.choice = choice
    return True


def read(payload: Any, model: str | None) -> Plain | None:
    """The :class:`Plain` of a plain Gemini request ``payload`` (see the module docstring), the
    model being ``model`` (the URL's); ``None`` for any other request."""
    if type(payload) is not dict or not _TOP.issuperset(payload):
        return None
    contents = payload.get("contents")
    if type(contents) is not list or not contents:
        return None
    turns: list[tuple[Any, ...]] = []
    if "systemInstruction" in payload:
        system = _system(payload["systemInstruction"])
        if system is None:
            return None
        turns.append((SYSTEM, "system", system))
    try:
        if not _read_contents(contents, turns):
            return None
    except KeyError:
        return None
    plain = Plain(model, turns)
    if not _tool_fields(payload, plain):
        return None
    if "generationConfig" in payload and not _generation(payload["generationConfig"], plain):
        return None
    return plain
