"""The declarative structure checker shared by the per-format validators.

A format describes its payloads as a tree of *specs* (:class:`Str`, :class:`Int`, :class:`Num`,
:class:`Bool`, :class:`Arr`, :class:`Obj`, :class:`Map`, :class:`Tagged`, :class:`Either`,
:class:`Anything`) and a :class:`Dialect` that words problems the way that provider does. The
checker walks a payload against its spec once, collecting :class:`~toolwire.validate.history.Problem`
objects; nothing is raised, nothing is copied.

Structural codes (the OpenAI names where OpenAI has one):

==============================  ===================================================
``missing_required_parameter``  a required field is absent
``invalid_type``                a value has the wrong JSON type
``invalid_value``               a value is not one of the allowed (enum) values
``pattern_mismatch``            a string does not match the required pattern
``empty_string``                a string is shorter than its minimum length
``string_above_max_length``     a string is longer than its maximum length
``empty_array``                 an array is shorter than its minimum length
``array_above_max_length``      an array is longer than its maximum length
``integer_below_min_value``     an integer is below its minimum
``integer_above_max_value``     an integer is above its maximum
``decimal_below_min_value``     a number is below its minimum
``decimal_above_max_value``     a number is above its maximum
``unknown_parameter``           a field the format does not define
``ignored_parameter``           a field the format does not define, which the provider is
                                known to accept and ignore (a *warning*, see ``Obj.ignored``)
==============================  ===================================================

Problems are errors (the provider answers 400) unless the rule says *warning*: the payload goes
through, and the value is dropped by the provider.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from toolwire._jsonpath import child, json_type
from toolwire.ir.problem import Problem

__all__ = [
    "Anything",
    "Arr",
    "Bool",
    "Ctx",
    "Dialect",
    "Either",
    "Field",
    "Int",
    "Map",
    "Num",
    "Obj",
    "Path",
    "Spec",
    "Str",
    "Tag",
    "Tagged",
    "json_path",
    "json_type",
    "opt",
    "req",
]


class Tag(str):
    """A path segment naming the variant a tagged union chose (shown by some providers only)."""

    __slots__ = ()


Path = tuple[str | int, ...]


def json_path(path: Path) -> str:
    """``$.messages[1].content`` for ``("messages", 1, "content")`` (tag segments left out),
    spelled as every toolwire path is (:func:`toolwire._jsonpath.child`)."""
    out = "$"
    for seg in path:
        if not isinstance(seg, Tag):
            out = child(out, seg)
    return out


class Dialect:
    """How one provider names locations and words problems. Subclasses override the wording.

    Every method returns the message text; :meth:`param` renders a path the provider's way.
    """

    def param(self, path: Path) -> str:
        """The provider's own spelling of a location (default: ``tools[0].function.name``)."""
        out: list[str] = []
        for seg in path:
            if isinstance(seg, int):
                out.append(f"[{seg}]")
            elif not isinstance(seg, Tag):
                out.append(f".{seg}" if out else seg)
        return "".join(out)

    def missing(self, param: str, name: str) -> str:
        """A required field ``name`` is absent at ``param``."""
        return f"Missing required parameter: '{param}'."

    def wrong_type(self, param: str, spec: Spec, value: Any) -> str:
        """``value`` does not have the JSON type ``spec`` expects."""
        return f"Invalid type for '{param}': expected {spec.describe()}, got {json_type(value)}."

    def bad_enum(self, param: str, value: Any, allowed: tuple[str, ...], name: str = "") -> str:
        """``value`` is not one of ``allowed`` (``name``: the enum's type name, if known)."""
        return f"Invalid value for '{param}': {value!r}; supported values are {', '.join(allowed)}."

    def bad_pattern(self, param: str, pattern: str) -> str:
        """A string does not match ``pattern``."""
        return f"Invalid '{param}': string does not match pattern '{pattern}'."

    def bad_length(self, param: str, code: str, limit: int, actual: int) -> str:
        """A string or array length is out of range (``code`` says which bound)."""
        return f"Invalid '{param}': length {actual} is out of range ({code}, limit {limit})."

    def bad_number(self, param: str, code: str, limit: float, value: float) -> str:
        """A number is out of range (``code`` says which bound)."""
        return f"Invalid '{param}': {value} is out of range ({code}, limit {limit})."

    def unknown(self, param: str, name: str, parent: str) -> str:
        """A field ``name`` the format does not define, inside ``parent`` (``""`` at the top)."""
        return f"Unknown parameter: '{param}'."

    def bad_tag(self, param: str, value: Any, allowed: tuple[str, ...]) -> str:
        """A union tag (``type``/``role``) names no known variant."""
        return self.bad_enum(param, value, allowed)


