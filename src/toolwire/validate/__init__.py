"""Conformance checks. For now: the history linter over canonical conversations."""

from toolwire.validate.history import Problem, lint_history

__all__ = ["Problem", "lint_history"]
