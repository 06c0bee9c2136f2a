"""Which tool names a target takes as they are, for the pair lanes' writers (issue 18).

A writer returns ``None`` for a request with a tool or call name the renaming pass would
rewrite for its target (the general path then renames it and notes it). The same few names come
with every request of a conversation, so each check remembers the names it found valid: a set
hit instead of a regex match.
"""

from __future__ import annotations

from typing import Any

from toolwire.ir.base import Format
from toolwire.names import NAME_RULES

__all__ = ["NameCheck"]

_MEMO = 4096
"""At most this many names remembered per target (a request of made-up names can't grow it)."""


class NameCheck:
    """``check(name)``: whether ``name`` is a string the target ``fmt`` takes as a tool name.

    Attributes:
        valid: the names found valid so far (a hot loop may test ``name in check.valid`` first).
    """

    __slots__ = ("_match", "valid")

    def __init__(self, fmt: Format) -> None:
        self._match = NAME_RULES[fmt].pattern.fullmatch
        self.valid: set[str] = set()

    def __call__(self, name: Any) -> bool:
        if type(name) is not str:
            return False
        if name in self.valid:
            return True
        if self._match(name) is None:
            return False
        if len(self.valid) < _MEMO:
            self.valid.add(name)
        return True