@dataclass(slots=True)
class Ctx:
    """One validation run: the dialect, options, and the problems found so far.

    ``beta`` enables a provider's beta surface (Anthropic ``?beta=true``).
    """

    dialect: Dialect
    beta: bool = False
    problems: list[Problem] = field(default_factory=list)

    def add(self, path: Path, code: str, message: str, status: int = 400) -> None:
        """Record a problem at ``path``."""
        self.problems.append(Problem(json_path(path), code, message, self.dialect.param(path), status))

    def warn(self, path: Path, code: str, message: str) -> None:
        """Record a warning at ``path`` (the provider accepts the payload)."""
        self.problems.append(
            Problem(json_path(path), code, message, self.dialect.param(path), 200, "warning")
        )

    def add_at(self, path: Path, param_path: Path, code: str, message: str) -> None:
        """Record a problem whose provider location differs from its JSON path."""
        self.problems.append(Problem(json_path(path), code, message, self.dialect.param(param_path)))


class Spec:
    """A node of a payload description."""

    __slots__ = ()

    def accepts(self, value: Any) -> bool:
        """Whether ``value`` has this spec's JSON type (used to pick an :class:`Either` branch)."""
        raise NotImplementedError

    def describe(self) -> str:
        """The expected type in words (``a string``)."""
        raise NotImplementedError

    def check(self, value: Any, path: Path, ctx: Ctx) -> None:
        """Check ``value`` (whose type is already accepted) and record problems."""

    def run(self, value: Any, path: Path, ctx: Ctx) -> None:
        """Type-check ``value`` then check it."""
        if self.accepts(value):
            self.check(value, path, ctx)
        else:
            ctx.add(path, "invalid_type", ctx.dialect.wrong_type(ctx.dialect.param(path), self, value))


@dataclass(frozen=True, slots=True)
class Anything(Spec):
    """Any JSON value (free-form objects such as JSON Schemas or tool arguments)."""

    kind: str = "any"  # "any" or "object": a free-form value or a free-form object

    def accepts(self, value: Any) -> bool:
        return self.kind == "any" or isinstance(value, dict)

    def describe(self) -> str:
        return "an object" if self.kind == "object" else "a value"


@dataclass(frozen=True, slots=True)
class Str(Spec):
    """A string, optionally an enum, a pattern or a length range."""

    enum: tuple[str, ...] | None = None
    pattern: str | None = None
    min_len: int | None = None
    max_len: int | None = None
    pattern_message: str | None = None  # provider wording for a pattern failure ({param} is filled in)
    name: str = ""  # the enum's type name in the provider's schema (Gemini quotes it)
    _rx: re.Pattern[str] | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.pattern is not None:
            object.__setattr__(self, "_rx", re.compile(self.pattern))

    def accepts(self, value: Any) -> bool:
        return isinstance(value, str)

    def describe(self) -> str:
        return "a string"

    def check(self, value: Any, path: Path, ctx: Ctx) -> None:
        d = ctx.dialect
        if self.enum is not None and value not in self.enum:
            ctx.add(path, "invalid_value", d.bad_enum(d.param(path), value, self.enum, self.name))
            return
        if self.min_len is not None and len(value) < self.min_len:
            ctx.add(
                path, "empty_string", d.bad_length(d.param(path), "empty_string", self.min_len, len(value))
            )
        elif self.max_len is not None and len(value) > self.max_len:
            code = "string_above_max_length"
            ctx.add(path, code, d.bad_length(d.param(path), code, self.max_len, len(value)))
        elif self._rx is not None and self.pattern is not None and not self._rx.search(value):
            param = d.param(path)
            message = (
                self.pattern_message.format(param=param)
                if self.pattern_message
                else d.bad_pattern(param, self.pattern)
            )
            ctx.add(path, "pattern_mismatch", message)


