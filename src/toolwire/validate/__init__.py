"""Offline conformance checks: request/response validators per wire format and the history linter.

``validate(payload, format="anthropic")`` returns the :class:`Problem` list a provider would
answer with a 400 (empty when the payload is valid): structure from each provider's official
spec (required fields, types, enums, limits, name patterns) plus cross-item rules (tool call /
result pairing and order, role rules, duplicate ids and tool names, tool_choice naming a missing
tool, Anthropic ``max_tokens`` and thinking placement, Gemini ``functionResponse`` shape).
Messages use the provider's own wording where it is known.

The package itself is callable: ``toolwire.validate(payload, format=...)`` is
``toolwire.validate.validate(payload, format=...)``. Type checkers see ``toolwire.validate`` as
that function (``toolwire/__init__.py`` says so under ``TYPE_CHECKING``); import the package's
other names with ``from toolwire.validate import lint_history``.
"""

import sys
import types
from typing import Any, Literal

from toolwire.ir.base import FormatName
from toolwire.validate.history import Problem, lint_history
from toolwire.validate.validator import FORMATS, KINDS, validate

__all__ = ["FORMATS", "KINDS", "Problem", "lint_history", "validate"]


class _CallableModule(types.ModuleType):
    """This package, callable as :func:`validate`."""

    def __call__(
        self,
        payload: Any,
        *,
        format: FormatName,
        kind: Literal["request", "response"] = "request",
        beta: bool = False,
        dialect: str | None = None,
    ) -> list[Problem]:
        return validate(payload, format=format, kind=kind, beta=beta, dialect=dialect)


sys.modules[__name__].__class__ = _CallableModule
