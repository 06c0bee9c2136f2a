"""A broken rule found by a check: validators, stream-order checks and the history linter.

Defined in the canonical-model layer so that every layer that checks something (format stream
grammars, validators) reports problems the same way without importing a layer below it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Problem"]


@dataclass(frozen=True, slots=True)
class Problem:
    """One rule broken: where, which rule, and a sentence saying what is wrong.

    Attributes:
        path: JSON path of the offending value (``$.tools[0].function.name``).
        code: the rule broken (a stable toolwire code, e.g. ``missing_required_parameter``).
        message: what is wrong, in the provider's own wording where it is known.
        param: the provider's own spelling of the location (OpenAI ``tools[0].name``,
            Anthropic ``messages.1.content.0.tool_use_id``), or ``None``.
        status: the HTTP status the provider answers this problem with.
        severity: ``error`` (the provider answers 400) or ``warning`` (the provider is known to
            accept the payload and ignore the offending value).
    """

    path: str
    code: str
    message: str
    param: str | None = None
    status: int = 400
    severity: Literal["error", "warning"] = "error"

    def __str__(self) -> str:
        return f"{self.path}: {self.code}: {self.message}"
