"""Bedrock Converse conversation and union rules as a user meets them: every problem, located.

Each test states the whole list of problems a request gets (code, JSON path, the AWS location,
message), so a rule that stops early, reports twice, crashes or points elsewhere fails here.
"""

from __future__ import annotations

from typing import Any

from toolwire.validate import validate

_CONFIG: dict[str, Any] = {
    "tools": [{"toolSpec": {"name": "get_weather", "inputSchema": {"json": {"type": "object"}}}}]
}
_NO_CONFIG = (
    "tool_config_missing",
    "$.toolConfig",
    "toolConfig",
    "The toolConfig field must be defined when using toolUse and toolResult content blocks.",
)
_ALTERNATE = (
    "A conversation must alternate between user and assistant roles. Make sure the conversation "
    "alternates between user and assistant roles and try again."
)


_ONE = "One member of {} must be set."


def _user(*blocks: Any) -> dict[str, Any]:
    return {"role": "user", "content": list(blocks) or [{"text": "Weather in Paris?"}]}


def _assistant(*blocks: Any) -> dict[str, Any]:
    return {"role": "assistant", "content": list(blocks) or [{"text": "Sunny."}]}


def _use(use_id: str, **extra: Any) -> dict[str, Any]:
    return {"toolUse": {"toolUseId": use_id, "name": "get_weather", "input": {"city": "Paris"}, **extra}}


def _result(use_id: str, *items: Any, **extra: Any) -> dict[str, Any]:
    return {"toolResult": {"toolUseId": use_id, "content": list(items) or [{"text": "18C"}], **extra}}


def _problems(messages: Any, **extra: Any) -> list[tuple[str, str, str | None, str]]:
    """(code, JSON path, AWS location, message) of each problem of a request."""
    payload = {"messages": messages, **extra}
    return [(p.code, p.path, p.param, p.message) for p in validate(payload, format="bedrock-converse")]


def test_a_conversation_without_tool_blocks_needs_no_tool_config() -> None:
    assert _problems([_user(), _assistant(), _user({"text": "And Rome?"})]) == []


def test_a_conversation_may_open_with_an_assistant_tool_call() -> None:
    """Recorded: Bedrock accepts a first assistant turn; the next user turn answers its calls."""
    messages = [_assistant(_use("t1")), _user(_result("t1"))]
    assert _problems(messages, toolConfig=_CONFIG) == []


def test_a_final_assistant_call_is_not_yet_unanswered_but_needs_a_tool_config() -> None:
    """A call in the last message awaits its result; a toolUse block alone requires toolConfig."""
    messages = [_user(), _assistant({"text": "Checking."}, _use("t1"))]
    assert _problems(messages, toolConfig=_CONFIG) == []
    assert _problems(messages) == [_NO_CONFIG]


def test_two_assistant_turns_in_a_row() -> None:
    assert _problems([_user(), _assistant(), _assistant()]) == [
        ("roles_not_alternating", "$.messages[2].role", "messages.3.member.role", _ALTERNATE)
    ]


def test_server_tool_blocks_run_on_bedrocks_side() -> None:
    """A typed call and its typed result both sit in the assistant turn; neither is paired."""
    messages = [
        _user(),
        _assistant(
            _use("srv_1", type="server_tool_use"),
            _result("srv_1", type="web_search_result"),
            {"text": "Sunny."},
        ),
        _user({"text": "Thanks."}),
    ]
    assert _problems(messages, toolConfig=_CONFIG) == []


def test_a_result_in_the_assistant_turn_is_refused_unless_typed() -> None:
    messages = [_user(), _assistant(_use("t1"), _result("t1")), _user(_result("t1"))]
    assert _problems(messages, toolConfig=_CONFIG) == [
        (
            "result_not_user",
            "$.messages[1].content[1]",
            "messages.2.member.content.2.member",
            "toolResult blocks are only allowed in user messages.",
        ),
        (
            "orphan_tool_result",
            "$.messages[1].content[1].toolResult.toolUseId",
            "messages.2.member.content.2.member.toolResult.toolUseId",
            "The toolResult block with toolUseId t1 at messages.1.content.1 does not answer a toolUse "
            "block of the previous turn.",
        ),
    ]


def test_unions_inside_tool_result_items() -> None:
    """An image in a tool result sets one source, as an image block does."""
    image = {"image": {"format": "png", "source": {"bytes": "AA", "s3Location": {"uri": "s3://b/k"}}}}
    messages = [_user(), _assistant(_use("t1")), _user(_result("t1", image))]
    assert _problems(messages, toolConfig=_CONFIG) == [
        (
            "oneof_conflict",
            "$.messages[2].content[0].toolResult.content[0].image.source",
            "messages.3.member.content.1.member.toolResult.content.1.member.image.source",
            "Only one member of image source can be set; got bytes, s3Location.",
        )
    ]


def test_a_block_that_is_not_an_object_is_only_a_type_error() -> None:
    image = {"format": "png", "source": {"bytes": "AA"}}
    messages = [_user("Weather?", {"text": "in Paris", "image": image})]
    assert _problems(messages) == [
        (
            "invalid_type",
            "$.messages[0].content[0]",
            "messages.1.member.content.1.member",
            "Unexpected value type in payload at 'messages.1.member.content.1.member': expected an object",
        ),
        (
            "oneof_conflict",
            "$.messages[0].content[1]",
            "messages.1.member.content.2.member",
            "Only one member of ContentBlock can be set; got text, image.",
        ),
    ]


def test_union_messages_name_the_union() -> None:
    problems = _problems(
        [_user()],
        system=[{"text": "Be brief.", "cachePoint": {"type": "default"}}],
        toolConfig={"tools": [{}], "toolChoice": {}},
    )
    assert problems == [
        (
            "oneof_conflict",
            "$.system[0]",
            "system.1.member",
            "Only one member of SystemContentBlock can be set; got text, cachePoint.",
        ),
        ("empty_part", "$.toolConfig.tools[0]", "toolConfig.tools.1.member", _ONE.format("Tool")),
        ("empty_part", "$.toolConfig.toolChoice", "toolConfig.toolChoice", _ONE.format("ToolChoice")),
    ]


def test_no_messages() -> None:
    expected = [
        (
            "empty_messages",
            "$.messages",
            "messages",
            "A conversation must start with a user message. Try again with a conversation that starts "
            "with a user message.",
        )
    ]
    assert _problems([]) == expected


def test_length_bounds_say_which_way() -> None:
    """An empty string or list is under a minimum of 1; a long name is over a maximum of 64."""
    constraint = "1 validation error detected: Value (redacted) at '{}' failed to satisfy constraint: {}"
    config = {"tools": [{"toolSpec": {"name": "n" * 65, "inputSchema": {"json": {"type": "object"}}}}]}
    assert _problems([_user()], system=[{"text": ""}], toolConfig=config) == [
        (
            "empty_string",
            "$.system[0].text",
            "system.1.member.text",
            constraint.format("system.1.member.text", "Member must have length greater than or equal to 1"),
        ),
        (
            "string_above_max_length",
            "$.toolConfig.tools[0].toolSpec.name",
            "toolConfig.tools.1.member.toolSpec.name",
            constraint.format(
                "toolConfig.tools.1.member.toolSpec.name", "Member must have length less than or equal to 64"
            ),
        ),
    ]
    assert _problems([_user()], toolConfig={"tools": []}) == [
        (
            "empty_array",
            "$.toolConfig.tools",
            "toolConfig.tools",
            constraint.format("toolConfig.tools", "Member must have length greater than or equal to 1"),
        )
    ]
