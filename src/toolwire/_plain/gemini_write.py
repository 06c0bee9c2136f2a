"""The Gemini pair-lane writer: a :class:`Plain` as a ``generateContent`` body (issue 18).

:func:`write` returns exactly what the general path encodes for the plain request of another
format, key for key and in the same order (``contents``, ``systemInstruction``, ``tools``,
``toolConfig``, ``generationConfig``; no ``model``, which goes in the URL), or ``None`` when it
cannot be sure of that:

* system and developer turns go, in order, into one ``systemInstruction`` ``{"parts"}`` (one
  after the conversation started is noted); user turns are ``user`` contents, assistant turns
  ``model`` contents (the text, then the calls); consecutive contents of one role are merged;
* a call is ``{"functionCall": {"name", "args"?, "id"}}``: ``args`` the object (JSON text parsed
  as the general path does; ``""``: no ``args``); text that is not a JSON object: ``None``;
* a result is ``{"functionResponse": {"name", "id", "response": {"output": text}}}`` (the name of
  its call), noted (``approximated``: the text is wrapped); results out of their calls' order are
  put in it (noted), as the general path puts them (Gemini pairs by position);
* tools are one ``{"functionDeclarations"}`` group of ``{"name", "description"?,
  "parametersJsonSchema"?}`` (a ``strict`` tool is noted); the choice a ``functionCallingConfig``
  mode (a named tool: ``ANY`` with that one name allowed); ``parallel: false`` is noted;
* ``generationConfig``: ``maxOutputTokens``, ``temperature``, ``topP`` within Gemini's ranges
  (a value the general path would move: ``None``); ``user`` and non-empty ``metadata`` noted.

``None`` also for a tool or call name Gemini's rules would rename, a first content that is a
call turn, no content at all, a choice or parallel switch without tools, two tools of one name,
a choice naming no tool, and a Gemini 3 model with calls (the placeholder signature).

:func:`write_wire` is the bytes API's: the same body with its contents and parts as msgspec
Structs (:mod:`toolwire._plain._request_out`) that encode to the same bytes, built by the same
loop. A call is written by one helper whatever its turn (:func:`function_call`).
"""

from __future__ import annotations

from typing import Any, Final

from toolwire._json import _decoder
from toolwire._opaque_fallbacks import GEMINI_3
from toolwire._plain._form import ASSISTANT, CALL, RESULT, RESULTS, SYSTEM, USER, Plain
from toolwire._plain._names import NameCheck
from toolwire._plain._request_out import (
    GeminiArgsCallOut,
    GeminiCallOut,
    GeminiCallPartOut,
    GeminiContentOut,
    GeminiOutputOut,
    GeminiResponseOut,
    GeminiResponsePartOut,
    GeminiTextOut,
)
from toolwire.formats._ranges import RANGES

__all__ = ["finish", "first_ok", "function_call", "response", "write", "write_wire"]

_name_ok: Final = NameCheck("gemini")
_VALID: Final = _name_ok.valid
_MODES = {"auto": "AUTO", "none": "NONE", "required": "ANY"}
_GENERATION = (("max_tokens", "maxOutputTokens"), ("temperature", "temperature"), ("top_p", "topP"))
"""The :class:`Plain` attribute and its ``generationConfig`` field, in the encoder's order."""
_RANGES = RANGES["gemini"]
_decode: Final = _decoder.decode


def function_call(call_id: Any, name: Any, arguments: Any, called: set[str], wire: bool) -> Any:
    """The ``functionCall`` part of one call (a Struct when ``wire``; its id added to ``called``),
    or ``None``: a call id used before, a name Gemini's rules rename, text arguments that are no
    JSON object. ``args`` is the object (text parsed as the general path parses it; ``""``: no
    ``args``). The values are typed ``Any``: a call is a tuple or a list (the Anthropic reader's),
    and compiled, a typed parameter would refuse an ill-typed one before the checks."""
    if call_id in called or (name not in _VALID and not _name_ok(name)):
        return None
    if type(arguments) is str:  # else an object (Anthropic, Gemini)
        if not arguments:
            called.add(call_id)
            if wire:
                return GeminiCallPartOut(GeminiCallOut(name, call_id))
            return {"functionCall": {"name": name, "id": call_id}}
        try:  # arguments_object inline (no call): the JSON object of the (non-empty) text
            arguments = _decode(arguments)
        except Exception:
            return None
        if type(arguments) is not dict:
            return None
    called.add(call_id)
    if wire:
        return GeminiCallPartOut(GeminiArgsCallOut(name, arguments, call_id))
    return {"functionCall": {"name": name, "args": arguments, "id": call_id}}


