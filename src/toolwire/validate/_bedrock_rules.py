"""Bedrock Converse wording and cross-item rules.

Wording: AWS ``ValidationException`` messages (``1 validation error detected: Value null at
'messages.1.member.content' failed to satisfy constraint: Member must not be null``): locations
use the wire field names, list members as ``<1-based index>.member``. The conversation rules
use the API's own sentences for the ones it words in prose (alternation, tool results).

Rules: every union (content block, tool-result item, system block, tool, tool choice, image and
document source, reasoning content) sets exactly one member; messages alternate ``user`` /
``assistant`` (a conversation may start with an assistant turn: recorded, accepted); no empty
content and no empty text (``"\n"`` is accepted: recorded); ``toolUse`` only in
assistant turns and ``toolResult`` only in user turns; every ``toolUse`` is answered by a
``toolResult`` in the next (user) message and every ``toolResult`` answers a ``toolUse`` of the
message before (server tools, a ``type`` on the block, run on Bedrock's side and are exempt);
tool blocks need ``toolConfig``; tool names unique; ``toolChoice.tool`` names a tool.
"""

from __future__ import annotations

from typing import Any

from toolwire.validate._engine import Ctx, Dialect, Path, Spec, Tag

__all__ = ["BedrockDialect", "check_conversation", "check_message_unions", "check_tools", "check_unions"]


# The length codes of a lower bound (an empty string or list); the others are upper bounds.
_AT_LEAST = ("empty_string", "empty_array")


class BedrockDialect(Dialect):
    """AWS validation wording (see the module docstring)."""

    def param(self, path: Path) -> str:
        out: list[str] = []
        for seg in path:
            if isinstance(seg, int):
                out.append(f"{seg + 1}.member")
            elif not isinstance(seg, Tag):
                out.append(str(seg))
        return ".".join(out)

    def _error(self, value: str, param: str, constraint: str) -> str:
        head = f"1 validation error detected: Value {value} at '{param}'"
        return f"{head} failed to satisfy constraint: {constraint}"

    def missing(self, param: str, name: str) -> str:
        return self._error("null", param, "Member must not be null")

    def wrong_type(self, param: str, spec: Spec, value: Any) -> str:
        return f"Unexpected value type in payload at '{param}': expected {spec.describe()}"

    def bad_enum(self, param: str, value: Any, allowed: tuple[str, ...], name: str = "") -> str:
        return self._error(f"'{value}'", param, f"Member must satisfy enum value set: [{', '.join(allowed)}]")

    def bad_pattern(self, param: str, pattern: str) -> str:
        return self._error("(redacted)", param, f"Member must satisfy regular expression pattern: {pattern}")

    def bad_length(self, param: str, code: str, limit: int, actual: int) -> str:
        bound = "greater than or equal to" if code in _AT_LEAST else "less than or equal to"
        return self._error("(redacted)", param, f"Member must have length {bound} {limit}")

    def bad_number(self, param: str, code: str, limit: float, value: float) -> str:
        bound = "greater than or equal to" if "below" in code else "less than or equal to"
        return self._error(f"'{value}'", param, f"Member must have value {bound} {limit}")

    def unknown(self, param: str, name: str, parent: str) -> str:
        return (
            f'Unknown parameter in input: "{name}", must be one of the members of {parent or "the request"}'
        )


def _one_member(value: Any, path: Path, what: str, ctx: Ctx) -> None:
    if not isinstance(value, dict):
        return
    set_keys = [k for k, v in value.items() if v is not None]
    if len(set_keys) > 1:
        ctx.add(path, "oneof_conflict", f"Only one member of {what} can be set; got {', '.join(set_keys)}.")
    elif not set_keys:
        ctx.add(path, "empty_part", f"One member of {what} must be set.")


def _items(value: Any) -> list[tuple[int, Any]]:
    return list(enumerate(value)) if isinstance(value, list) else []