@dataclass(frozen=True, slots=True)
class Bool(Spec):
    """A boolean."""

    def accepts(self, value: Any) -> bool:
        return isinstance(value, bool)

    def describe(self) -> str:
        return "a boolean"


@dataclass(frozen=True, slots=True)
class Int(Spec):
    """An integer (a float with an integral value is accepted, as JSON parsers do)."""

    minimum: int | None = None
    maximum: int | None = None

    def accepts(self, value: Any) -> bool:
        if isinstance(value, bool):
            return False
        return isinstance(value, int) or (isinstance(value, float) and value.is_integer())

    def describe(self) -> str:
        return "an integer"

    def check(self, value: Any, path: Path, ctx: Ctx) -> None:
        _range(value, self.minimum, self.maximum, "integer", path, ctx)


@dataclass(frozen=True, slots=True)
class Num(Spec):
    """A number."""

    minimum: float | None = None
    maximum: float | None = None

    def accepts(self, value: Any) -> bool:
        return isinstance(value, int | float) and not isinstance(value, bool)

    def describe(self) -> str:
        return "a decimal"

    def check(self, value: Any, path: Path, ctx: Ctx) -> None:
        _range(value, self.minimum, self.maximum, "decimal", path, ctx)


def _range(value: float, lo: float | None, hi: float | None, kind: str, path: Path, ctx: Ctx) -> None:
    d = ctx.dialect
    if lo is not None and value < lo:
        code = f"{kind}_below_min_value"
        ctx.add(path, code, d.bad_number(d.param(path), code, lo, value))
    elif hi is not None and value > hi:
        code = f"{kind}_above_max_value"
        ctx.add(path, code, d.bad_number(d.param(path), code, hi, value))


@dataclass(frozen=True, slots=True)
class Arr(Spec):
    """An array of ``items``, optionally with a length range."""

    items: Spec
    min_items: int | None = None
    max_items: int | None = None

    def accepts(self, value: Any) -> bool:
        return isinstance(value, list)

    def describe(self) -> str:
        inner = self.items.describe()
        return f"an array of {inner.split(' ', 1)[1]}s" if " " in inner else "an array"

    def check(self, value: Any, path: Path, ctx: Ctx) -> None:
        d = ctx.dialect
        if self.min_items is not None and len(value) < self.min_items:
            ctx.add(
                path, "empty_array", d.bad_length(d.param(path), "empty_array", self.min_items, len(value))
            )
        elif self.max_items is not None and len(value) > self.max_items:
            code = "array_above_max_length"
            ctx.add(path, code, d.bad_length(d.param(path), code, self.max_items, len(value)))
        items = self.items
        for i, item in enumerate(value):
            items.run(item, (*path, i), ctx)


@dataclass(frozen=True, slots=True)
class Field:
    """One property of an :class:`Obj`: its spec, whether it is required, whether null is allowed."""

    spec: Spec
    required: bool = False
    nullable: bool = False


def req(spec: Spec, *, nullable: bool = False) -> Field:
    """A required property."""
    return Field(spec, True, nullable)


def opt(spec: Spec, *, nullable: bool = False) -> Field:
    """An optional property."""
    return Field(spec, False, nullable)


def _identity(key: str) -> str:
    return key


