"""Cross-item rules shared by several formats: unique tool names, tool_choice naming a tool."""

from __future__ import annotations

from collections.abc import Iterable

from toolwire.validate._engine import Ctx, Path

__all__ = ["tool_choice_names_missing", "unique_names"]


def unique_names(named: Iterable[tuple[int, str, Path]], where: Path, ctx: Ctx, message: str) -> None:
    """Report each tool whose name an earlier tool already uses (``message`` has ``{name}``).

    ``named`` yields (index, name, path of the name); ``where`` is the tools array.
    """
    seen: set[str] = set()
    for _, name, path in named:
        if name in seen:
            ctx.add_at(path, where, "duplicate_tool_name", message.format(name=name))
        seen.add(name)


def tool_choice_names_missing(
    chosen: Iterable[str], names: set[str], path: Path, ctx: Ctx, message: str
) -> None:
    """Report each name in ``chosen`` that is not a declared tool (``message`` has ``{name}``)."""
    for name in chosen:
        if name not in names:
            ctx.add(path, "tool_choice_unknown_tool", message.format(name=name))
