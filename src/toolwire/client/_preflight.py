"""Checks run on a request body before it is sent: a request that would be refused is never sent.

The client's own rules (fields each endpoint needs, tool names and schemas) run first; then the
format's conformance validator (:func:`toolwire.validate.validate`), whose messages use the
provider's own wording.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolwire.errors import RequestRejectedError
from toolwire.ir.base import Format
from toolwire.names import is_valid_name
from toolwire.validate import Problem, validate

__all__ = ["RequestRejectedError", "check_request", "preflight"]


def _need_list(body: dict[str, Any], key: str, out: list[Problem]) -> None:
    value = body.get(key)
    if value is None:
        out.append(Problem(f"$.{key}", "missing_field", f"'{key}' is required"))
    elif not isinstance(value, list | str) or not value:
        out.append(Problem(f"$.{key}", "empty_field", f"'{key}' must be a non-empty list"))


def _need_model(body: dict[str, Any], out: list[Problem]) -> None:
    if not isinstance(body.get("model"), str) or not body["model"]:
        out.append(Problem("$.model", "missing_field", "'model' is required"))


def _check_tool(path: str, name: Any, schema: Any, fmt: Format, out: list[Problem]) -> None:
    if not isinstance(name, str) or not is_valid_name(name, fmt):
        out.append(Problem(f"{path}.name", "invalid_tool_name", f"tool name {name!r} is not valid for {fmt}"))
    if schema is not None and not isinstance(schema, dict):
        out.append(Problem(path, "invalid_tool_schema", "the tool's parameter schema must be an object"))


def _tools(body: dict[str, Any], fmt: Format, out: list[Problem]) -> None:
    tools = body.get("tools")
    if tools is None:
        return
    if not isinstance(tools, list):
        out.append(Problem("$.tools", "invalid_tools", "'tools' must be a list"))
        return
    for i, tool in enumerate(tools):
        path = f"$.tools[{i}]"
        if not isinstance(tool, dict):
            out.append(Problem(path, "invalid_tool", "a tool must be an object"))
        elif fmt == "openai-chat" and tool.get("type") == "function":
            fn = tool.get("function")
            fn = fn if isinstance(fn, dict) else {}
            _check_tool(f"{path}.function", fn.get("name"), fn.get("parameters"), fmt, out)
        elif fmt == "openai-responses" and tool.get("type") == "function":
            _check_tool(path, tool.get("name"), tool.get("parameters"), fmt, out)
        elif fmt == "anthropic" and tool.get("type") in (None, "custom"):
            _check_tool(path, tool.get("name"), tool.get("input_schema"), fmt, out)
        elif fmt == "gemini":
            for j, decl in enumerate(tool.get("functionDeclarations") or ()):
                decl = decl if isinstance(decl, dict) else {}
                schema = decl.get("parameters", decl.get("parametersJsonSchema"))
                _check_tool(f"{path}.functionDeclarations[{j}]", decl.get("name"), schema, fmt, out)


def _responses(body: dict[str, Any], require_instructions: bool, out: list[Problem]) -> None:
    _need_model(body, out)
    _need_list(body, "input", out)
    instructions = body.get("instructions")
    if require_instructions and (not isinstance(instructions, str) or not instructions.strip()):
        out.append(Problem("$.instructions", "missing_field", "'instructions' is required"))


def _chat(body: dict[str, Any], out: list[Problem]) -> None:
    _need_model(body, out)
    _need_list(body, "messages", out)


def _anthropic(body: dict[str, Any], out: list[Problem]) -> None:
    _need_model(body, out)
    _need_list(body, "messages", out)
    max_tokens = body.get("max_tokens")
    if type(max_tokens) is not int or max_tokens < 1:
        out.append(Problem("$.max_tokens", "invalid_max_tokens", "'max_tokens' must be a positive integer"))


def _gemini(body: dict[str, Any], out: list[Problem]) -> None:
    _need_list(body, "contents", out)


_RULES: dict[str, Callable[[dict[str, Any], bool, list[Problem]], None]] = {
    "openai-responses": _responses,
    "openai-chat": lambda body, _req, out: _chat(body, out),
    "anthropic": lambda body, _req, out: _anthropic(body, out),
    "gemini": lambda body, _req, out: _gemini(body, out),
    "bedrock-converse": lambda body, _req, out: _need_list(body, "messages", out),  # model in the URL
}


def _conformance(body: dict[str, Any], fmt: Format) -> list[Problem]:
    """The conformance validator's problems (none when it does not know ``fmt`` yet)."""
    try:
        return validate(body, format=fmt, kind="request")
    except ValueError:
        return []


def check_request(body: dict[str, Any], fmt: Format, *, require_instructions: bool = False) -> list[Problem]:
    """Every problem found in request ``body`` of format ``fmt`` (empty when it may be sent)."""
    out: list[Problem] = []
    _RULES[fmt](body, require_instructions, out)
    _tools(body, fmt, out)
    if not out:
        out.extend(_conformance(body, fmt))
    return out


def preflight(body: dict[str, Any], fmt: Format, *, require_instructions: bool = False) -> None:
    """Raise :class:`RequestRejectedError` when ``body`` would be refused by the provider."""
    problems = check_request(body, fmt, require_instructions=require_instructions)
    if problems:
        raise RequestRejectedError(problems)