def response(call_id: Any, name: Any, output: Any, wire: bool) -> Any:
    """The ``functionResponse`` part of one text result (wrapped as ``response.output``)."""
    if wire:
        return GeminiResponsePartOut(GeminiResponseOut(name, call_id, GeminiOutputOut(output)))
    return {"functionResponse": {"name": name, "id": call_id, "response": {"output": output}}}


class _Contents:
    """The ``contents`` and system parts of a plain conversation, built turn by turn."""

    __slots__ = ("called", "contents", "noted", "system", "wire")

    def __init__(self, wire: bool) -> None:
        self.wire = wire  # Structs for the bytes API (toolwire._plain._request_out), else dicts
        self.contents: list[Any] = []
        self.system: list[dict[str, str]] | None = None
        self.called: set[str] = set()  # every call id so far
        self.noted = False

    def results(self, results: Any, calls: Any) -> list[Any] | None:
        """The ``functionResponse`` parts of ``calls``' results, in the order of the calls (as the
        general path puts them for Gemini, noted); ``None`` when they are not exactly those. The
        calls and results of a turn are typed ``Any``: tuples or lists (the Anthropic reader's)."""
        if len(results) != len(calls):
            return None
        parts = []
        for (call_id, output), (wanted, name, _) in zip(results, calls, strict=True):
            if call_id != wanted:
                return self._reordered(results, calls)
            parts.append(response(call_id, name, output, self.wire))
        self.noted = True  # each text result is wrapped as response.output (an info note)
        return parts

    def _reordered(self, results: Any, calls: Any) -> list[Any] | None:
        outputs = dict(results)
        if len(outputs) != len(calls) or any(call[0] not in outputs for call in calls):
            return None
        self.noted = True  # put in call order, and wrapped (info notes)
        return [response(call_id, name, outputs[call_id], self.wire) for call_id, name, _ in calls]

    def run_dicts(self, turns: list[tuple[Any, ...]]) -> bool:
        """:meth:`run` writing dicts (the dict API's; :meth:`run` writes the bytes API's Structs),
        each branch writing its dicts straight (no check per turn of which to build), the notes in
        a local."""
        contents = self.contents
        append = contents.append
        called = self.called
        noted = False  # the general path notes something (kept in self.noted at the end)
        role: str | None = None  # the role of the last content
        last: list[Any] = []  # its parts
        calls: Any = None  # the call turn awaiting its results (Any: a tuple or a list)
        for turn in turns:
            kind: int = turn[0]  # a turn kind: the readers make ints (typed: compiled, a C compare)
            if kind == USER:
                if calls is not None:
                    return False
                if role == "user":
                    last.append({"text": turn[1]})
                else:
                    role = "user"
                    last = [{"text": turn[1]}]
                    append({"role": "user", "parts": last})
            elif kind == RESULT:  # the one result of the call turn right before
                if calls is None:
                    return False
                if type(calls[0]) is int:  # a flat CALL turn
                    wanted, name = calls[1], calls[2]
                elif len(calls) == 1:
                    wanted, name = calls[0][0], calls[0][1]
                else:
                    return False
                if turn[1] != wanted:
                    return False
                noted = True  # the text result is wrapped as response.output (an info note)
                role = "user"  # after a model content: a new one
                last = [{"functionResponse": {"name": name, "id": wanted, "response": {"output": turn[2]}}}]
                append({"role": "user", "parts": last})
                calls = None
            elif kind == CALL:  # a turn of one call, flat
                if calls is not None:
                    return False
                call_id = turn[1]
                name = turn[2]
                arguments = turn[3]
                part = function_call(call_id, name, arguments, called, False)
                if part is None:
                    return False
                if role == "model":
                    last.append(part)
                else:
                    role = "model"
                    last = [part]
                    append({"role": "model", "parts": last})
                calls = turn
            elif kind == ASSISTANT:
                if calls is not None:
                    return False
                text = turn[1]
                calls = turn[2] or None
                parts: list[Any] = [] if text is None else [{"text": text}]
                if calls is not None:
                    for call_id, name, arguments in calls:
                        part = function_call(call_id, name, arguments, called, False)
                        if part is None:
                            return False
                        parts.append(part)
                if not parts:
                    continue
                if role == "model":
                    last.extend(parts)
                else:
                    role = "model"
                    last = parts
                    append({"role": "model", "parts": last})
            elif kind == RESULTS:
                if calls is None:
                    return False
                found = self.results(turn[1], (calls[1:],) if type(calls[0]) is int else calls)
                if found is None:
                    return False
                noted = True  # wrapped (and maybe put in call order): info notes
                role = "user"  # after a model content: a new one
                last = found
                append({"role": "user", "parts": last})
                calls = None
            elif kind == SYSTEM and calls is None:
                if contents:
                    noted = True  # moved to systemInstruction
                if self.system is None:
                    self.system = []
                self.system.append({"text": turn[2]})
            else:
                return False  # a system turn awaiting results, or an unknown kind
        if noted:
            self.noted = True
        return calls is None

    def run(self, turns: list[tuple[Any, ...]]) -> bool:
        """Whether every turn is written (each call turn answered by the next turn, in order);
        consecutive contents of one role are merged, as the general path merges them.

        One loop, a complete branch per turn kind (most common first); ``calls`` holds the call
        turn awaiting its results (a flat CALL turn, or an assistant turn's calls): only results
        may come next. A content of one part holds it in a tuple (encoded as the same array: one
        object less than a list, and no container for the collector to keep scanning); parts
        added to a content make its tuple anew (``+=``)."""
        contents = self.contents
        append = contents.append
        called = self.called
        noted = False  # the general path notes something (kept in self.noted at the end)
        role: str | None = None  # the role of the last content
        current = GeminiContentOut(None, ())  # the last content (a placeholder until the first)
        calls: Any = None  # the call turn awaiting its results (Any: a tuple or a list)
        for turn in turns:
            kind: int = turn[0]  # a turn kind: the readers make ints (typed: compiled, a C compare)
            if kind == USER:
                if calls is not None:
                    return False
                if role == "user":
                    current.parts += (GeminiTextOut(turn[1]),)
                else:
                    role = "user"
                    current = GeminiContentOut("user", (GeminiTextOut(turn[1]),))
                    append(current)
            elif kind == RESULT:  # the one result of the call turn right before
                if calls is None:
                    return False
                if type(calls[0]) is int:  # a flat CALL turn
                    wanted, name = calls[1], calls[2]
                elif len(calls) == 1:
                    wanted, name = calls[0][0], calls[0][1]
                else:
                    return False
                if turn[1] != wanted:
                    return False
                noted = True  # the text result is wrapped as response.output (an info note)
                role = "user"  # after a model content: a new one
                answer = GeminiResponseOut(name, wanted, GeminiOutputOut(turn[2]))
                current = GeminiContentOut("user", (GeminiResponsePartOut(answer),))
                append(current)
                calls = None
            elif kind == CALL:  # a turn of one call, flat
                if calls is not None:
                    return False
                call_id = turn[1]
                name = turn[2]
                arguments = turn[3]
                part = function_call(call_id, name, arguments, called, True)
                if part is None:
                    return False
                if role == "model":
                    current.parts += (part,)
                else:
                    role = "model"
                    current = GeminiContentOut("model", (part,))
                    append(current)
                calls = turn
            elif kind == ASSISTANT:
                if calls is not None:
                    return False
                text = turn[1]
                calls = turn[2] or None
                parts: list[Any] = [] if text is None else [GeminiTextOut(text)]
                if calls is not None:
                    for call_id, name, arguments in calls:
                        part = function_call(call_id, name, arguments, called, True)
                        if part is None:
                            return False
                        parts.append(part)
                if not parts:
                    continue
                if role == "model":
                    current.parts += tuple(parts)  # a list's extended, a tuple made anew
                else:
                    role = "model"
                    current = GeminiContentOut("model", parts)
                    append(current)
            elif kind == RESULTS:
                if calls is None:
                    return False
                found = self.results(turn[1], (calls[1:],) if type(calls[0]) is int else calls)
                if found is None:
                    return False
                noted = True  # wrapped (and maybe put in call order): info notes
                role = "user"  # after a model content: a new one
                current = GeminiContentOut("user", found)
                append(current)
                calls = None
            elif kind == SYSTEM and calls is None:
                if contents:
                    noted = True  # moved to systemInstruction
                if self.system is None:
                    self.system = []
                self.system.append({"text": turn[2]})
            else:
                return False  # a system turn awaiting results, or an unknown kind
        if noted:
            self.noted = True
        return calls is None