@dataclass(frozen=True, slots=True)
class Obj(Spec):
    """An object with named properties.

    ``closed`` rejects properties not listed. ``name`` is the type's name in the provider's own
    schema (Gemini quotes proto message names). ``normalize`` maps a key as written in the payload
    to its listed spelling (Gemini accepts both ``functionCall`` and ``function_call``).
    ``ignored`` lists unlisted properties the provider is known to accept and drop (name -> where
    that is known from); they are reported as ``ignored_parameter`` warnings.
    """

    fields: Mapping[str, Field]
    closed: bool = False
    name: str = ""
    normalize: Callable[[str], str] = _identity
    ignored: Mapping[str, str] = field(default_factory=dict)

    def accepts(self, value: Any) -> bool:
        return isinstance(value, dict)

    def describe(self) -> str:
        return "an object"

    def check(self, value: Any, path: Path, ctx: Ctx) -> None:
        seen: set[str] = set()
        norm = self.normalize
        for key, item in value.items():
            canon = norm(key)
            spec = self.fields.get(canon)
            if spec is None:
                if canon in self.ignored:
                    ctx.warn(
                        (*path, key),
                        "ignored_parameter",
                        f"'{ctx.dialect.param((*path, key))}' is not part of the API; the provider "
                        "ignores it.",
                    )
                elif self.closed:
                    d = ctx.dialect
                    ctx.add(
                        (*path, key),
                        "unknown_parameter",
                        d.unknown(d.param((*path, key)), key, d.param(path)),
                    )
                continue
            seen.add(canon)
            if item is None and spec.nullable:
                continue
            spec.spec.run(item, (*path, key), ctx)
        for name, spec in self.fields.items():
            if spec.required and name not in seen:
                d = ctx.dialect
                ctx.add((*path, name), "missing_required_parameter", d.missing(d.param((*path, name)), name))


@dataclass(frozen=True, slots=True)
class Map(Spec):
    """An object used as a map: any keys, values of one spec."""

    values: Spec

    def accepts(self, value: Any) -> bool:
        return isinstance(value, dict)

    def describe(self) -> str:
        return "an object"

    def check(self, value: Any, path: Path, ctx: Ctx) -> None:
        for key, item in value.items():
            self.values.run(item, (*path, key), ctx)


@dataclass(frozen=True, slots=True)
class Tagged(Spec):
    """A union of objects told apart by the string in ``key`` (``type`` or ``role``).

    ``default`` is the tag assumed when the key is absent (Anthropic custom tools have an
    optional ``type``); ``open_tags`` lets unlisted tags through unchecked (new server tools).
    ``tag_in_path`` inserts the chosen tag into provider locations, as pydantic does.
    """

    key: str
    variants: Mapping[str, Spec]
    default: str | None = None
    open_tags: bool = False
    tag_in_path: bool = False

    def accepts(self, value: Any) -> bool:
        return isinstance(value, dict)

    def describe(self) -> str:
        return "an object"

    def check(self, value: Any, path: Path, ctx: Ctx) -> None:
        tag = value.get(self.key, self.default)
        d = ctx.dialect
        if tag is None:
            ctx.add(
                (*path, self.key),
                "missing_required_parameter",
                d.missing(d.param((*path, self.key)), self.key),
            )
            return
        spec = self.variants.get(tag) if isinstance(tag, str) else None
        if spec is None:
            if not self.open_tags or not isinstance(tag, str):
                allowed = tuple(self.variants)
                ctx.add(
                    (*path, self.key), "invalid_value", d.bad_tag(d.param((*path, self.key)), tag, allowed)
                )
            return
        spec.check(value, (*path, Tag(tag)) if self.tag_in_path else path, ctx)


@dataclass(frozen=True, slots=True)
class Either(Spec):
    """One of several specs, chosen by JSON type (e.g. a string or an array of parts)."""

    options: tuple[Spec, ...]
    words: str = ""  # how the provider words the alternatives, e.g. "a string or array of objects"

    def accepts(self, value: Any) -> bool:
        return any(o.accepts(value) for o in self.options)

    def describe(self) -> str:
        return self.words or "one of " + " or ".join(o.describe() for o in self.options)

    def check(self, value: Any, path: Path, ctx: Ctx) -> None:
        for option in self.options:
            if option.accepts(value):
                option.check(value, path, ctx)
                return
