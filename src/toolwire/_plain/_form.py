"""The plain request: the part of a request every pair lane carries (issue 18).

Most agent requests are plain: text messages, function calls with their results, function tools,
a tool choice and a few sampling numbers. For those, the general path (decode to the IR, survey,
history checks, renaming, encode, sendable checks) is most of the cost of a translation. A *pair
lane* writes the same target payload from the source dicts in two steps:

* a **reader** (``read(payload, model)``) turns a source request into a :class:`Plain`, or returns
  ``None`` when anything in it is outside the plain shape (an unknown field, a part kind, an id
  the general path would rewrite, an order its history checks refuse...);
* a **writer** (``write(plain)``) turns a :class:`Plain` into the target payload, exactly what the
  general path writes for it, or returns ``None`` when it can't be sure of that.

A :class:`Plain` mirrors the IR's meaning, not any wire: the general path's output depends on the
IR only (plain requests carry no extras), so two requests that decode to the same IR read to the
same :class:`Plain`. ``noted`` says the general path notes something for this request (a reader
or a writer sets it); under ``drop`` the lane still runs and the notes are made by the general path
when first read, under other policies a noted request takes the general path.

Turns are tuples, first item the kind:

* ``(SYSTEM, role, text)``: a ``system`` or ``developer`` message of one non-empty text;
* ``(USER, text)``: a user message of one non-empty text;
* ``(ASSISTANT, text, calls)``: an assistant message: its text (``None`` when it has only calls)
  then its function calls, each a :data:`Call` (an empty tuple when it has only text);
* ``(RESULTS, results)``: the results of the previous assistant turn's calls, each a
  :data:`Result`, in the order given (every call answered exactly once);
* ``(CALL, call_id, name, arguments)``: an assistant turn of one call and no text, the most
  common call turn, flat: ``(ASSISTANT, None, ((call_id, name, arguments),))`` in one tuple;
* ``(RESULT, call_id, output)``: the results turn of one result, flat: ``(RESULTS, ((call_id,
  output),))`` in one tuple.

The readers write those two turns flat, always (two requests of one IR read to one
:class:`Plain`); the writers take both spellings. Flat, a conversation of one-call turns holds
two tuples per call and result instead of six: fewer to allocate, to free and for the garbage
collector to scan (issue 18: at 1,000 messages, most of a lane's cost is such containers).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from toolwire._json import _decoder, dumps_str

__all__ = [
    *("ASSISTANT", "CALL", "PLAIN_FIELDS", "RESULT", "RESULTS", "SYSTEM", "USER"),
    *("Call", "Plain", "Result", "Tool", "arguments_object", "arguments_text", "call_of", "ids_match"),
    "read_numbers",
    "write_passed",
]

SYSTEM: Final = 0
USER: Final = 1
ASSISTANT: Final = 2
RESULTS: Final = 3
CALL: Final = 4
RESULT: Final = 5

Call = tuple[str, str, Any]
"""``(call_id, name, arguments)``: ``arguments`` is the JSON text a Chat or Responses source
carries (a string, as it came) or the object an Anthropic or Gemini source carries (a dict)."""

Result = tuple[str, str]
"""``(call_id, output)``: the text output of the call ``call_id``."""

Tool = tuple[str, "str | None", "dict[str, Any] | None", "bool | None"]
"""``(name, description, parameters, strict)`` of a function tool; ``None``: not given."""


PLAIN_FIELDS = (
    *("choice", "max_tokens", "metadata", "model", "noted", "parallel"),
    *("stream", "temperature", "tools", "top_p", "turns", "user"),
)
"""The fields of :class:`Plain` (its ``__slots__``, which a compiled class does not have)."""


class Plain:
    """A plain request (see the module docstring). Fields a source did not set are ``None``.

    Attributes:
        model: the model name (``None``: not given, as for Gemini without the URL's model).
        turns: the conversation (see the module docstring).
        tools: the function tools, ``None`` when the request has no ``tools``.
        choice: the tool choice: ``"auto"``, ``"none"``, ``"required"``, or ``("tool", name)``.
        parallel: ``parallel_tool_calls`` (Anthropic ``disable_parallel_tool_use`` inverted).
        max_tokens, temperature, top_p: the output limit and the sampling numbers, as given.
        stream: whether a stream was asked for in the body.
        user: the end-user id.
        metadata: the request metadata object.
        noted: the general path notes something for this request.
    """

    __slots__ = (
        "choice",
        "max_tokens",
        "metadata",
        "model",
        "noted",
        "parallel",
        "stream",
        "temperature",
        "tools",
        "top_p",
        "turns",
        "user",
    )

    def __init__(self, model: str | None, turns: list[tuple[Any, ...]]) -> None:
        self.model = model
        self.turns = turns
        # The tools, the choice and the numbers are typed Any: the writers check them themselves,
        # and compiled (mypyc), a typed attribute or loop variable would refuse an ill-typed one
        # (a tool name not a string, a float token limit) with a TypeError before they see it.
        self.tools: Any = None  # a list of Tool
        self.choice: Any = None  # a mode or ("tool", name)
        self.parallel: bool | None = None
        self.max_tokens: Any = None  # an int
        self.temperature: Any = None  # an int or a float
        self.top_p: Any = None  # an int or a float
        self.stream: bool | None = None
        self.user: str | None = None
        self.metadata: dict[str, Any] | None = None
        self.noted = False

    def __reduce__(self) -> tuple[Any, ...]:
        """How :mod:`copy` and :mod:`pickle` rebuild it: field by field (compiled, the class has
        neither ``__dict__`` nor ``__slots__`` state for them to fill, and a bare instance can't be
        made without calling ``__init__``)."""
        return _rebuilt_plain, (tuple(getattr(self, name) for name in PLAIN_FIELDS),)

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in PLAIN_FIELDS)
        return f"Plain({fields})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Plain):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in PLAIN_FIELDS)

    __hash__ = None  # type: ignore[assignment]


def _rebuilt_plain(fields: tuple[Any, ...]) -> Plain:
    """The :class:`Plain` of ``fields``, in the order of :data:`PLAIN_FIELDS` (see ``__reduce__``)."""
    plain = Plain(None, [])
    for name, value in zip(PLAIN_FIELDS, fields, strict=True):
        setattr(plain, name, value)
    return plain


def arguments_text(arguments: Any) -> str | None:
    """The JSON text of a call's arguments for a text format (Chat, Responses): the text of a
    text source as it is, the object of an Anthropic or Gemini source as the compact text its
    decoder makes of it; ``None`` when the object can't be written (too deep: the general path
    says so)."""
    if type(arguments) is str:
        return arguments
    if type(arguments) is not dict:
        return None
    try:
        return dumps_str(arguments)
    except Exception:
        return None


def arguments_object(text: str) -> dict[str, Any] | None:
    """The JSON object of a call's arguments text for an object format (Anthropic, Gemini):
    ``{}`` for ``""``, as the decoders parse it; ``None`` when the text is not a JSON object (the
    general path says why). The decoder straight, with no error message to build: a lane only
    needs to know."""
    if not text:
        return {}
    try:
        value = _decoder.decode(text)
    except Exception:
        return None
    return value if type(value) is dict else None


def call_of(call_id: Any, name: Any, arguments: Any, called: set[str]) -> Call | None:
    """The call of an object-argument format's call block's values (Anthropic ``tool_use``,
    Bedrock ``toolUse``): a non-empty id not in ``called`` and without ``--`` (the mark of an id
    the general path escaped), a non-empty name, an object ``arguments``; its id added to
    ``called``. ``None`` for another."""
    if type(call_id) is not str or not call_id or "--" in call_id or call_id in called:
        return None
    if type(name) is not str or not name or type(arguments) is not dict:
        return None
    called.add(call_id)
    return (call_id, name, arguments)


def ids_match(ids: set[Any], match: Callable[[str], Any], longest: int = 0) -> bool:
    """Whether every id of ``ids`` is a non-empty string of the characters ``match`` takes (the
    ``fullmatch`` of a pattern of a character set, any length), at most ``longest`` characters
    each when given: one match over them all joined (a match per id costs about as much as
    writing its turn), an empty one found in the set (joined, it would vanish)."""
    if not ids:
        return True
    if "" in ids:
        return False
    try:
        joined = "".join(ids)
    except TypeError:  # an id not a string (the readers make none)
        return False
    if longest and max(map(len, ids)) > longest:
        return False
    return match(joined) is not None


def read_numbers(
    p: dict[str, Any], plain: Plain, limit: str, least: int, hottest: int, top_p: str = "top_p"
) -> bool:
    """The output limit (the key ``limit``, an integer from ``least``), ``temperature`` (a number
    from 0 to ``hottest``) and ``top_p`` (the key ``top_p``, from 0 to 1) of the request (or
    config object) ``p`` read into ``plain``, each straight (a loop of ``setattr`` costs more);
    ``False`` when one is outside (the general path then moves, notes or refuses it)."""
    if limit in p:
        value = p[limit]
        if type(value) is not int or not value >= least:
            return False
        plain.max_tokens = value
    if "temperature" in p:
        value = p["temperature"]
        if (type(value) is not int and type(value) is not float) or not 0 <= value <= hottest:
            return False
        plain.temperature = value
    if top_p in p:
        value = p[top_p]
        if (type(value) is not int and type(value) is not float) or not 0 <= value <= 1:
            return False
        plain.top_p = value
    return True


def write_passed(plain: Plain, out: dict[str, Any]) -> None:
    """Write the fields Chat and Responses both take as they are (``stream``, ``user``,
    ``metadata``) into ``out``, last, in their encoders' order (each straight: a loop of
    ``getattr`` costs more)."""
    if plain.stream is not None:
        out["stream"] = plain.stream
    if plain.user is not None:
        out["user"] = plain.user
    if plain.metadata is not None:
        out["metadata"] = plain.metadata
