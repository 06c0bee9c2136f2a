"""OpenAI's wording of validation errors, shared by Chat Completions and Responses.

Messages follow the error bodies the OpenAI API returns (``invalid_request_error``), e.g.
``Missing required parameter: 'tools[0].name'.`` or ``Invalid type for 'messages[1].content':
expected one of a string or array of objects, but got an integer instead.``
"""

from __future__ import annotations

from typing import Any

from toolwire.validate._engine import Dialect, Spec, json_type

__all__ = ["OpenAIDialect", "quote_list"]

_GOT = {
    "string": "a string",
    "integer": "an integer",
    "number": "a decimal",
    "boolean": "a boolean",
    "object": "an object",
    "array": "an array",
    "null": "null",
}


def quote_list(values: tuple[str, ...] | list[str]) -> str:
    """``'a', 'b', and 'c'`` (OpenAI's enumeration style)."""
    quoted = [f"'{v}'" for v in values]
    if len(quoted) <= 2:
        return " and ".join(quoted)
    return ", ".join(quoted[:-1]) + ", and " + quoted[-1]


class OpenAIDialect(Dialect):
    """OpenAI wording; ``top_unknown`` is the sentence for an unknown top-level parameter."""

    def __init__(self, top_unknown: str = "Unknown parameter: '{name}'.") -> None:
        self.top_unknown = top_unknown

    def wrong_type(self, param: str, spec: Spec, value: Any) -> str:
        got = _GOT.get(json_type(value), json_type(value))
        return f"Invalid type for '{param}': expected {spec.describe()}, but got {got} instead."

    def bad_enum(self, param: str, value: Any, allowed: tuple[str, ...], name: str = "") -> str:
        return f"Invalid value: '{value}'. Supported values are: {quote_list(allowed)}."

    def bad_pattern(self, param: str, pattern: str) -> str:
        return (
            f"Invalid '{param}': string does not match pattern. "
            f"Expected a string that matches the pattern '{pattern}'."
        )

    def bad_length(self, param: str, code: str, limit: int, actual: int) -> str:
        if code == "empty_string":
            return (
                f"Invalid '{param}': empty string. Expected a string with minimum length {limit}, "
                "but got an empty string instead."
            )
        if code == "empty_array":
            return (
                f"Invalid '{param}': empty array. Expected an array with minimum length {limit}, "
                "but got an empty array instead."
            )
        what = "string" if code.startswith("string") else "array"
        return (
            f"Invalid '{param}': {what} too long. Expected {_article(what)} {what} with maximum length "
            f"{limit}, but got {_article(what)} {what} with length {actual} instead."
        )

    def bad_number(self, param: str, code: str, limit: float, value: float) -> str:
        kind, side = code.split("_")[0], "above maximum" if "above" in code else "below minimum"
        op = "<=" if "above" in code else ">="
        return (
            f"Invalid '{param}': {kind} {side} value. "
            f"Expected a value {op} {_num(limit)}, but got {_num(value)} instead."
        )

    def unknown(self, param: str, name: str, parent: str) -> str:
        if not parent:
            return self.top_unknown.format(name=name)
        return f"Unknown parameter: '{param}'."


def _article(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
