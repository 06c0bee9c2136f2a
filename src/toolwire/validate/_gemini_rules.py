"""Gemini conversation rules: roles, parts, and function call / response turns."""

from __future__ import annotations

from typing import Any

from toolwire.validate._engine import Ctx, Path
from toolwire.validate._gemini_dialect import camel, request_check, snake
from toolwire.validate._rules import schema_root_type

__all__ = ["ROLES", "check_contents", "check_parameter_roots", "declared_names", "get"]

ROLES = ("user", "model")
DATA_FIELDS = frozenset(
    {
        "text",
        "inlineData",
        "functionCall",
        "functionResponse",
        "fileData",
        "executableCode",
        "codeExecutionResult",
        "toolCall",
        "toolResponse",
    }
)
_COUNT = (
    "Please ensure that the number of function response parts is equal to the number of function call "
    "parts of the function call turn."
)
_RESPONSE_AFTER = "Please ensure that function response turn comes immediately after a function call turn."
_CALL_AFTER = (
    "Please ensure that function call turn comes immediately after a user turn or after a function "
    "response turn."
)


def get(obj: Any, name: str) -> Any:
    """A field of a proto JSON object under either spelling (``toolConfig`` or ``tool_config``)."""
    if not isinstance(obj, dict):
        return None
    return obj[name] if name in obj else obj.get(snake(name))


def _items(value: Any) -> list[Any]:
    """A repeated field's elements (a lone object counts as one)."""
    if isinstance(value, list):
        return value
    return [value] if isinstance(value, dict) else []


def _declarations(payload: dict[str, Any]) -> list[tuple[Path, dict[str, Any]]]:
    """(path, declaration) of every named function declaration, across tools.

    A lone object stands for a one-element list (of tools or of declarations); its path has no index.
    """
    out: list[tuple[Path, dict[str, Any]]] = []
    tools = get(payload, "tools")
    for t, tool in enumerate(_items(tools)):
        if not isinstance(tool, dict):
            continue
        key = "functionDeclarations" if "functionDeclarations" in tool else "function_declarations"
        where: Path = ("tools", t, key) if isinstance(tools, list) else ("tools", key)
        decls = tool.get(key)
        for d, decl in enumerate(_items(decls)):
            if isinstance(decl, dict) and isinstance(decl.get("name"), str):
                out.append(((*where, d) if isinstance(decls, list) else where, decl))
    return out


def declared_names(payload: dict[str, Any]) -> list[tuple[int, str, Path]]:
    """(index, name, path of the name) of every function declaration, across tools."""
    return [(i, decl["name"], (*path, "name")) for i, (path, decl) in enumerate(_declarations(payload))]


def check_parameter_roots(payload: dict[str, Any], ctx: Ctx) -> None:
    """A declaration's ``parameters`` (or ``parametersJsonSchema``) root must be an object schema."""
    for path, decl in _declarations(payload):
        for key in ("parameters", "parametersJsonSchema", "parameters_json_schema"):
            kind = schema_root_type(decl.get(key))
            if kind is not None:
                where = ".".join(snake(str(s)) if isinstance(s, str) else f"[{s}]" for s in path)
                ctx.add(
                    (*path, key, "type"),
                    "invalid_function_parameters",
                    request_check(
                        f"{where.replace('.[', '[')}.{snake(key)}.type",
                        f"schema of function '{decl['name']}' must be of type OBJECT, got {kind}.",
                    ),
                )


def _data_keys(part: dict[str, Any]) -> list[str]:
    return [k for k in part if camel(k) in DATA_FIELDS]


def _turn(content: Any) -> tuple[str | None, int, int]:
    """(role, function calls, function responses) of one content."""
    if not isinstance(content, dict):
        return None, 0, 0
    parts = [p for p in _items(get(content, "parts")) if isinstance(p, dict)]
    calls = sum(1 for p in parts if get(p, "functionCall") is not None)
    responses = sum(1 for p in parts if get(p, "functionResponse") is not None)
    role = content.get("role")
    return (role if isinstance(role, str) else "user"), calls, responses


def check_contents(contents: list[Any], ctx: Ctx) -> None:
    """Roles, part shape, and the function call / response turn order and counts."""
    for i, content in enumerate(contents):
        if isinstance(content, dict):
            _check_content(content, i, ctx)
    turns = [_turn(c) for c in contents]
    for i, (role, calls, responses) in enumerate(turns):
        prev = turns[i - 1] if i > 0 else (None, 0, 0)
        if calls and role == "model" and prev[0] != "user":
            ctx.add(("contents", i), "call_not_after_user", _CALL_AFTER)
        if responses and not (prev[0] == "model" and prev[1]):
            ctx.add(("contents", i), "orphan_tool_result", _RESPONSE_AFTER)
        if calls and role == "model" and i + 1 < len(turns) and turns[i + 1][2] != calls:
            ctx.add(("contents", i + 1), "orphan_tool_call", _COUNT)


def _check_content(content: dict[str, Any], i: int, ctx: Ctx) -> None:
    role = content.get("role")
    if isinstance(role, str) and role not in ROLES:
        ctx.add(("contents", i, "role"), "invalid_role", "Please use a valid role: user, model.")
    parts = content.get("parts")
    if parts is None or parts == []:
        ctx.add(
            ("contents", i, "parts"),
            "empty_content",
            request_check(f"contents[{i}].parts", "contents.parts must not be empty."),
        )
        return
    for j, part in enumerate(_items(parts)):
        if not isinstance(part, dict):
            continue
        keys = _data_keys(part)
        where: Path = ("contents", i, "parts", j) if isinstance(parts, list) else ("contents", i, "parts")
        if not keys and not part.get("thoughtSignature") and not part.get("thought_signature"):
            ctx.add_at(
                where,
                (*where, "data"),
                "empty_part",
                request_check(
                    ctx.dialect.param((*where, "data")),
                    "required oneof field 'data' must have one initialized field",
                ),
            )
        elif len(keys) > 1:
            ctx.add(
                (*where, keys[1]),
                "oneof_conflict",
                f"Invalid JSON payload received. Oneof field 'data' is already set. Cannot set '{keys[1]}'",
            )