def first_ok(contents: list[Any]) -> bool:
    """Some content, the first not a call turn (the general path refuses both)."""
    if not contents:
        return False
    first = contents[0]
    if type(first) is not dict:  # a Struct (write_wire)
        return first.role != "model" or all(type(part) is not GeminiCallPartOut for part in first.parts)
    return first["role"] != "model" or all("functionCall" not in part for part in first["parts"])


def _tools(tools: Any, plain: Plain) -> list[dict[str, Any]] | None:
    declarations: list[dict[str, Any]] = []
    names: set[str] = set()
    for name, description, parameters, strict in tools:
        if name in names or (name not in _VALID and not _name_ok(name)):
            return None
        names.add(name)
        decl: dict[str, Any] = {"name": name}
        if description is not None:
            decl["description"] = description
        if parameters is not None:
            decl["parametersJsonSchema"] = parameters
        if strict:
            plain.noted = True  # the strict flag is dropped
        declarations.append(decl)
    return [{"functionDeclarations": declarations}]


def _choice(choice: Any, tools: Any) -> dict[str, Any] | None:
    if type(choice) is str:
        mode = _MODES.get(choice)
        return None if mode is None else {"functionCallingConfig": {"mode": mode}}
    name = choice[1]
    if choice[0] != "tool" or all(tool[0] != name for tool in tools):
        return None
    return {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": [name]}}


def _tool_fields(plain: Plain, out: dict[str, Any]) -> bool:
    tools = plain.tools
    if not tools:
        return plain.choice is None and plain.parallel is None
    wire = _tools(tools, plain)
    if wire is None:
        return False
    out["tools"] = wire
    if plain.choice is not None:
        config = _choice(plain.choice, tools)
        if config is None:
            return False
        out["toolConfig"] = config
    if plain.parallel is False:
        plain.noted = True  # Gemini has no switch to forbid parallel calls
    return True


def _generation(plain: Plain, out: dict[str, Any]) -> bool:
    config: dict[str, Any] = {}
    for attribute, key in _GENERATION:
        value = getattr(plain, attribute)
        if value is not None:
            low, high = _RANGES[attribute]
            if value != value or value < low or (high is not None and value > high):
                return False  # the general path moves it into the range (noted)
            config[key] = value
    if config:
        out["generationConfig"] = config
    return True


def write(plain: Plain, wire: bool = False) -> dict[str, Any] | None:
    """The Gemini body of ``plain`` (see the module docstring), exactly what the general path
    writes for it, or ``None``; sets ``plain.noted`` when the general path notes something.
    ``wire``: the conversation as Structs that encode to the same JSON (:func:`write_wire`)."""
    built = _Contents(wire)
    written = built.run(plain.turns) if wire else built.run_dicts(plain.turns)
    if not written or not first_ok(built.contents):
        return None
    return finish(plain, built.contents, built.system, bool(built.called), built.noted)


def finish(
    plain: Plain, contents: list[Any], system: list[dict[str, str]] | None, calls: bool, noted: bool
) -> dict[str, Any] | None:
    """The body of ``plain``'s fields around its written ``contents`` (the first checked) and
    ``system`` parts (``calls``: the contents have calls; ``noted``: writing them noted
    something), or ``None`` (see the module docstring); sets ``plain.noted`` when the general
    path notes. :func:`write`'s, and the one passes' into Gemini
    (:mod:`~toolwire._plain.responses_gemini`)."""
    model = plain.model
    if model is not None and GEMINI_3 in model and calls:
        return None  # the general path puts Google's placeholder signature on the calls
    out: dict[str, Any] = {"contents": contents}
    if system is not None:
        out["systemInstruction"] = {"parts": system}
    if not _tool_fields(plain, out) or not _generation(plain, out):
        return None
    if noted or plain.user is not None or plain.metadata:
        plain.noted = True
    return out


def write_wire(plain: Plain) -> dict[str, Any] | None:
    """:func:`write` with the conversation as Structs that encode to the same JSON (the bytes
    API's writer: :mod:`toolwire._plain._request_out`)."""
    return write(plain, True)