def _media_unions(block: Any, path: Path, ctx: Ctx) -> None:
    if not isinstance(block, dict):
        return
    for kind in ("image", "document"):
        inner = block.get(kind)
        if isinstance(inner, dict) and "source" in inner:
            _one_member(inner["source"], (*path, kind, "source"), f"{kind} source", ctx)


def check_message_unions(message: Any, base: Path, ctx: Ctx) -> None:
    """Every union inside one message (at ``base``) sets exactly one member."""
    content = message.get("content") if isinstance(message, dict) else None
    for j, block in _items(content):
        path: Path = (*base, "content", j)
        _one_member(block, path, "ContentBlock", ctx)
        _media_unions(block, path, ctx)
        inner = block.get("reasoningContent") if isinstance(block, dict) else None
        if inner is not None:
            _one_member(inner, (*path, "reasoningContent"), "ReasoningContentBlock", ctx)
        result = block.get("toolResult") if isinstance(block, dict) else None
        items = result.get("content") if isinstance(result, dict) else None
        for k, item in _items(items):
            item_path: Path = (*path, "toolResult", "content", k)
            _one_member(item, item_path, "ToolResultContentBlock", ctx)
            _media_unions(item, item_path, ctx)


def check_unions(payload: dict[str, Any], ctx: Ctx) -> None:
    """Every union of the request sets exactly one member."""
    for i, message in _items(payload.get("messages")):
        check_message_unions(message, ("messages", i), ctx)
    for i, block in _items(payload.get("system")):
        _one_member(block, ("system", i), "SystemContentBlock", ctx)
    config = payload.get("toolConfig")
    if isinstance(config, dict):
        for i, tool in _items(config.get("tools")):
            _one_member(tool, ("toolConfig", "tools", i), "Tool", ctx)
        if config.get("toolChoice") is not None:
            _one_member(config["toolChoice"], ("toolConfig", "toolChoice"), "ToolChoice", ctx)


def _blocks(message: Any) -> list[tuple[int, dict[str, Any]]]:
    content = message.get("content") if isinstance(message, dict) else None
    return [(j, b) for j, b in _items(content) if isinstance(b, dict)]


def _server(block: dict[str, Any]) -> bool:
    """A server tool's call or result (a ``type`` on the block: it runs on Bedrock's side, and its
    result comes in the assistant turn)."""
    inner = block.get("toolUse", block.get("toolResult"))
    return isinstance(inner, dict) and inner.get("type") is not None


def _ids(message: Any, kind: str) -> list[tuple[int, str]]:
    out = []
    for j, block in _blocks(message):
        inner = block.get(kind)
        if isinstance(inner, dict) and isinstance(inner.get("toolUseId"), str) and not _server(block):
            out.append((j, inner["toolUseId"]))
    return out


def _turn_order(messages: list[Any], ctx: Ctx) -> None:
    roles = [m.get("role") if isinstance(m, dict) else None for m in messages]
    for i in range(1, len(roles)):
        if roles[i] in ("user", "assistant") and roles[i] == roles[i - 1]:
            ctx.add(
                ("messages", i, "role"),
                "roles_not_alternating",
                "A conversation must alternate between "
                "user and assistant roles. Make sure the conversation alternates between user and "
                "assistant roles and try again.",
            )


def _content_rules(messages: list[Any], ctx: Ctx) -> None:
    for i, message in _items(messages):
        if not isinstance(message, dict):
            continue
        if message.get("content") == []:
            ctx.add(
                ("messages", i, "content"),
                "empty_content",
                f"The content field in the Message object at "
                f"messages.{i} is empty. Add a ContentBlock object to the content field and try again.",
            )
        role = message.get("role")
        for j, block in _blocks(message):
            text = block.get("text")
            if text == "":
                ctx.add(
                    ("messages", i, "content", j, "text"),
                    "blank_text",
                    f"The text field in the "
                    f"ContentBlock object at messages.{i}.content.{j} is blank. Add text to the text "
                    "field, and try again.",
                )
            if _server(block):
                continue
            if "toolUse" in block and role == "user":
                ctx.add(
                    ("messages", i, "content", j),
                    "call_not_assistant",
                    "toolUse blocks are only allowed in assistant messages.",
                )
            if "toolResult" in block and role == "assistant":
                ctx.add(
                    ("messages", i, "content", j),
                    "result_not_user",
                    "toolResult blocks are only allowed in user messages.",
                )


