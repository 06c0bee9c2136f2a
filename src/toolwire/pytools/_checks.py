"""Checks shared by the tool builders (no pydantic needed)."""

from __future__ import annotations

from typing import Any

from toolwire.errors import ToolNameError

__all__ = ["MAX_NAME_LENGTH", "check_tool_name"]

MAX_NAME_LENGTH = 128
"""The longest tool name any supported format accepts (Anthropic; OpenAI and Gemini allow 64)."""


def check_tool_name(name: Any) -> str:
    """``name`` if it can name a tool: a non-empty string of at most 128 characters.

    The check is deliberately loose: characters outside ``[a-zA-Z0-9_-]`` are allowed,
    because :mod:`toolwire.names` rewrites them reversibly for each target format.

    Raises:
        ToolNameError: the name is not a string, is empty or blank, or is too long.
    """
    if not isinstance(name, str):
        raise ToolNameError(f"tool name must be a string, got {type(name).__name__}")
    if not name.strip():
        raise ToolNameError("tool name is empty")
    if len(name) > MAX_NAME_LENGTH:
        raise ToolNameError(f"tool name is {len(name)} characters long, the limit is {MAX_NAME_LENGTH}")
    return name
