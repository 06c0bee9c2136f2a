"""Anthropic's wording of validation errors.

Pydantic style, location first: ``messages.0.content.1.text.text: Field required``.
"""

from __future__ import annotations

from typing import Any

from toolwire.validate._engine import Anything, Arr, Bool, Dialect, Either, Int, Num, Path, Spec, Str

__all__ = ["AnthropicDialect", "or_list"]


def or_list(values: tuple[str, ...]) -> str:
    """``'a', 'b' or 'c'`` (pydantic's enumeration style)."""
    quoted = [f"'{v}'" for v in values]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def _valid(spec: Spec) -> str:
    if isinstance(spec, Either):
        return _valid(spec.options[-1])
    if isinstance(spec, Str):
        return "a valid string"
    if isinstance(spec, Bool):
        return "a valid boolean"
    if isinstance(spec, Int):
        return "a valid integer"
    if isinstance(spec, Num):
        return "a valid number"
    if isinstance(spec, Arr):
        return "a valid list"
    if isinstance(spec, Anything) and spec.kind == "any":
        return "a valid value"
    return "a valid dictionary"


class AnthropicDialect(Dialect):
    """Dotted locations with the chosen union tag inserted, pydantic messages prefixed by the location."""

    def param(self, path: Path) -> str:
        return ".".join(str(seg) for seg in path)

    def missing(self, param: str, name: str) -> str:
        return f"{param}: Field required"

    def wrong_type(self, param: str, spec: Spec, value: Any) -> str:
        return f"{param}: Input should be {_valid(spec)}"

    def bad_enum(self, param: str, value: Any, allowed: tuple[str, ...], name: str = "") -> str:
        return f"{param}: Input should be {or_list(allowed)}"

    def bad_tag(self, param: str, value: Any, allowed: tuple[str, ...]) -> str:
        where = param.rsplit(".", 1)[0] if "." in param else param
        return (
            f"{where}: Input tag '{value}' found using '{param.rsplit('.', 1)[-1]}' does not match any of "
            f"the expected tags: {', '.join(repr(a) for a in allowed)}"
        )

    def bad_pattern(self, param: str, pattern: str) -> str:
        return f"{param}: String should match pattern '{pattern}'"

    def bad_length(self, param: str, code: str, limit: int, actual: int) -> str:
        if code == "empty_string":
            return f"{param}: String should have at least {limit} character{'s' if limit != 1 else ''}"
        if code == "string_above_max_length":
            return f"{param}: String should have at most {limit} characters"
        if code == "empty_array":
            items = "item" if limit == 1 else "items"
            return f"{param}: List should have at least {limit} {items} after validation, not {actual}"
        return f"{param}: List should have at most {limit} items after validation, not {actual}"

    def bad_number(self, param: str, code: str, limit: float, value: float) -> str:
        relation = "less than or equal to" if "above" in code else "greater than or equal to"
        shown = int(limit) if float(limit).is_integer() else limit
        return f"{param}: Input should be {relation} {shown}"

    def unknown(self, param: str, name: str, parent: str) -> str:
        return f"{param}: Extra inputs are not permitted"
