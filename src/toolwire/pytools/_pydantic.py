"""The optional pydantic dependency (the ``models`` extra): a lazy import that names the extra."""

from __future__ import annotations

from toolwire._extras import require
from toolwire.errors import MissingDependencyError, ToolDefinitionError

__all__ = ["INSTALL_HINT", "PydanticMissingError", "require_pydantic"]

INSTALL_HINT = "building tools from Python needs pydantic >= 2.7: pip install 'toolwire[models]'"


class PydanticMissingError(MissingDependencyError, ToolDefinitionError):
    """pydantic is not installed: a tool cannot be built from Python (both error types apply)."""


def require_pydantic() -> None:
    """Raise :class:`PydanticMissingError` naming the ``models`` extra when pydantic 2 is missing."""
    require("building tools from Python", "pydantic", error=PydanticMissingError)
    import pydantic

    if int(pydantic.VERSION.split(".", 1)[0]) < 2:
        raise ToolDefinitionError(f"{INSTALL_HINT} (found pydantic {pydantic.VERSION})")
