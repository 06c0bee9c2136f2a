"""OpenAI strict-mode size limits, tallied while a schema is converted."""

from __future__ import annotations

from typing import Any

from toolwire.schema.keywords import OPENAI_STRICT_SIZE
from toolwire.schema.refs import DEF_KEYS
from toolwire.schema.walker import Loc

__all__ = ["SizeTally"]

_LIMIT = OPENAI_STRICT_SIZE


def _string_chars(values: list[Any]) -> int:
    return sum(len(value) for value in values if type(value) is str)


class SizeTally:
    """Counts what :data:`~toolwire.schema.keywords.OPENAI_STRICT_SIZE` limits.

    The converter calls :meth:`enter` and :meth:`leave` around every object schema (so the
    current nesting is known) and :meth:`count` on every converted node.
    """

    __slots__ = ("chars", "enum_values", "level", "problems", "properties", "too_deep")

    def __init__(self) -> None:
        self.properties = 0
        self.enum_values = 0
        self.chars = 0
        self.level = 0
        self.too_deep = False
        self.problems: list[tuple[Loc, str]] = []

    def enter(self, loc: Loc) -> None:
        self.level += 1
        if self.level > _LIMIT["nesting"] and not self.too_deep:
            self.too_deep = True
            self.problems.append((loc, f"objects nested deeper than {_LIMIT['nesting']} levels"))

    def leave(self) -> None:
        self.level -= 1

    def count(self, node: dict[str, Any], loc: Loc) -> None:
        props = node.get("properties")
        if type(props) is dict:
            self.properties += len(props)
            self.chars += sum(len(name) for name in props)
        for key in DEF_KEYS:
            defs = node.get(key)
            if type(defs) is dict:
                self.chars += sum(len(name) for name in defs)
        enum = node.get("enum")
        if type(enum) is list:
            self.enum_values += len(enum)
            enum_chars = _string_chars(enum)
            self.chars += enum_chars
            if len(enum) > _LIMIT["large_enum"] and enum_chars > _LIMIT["large_enum_chars"]:
                message = (
                    f"an enum of more than {_LIMIT['large_enum']} values exceeds "
                    f"{_LIMIT['large_enum_chars']} characters"
                )
                self.problems.append((loc, message))
        if type(node.get("const")) is str:
            self.chars += len(node["const"])

    def report(self, loc: Loc) -> list[tuple[Loc, str]]:
        """Every limit exceeded, with the location to report it at."""
        problems = list(self.problems)
        if self.properties > _LIMIT["properties"]:
            problems.append((loc, f"more than {_LIMIT['properties']} object properties in total"))
        if self.enum_values > _LIMIT["enum_values"]:
            problems.append((loc, f"more than {_LIMIT['enum_values']} enum values in total"))
        if self.chars > _LIMIT["string_chars"]:
            problems.append(
                (loc, f"names and enum values exceed {_LIMIT['string_chars']} characters in total")
            )
        return problems
