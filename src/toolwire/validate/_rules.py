"""Cross-item rules shared by several formats: unique tool names, tool_choice naming a tool, a
function's ``parameters`` root being an object schema."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from toolwire.validate._engine import Ctx, Path

__all__ = ["check_parameters_root", "schema_root_type", "tool_choice_names_missing", "unique_names"]


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


def schema_root_type(schema: Any) -> str | None:
    """The root ``type`` of a function parameters schema when it is not ``object`` (else ``None``).

    A schema without ``type`` passes (``{}`` declares no parameters); a type list passes when it
    contains ``object``.
    """
    if not isinstance(schema, dict) or "type" not in schema:
        return None
    kind = schema["type"]
    if isinstance(kind, str) and kind.lower() == "object":
        return None
    if isinstance(kind, list) and any(isinstance(k, str) and k.lower() == "object" for k in kind):
        return None
    return str(kind)


def check_parameters_root(name: str, schema: Any, path: Path, ctx: Ctx) -> bool:
    """Report an OpenAI function whose ``parameters`` root is not an object; True when it is fine."""
    kind = schema_root_type(schema)
    if kind is None:
        return True
    ctx.add(
        path,
        "invalid_function_parameters",
        f"Invalid schema for function '{name}': schema must be a JSON Schema of 'type: \"object\"', "
        f"got 'type: \"{kind}\"'.",
    )
    return False