def _pairing(messages: list[Any], ctx: Ctx) -> None:
    seen: set[str] = set()
    for i, message in _items(messages):
        calls = _ids(message, "toolUse")
        for j, call_id in calls:
            if call_id in seen:
                ctx.add(
                    ("messages", i, "content", j, "toolUse", "toolUseId"),
                    "duplicate_call_id",
                    f"The toolUseId {call_id} is used by more than one toolUse block.",
                )
            seen.add(call_id)
        previous = {c for _, c in _ids(messages[i - 1], "toolUse")} if i > 0 else set()
        for j, result_id in _ids(message, "toolResult"):
            if result_id not in previous:
                ctx.add(
                    ("messages", i, "content", j, "toolResult", "toolUseId"),
                    "orphan_tool_result",
                    f"The toolResult block with toolUseId {result_id} at messages.{i}.content.{j} "
                    "does not answer a toolUse block of the previous turn.",
                )
        if calls and i + 1 < len(messages):
            answered = {r for _, r in _ids(messages[i + 1], "toolResult")}
            for j, call_id in calls:
                if call_id not in answered:
                    ctx.add(
                        ("messages", i, "content", j, "toolUse"),
                        "orphan_tool_call",
                        "Expected "
                        f"toolResult blocks at messages.{i + 1}.content for the following Ids: {call_id}",
                    )


def check_conversation(payload: dict[str, Any], ctx: Ctx) -> None:
    """Turn order, content and tool-call pairing rules of ``messages``."""
    messages = payload.get("messages")
    if messages is None or messages == []:
        ctx.add(
            ("messages",),
            "empty_messages",
            "A conversation must start with a user message. "
            "Try again with a conversation that starts with a user message.",
        )
        return
    if not isinstance(messages, list):
        return
    _turn_order(messages, ctx)
    _content_rules(messages, ctx)
    _pairing(messages, ctx)
    has_tool_blocks = any("toolUse" in b or "toolResult" in b for m in messages for _, b in _blocks(m))
    if has_tool_blocks and not isinstance(payload.get("toolConfig"), dict):
        ctx.add(
            ("toolConfig",),
            "tool_config_missing",
            "The toolConfig field must be defined when using toolUse and toolResult content blocks.",
        )


def check_tools(payload: dict[str, Any], ctx: Ctx) -> None:
    """Unique tool names; ``toolChoice.tool.name`` names a declared tool."""
    config = payload.get("toolConfig")
    if not isinstance(config, dict):
        return
    names: set[str] = set()
    for i, tool in _items(config.get("tools")):
        spec = tool.get("toolSpec") if isinstance(tool, dict) else None
        name = spec.get("name") if isinstance(spec, dict) else None
        if isinstance(name, str):
            if name in names:
                ctx.add(
                    ("toolConfig", "tools", i, "toolSpec", "name"),
                    "duplicate_tool_name",
                    f"The tool name {name} is used by more than one tool.",
                )
            names.add(name)
    choice = config.get("toolChoice")
    tool = choice.get("tool") if isinstance(choice, dict) else None
    chosen = tool.get("name") if isinstance(tool, dict) else None
    if isinstance(chosen, str) and chosen not in names:
        ctx.add(
            ("toolConfig", "toolChoice", "tool", "name"),
            "tool_choice_unknown_tool",
            f"The tool {chosen} in toolChoice is not among the tools in toolConfig.",
        )
