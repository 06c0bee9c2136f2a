"""Tool names: validate and sanitize per target format, reversibly.

Each provider restricts tool names differently:

=================  ==========================  ==========
format             characters                  max length
=================  ==========================  ==========
openai-chat        ``a-z A-Z 0-9 _ -``         64
openai-responses   ``a-z A-Z 0-9 _ -``         64
anthropic          ``a-z A-Z 0-9 _ -``         128
gemini             ``a-z A-Z 0-9 _ . : -``     64 (first character a letter or ``_``)
bedrock-converse   ``a-z A-Z 0-9 _ -``         64
=================  ==========================  ==========

:class:`NameMap` turns original names into valid, collision-free target names and
back. Sanitized names are derived deterministically from the original (a short hash
suffix disambiguates), so a stateless gateway maps the same name the same way on
every request.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache

from toolwire.errors import ToolNameError
from toolwire.ir.base import Format

__all__ = ["NAME_RULES", "NameMap", "NameRule", "is_valid_name", "sanitize_name"]


@dataclass(frozen=True, slots=True)
class NameRule:
    """The tool-name rule of one format."""

    pattern: re.Pattern[str]
    invalid_char: re.Pattern[str]
    max_length: int
    first_char: re.Pattern[str] | None = None


_OPENAI = NameRule(re.compile(r"[a-zA-Z0-9_-]{1,64}"), re.compile(r"[^a-zA-Z0-9_-]"), 64)

NAME_RULES: dict[Format, NameRule] = {
    "openai-chat": _OPENAI,
    "openai-responses": _OPENAI,
    "anthropic": NameRule(re.compile(r"[a-zA-Z0-9_-]{1,128}"), re.compile(r"[^a-zA-Z0-9_-]"), 128),
    "gemini": NameRule(
        re.compile(r"[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}"),
        re.compile(r"[^a-zA-Z0-9_.:-]"),
        64,
        first_char=re.compile(r"[a-zA-Z_]"),
    ),
    "bedrock-converse": _OPENAI,
}

_HASH_LEN = 8


def is_valid_name(name: str, target: Format) -> bool:
    """Whether ``name`` is a valid tool name for ``target``."""
    return NAME_RULES[target].pattern.fullmatch(name) is not None


def _digest(name: str) -> str:
    return hashlib.blake2s(name.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()[:_HASH_LEN]


def sanitize_name(name: str, target: Format) -> str:
    """A valid ``target`` name for ``name``: itself when valid, else a deterministic rewrite.

    Invalid characters become ``_``; an over-long name is cut and given a hash suffix
    of the original so that different long names stay different. (:class:`NameMap`
    adds a hash suffix on collisions too.)

    Raises:
        ToolNameError: the name is empty.
    """
    if not name:
        raise ToolNameError("tool name is empty")
    rule = NAME_RULES[target]
    if rule.pattern.fullmatch(name):
        return name
    clean = rule.invalid_char.sub("_", name)
    if rule.first_char is not None and not rule.first_char.match(clean):
        clean = "_" + clean
    if len(clean) > rule.max_length:
        suffix = "_" + _digest(name)
        clean = clean[: rule.max_length - len(suffix)] + suffix
    return clean


@lru_cache(maxsize=4096)
def _sanitized(name: str, target: Format) -> str:
    """:func:`sanitize_name`, remembered: every request's fresh :class:`NameMap` asks again for
    the same few tool names (a dict hit instead of a regex match)."""
    return sanitize_name(name, target)


class NameMap:
    """A reversible mapping of original tool names to valid target names.

    Example:
        >>> names = NameMap("anthropic")
        >>> names.to_target("lookup.user")
        'lookup_user'
        >>> names.to_original(names.to_target("lookup.user"))
        'lookup.user'
    """

    __slots__ = ("_back", "_forward", "target")

    def __init__(self, target: Format) -> None:
        self.target: Format = target
        self._forward: dict[str, str] = {}
        self._back: dict[str, str] = {}

    def to_target(self, original: str) -> str:
        """The target name of ``original`` (registered on first use, collision-free)."""
        known = self._forward.get(original)
        if known is not None:
            return known
        candidate = _sanitized(original, self.target)
        if candidate in self._back and self._back[candidate] != original:
            suffix = "_" + _digest(original)
            limit = NAME_RULES[self.target].max_length - len(suffix)
            candidate = candidate[:limit] + suffix
            if candidate in self._back:
                raise ToolNameError(f"cannot find a collision-free name for {original!r}")
        self._forward[original] = candidate
        self._back[candidate] = original
        return candidate

    def to_original(self, name: str) -> str:
        """The original name of a target name; unknown names are returned unchanged."""
        return self._back.get(name, name)

    @property
    def renamed(self) -> dict[str, str]:
        """Original -> target for every name that changed."""
        return {k: v for k, v in self._forward.items() if k != v}

    def __len__(self) -> int:
        return len(self._forward)
