"""The optional pydantic dependency: a lazy import with an install hint."""

from __future__ import annotations

from toolwire.errors import ToolDefinitionError

__all__ = ["INSTALL_HINT", "require_pydantic"]

INSTALL_HINT = "building tools from Python needs pydantic >= 2.7: pip install 'toolwire[models]'"


def require_pydantic() -> None:
    """Raise :class:`ToolDefinitionError` with an install hint when pydantic 2 is not importable."""
    try:
        import pydantic
    except ImportError:
        raise ToolDefinitionError(INSTALL_HINT) from None
    if int(pydantic.VERSION.split(".", 1)[0]) < 2:
        raise ToolDefinitionError(f"{INSTALL_HINT} (found pydantic {pydantic.VERSION})")
