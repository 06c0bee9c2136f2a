"""Chat Completions conversation rules as a user meets them: the whole list of problems, located.

Tool calls are answered by ``tool`` messages right after their assistant message; tool choice
needs tools and names one; ``parameters`` roots are objects (strict-mode checked with
``strict: true``). Locations use the API's ``messages.[3].role`` spelling where it has one.
"""

from __future__ import annotations

from typing import Any

from toolwire.validate import validate

_TOOLS = [
    {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}},
    {"type": "custom", "custom": {"name": "apply_patch"}},
]
_UNANSWERED = (
    "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
    "'tool_call_id'. The following tool_call_ids did not have response messages: {ids}"
)
_NO_CALLS = (
    "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with "
    "'tool_calls'."
)


def _user(text: str = "Weather in Paris?") -> dict[str, Any]:
    return {"role": "user", "content": text}


def _calls(*ids: str, content: str | None = None) -> dict[str, Any]:
    calls = [
        {"id": i, "type": "function", "function": {"name": "get_weather", "arguments": "{}"}} for i in ids
    ]
    return {"role": "assistant", "content": content, "tool_calls": calls}


def _tool(call_id: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": "18C"}


def _problems(messages: list[Any], **extra: Any) -> list[tuple[str, str, str | None, str]]:
    """(code, JSON path, API param, message) of each problem of a request."""
    payload = {"model": "gpt-4o", "messages": messages, "tools": _TOOLS, **extra}
    return [(p.code, p.path, p.param, p.message) for p in validate(payload, format="openai-chat")]


def _where(messages: list[Any], **extra: Any) -> list[tuple[str, str, str | None]]:
    return [(code, path, param) for code, path, param, _ in _problems(messages, **extra)]


def test_a_valid_tool_loop_has_no_problem() -> None:
    messages = [
        _user(),
        _calls("c1", "c2"),
        _tool("c2"),
        _tool("c1"),
        {"role": "assistant", "content": "18C"},
    ]
    assert _problems(messages) == []


def test_calls_unanswered_before_the_next_message() -> None:
    """Reported on the assistant message, located by the API at the message that came too early."""
    messages = [_user(), _calls("c1", "c2", "c3"), _tool("c2"), _user("and?"), _calls("c4"), _tool("c4")]
    assert _problems(messages) == [
        (
            "orphan_tool_call",
            "$.messages[1].tool_calls",
            "messages.[3].role",
            _UNANSWERED.format(ids="c1, c3"),
        )
    ]


def test_calls_unanswered_at_the_end() -> None:
    """At the end of the conversation the API locates the assistant message itself."""
    messages = [_user(), _calls("c1"), _tool("c1"), _user("again"), _calls("c2", "c3"), _tool("c3")]
    assert _problems(messages) == [
        ("orphan_tool_call", "$.messages[4].tool_calls", "messages.[4].role", _UNANSWERED.format(ids="c2"))
    ]


def test_a_tool_message_without_calls_before_it() -> None:
    messages = [_user(), {"role": "assistant", "content": "Hi"}, _tool("c1"), _user("x"), _tool("c2")]
    assert _problems(messages) == [
        ("orphan_tool_result", "$.messages[2]", "messages.[2].role", _NO_CALLS),
        ("orphan_tool_result", "$.messages[4]", "messages.[4].role", _NO_CALLS),
    ]


def test_a_tool_message_first() -> None:
    assert _where([_tool("c1"), _user()]) == [("orphan_tool_result", "$.messages[0]", "messages.[0].role")]


def test_a_tool_message_answering_another_id() -> None:
    messages = [_user(), _calls("c1"), _tool("c9"), _tool("c1")]
    assert _problems(messages) == [
        (
            "orphan_tool_result",
            "$.messages[2].tool_call_id",
            "messages.[2].tool_call_id",
            "Invalid parameter: 'tool_call_id' of 'c9' not found in 'tool_calls' of previous message.",
        )
    ]


def test_a_call_answered_twice() -> None:
    """The second answer finds no call left to answer."""
    messages = [_user(), _calls("c1"), _tool("c1"), _tool("c1")]
    assert _where(messages) == [
        ("orphan_tool_result", "$.messages[3].tool_call_id", "messages.[3].tool_call_id")
    ]


def test_a_result_for_an_earlier_turn() -> None:
    """Calls are answered only by the tool messages right after their own assistant message."""
    messages = [_user(), _calls("c1"), _tool("c1"), _calls("c2"), _tool("c1"), _tool("c2")]
    assert _where(messages) == [
        ("orphan_tool_result", "$.messages[4].tool_call_id", "messages.[4].tool_call_id")
    ]


def test_a_reused_call_id_across_turns() -> None:
    messages = [_user(), _calls("c1"), _tool("c1"), _calls("c2", "c1"), _tool("c1"), _tool("c2")]
    assert _problems(messages) == [
        (
            "duplicate_call_id",
            "$.messages[3].tool_calls[1].id",
            "messages[3].tool_calls[1].id",
            "Duplicate value for 'tool_call_id': 'c1' is used twice.",
        )
    ]


def test_after_a_non_object_message_later_turns_are_checked() -> None:
    messages = [_user(), _calls("c1"), 5, _tool("c1"), _user("x"), _calls("c2"), _user("y")]
    assert _where(messages) == [
        ("invalid_type", "$.messages[2]", "messages[2]"),
        ("orphan_tool_call", "$.messages[5].tool_calls", "messages.[6].role"),
    ]


def test_after_an_unknown_role_later_turns_are_checked() -> None:
    messages = [_user(), {"role": "bot", "content": "x"}, _calls("c1"), _user("y")]
    assert _where(messages) == [
        ("invalid_value", "$.messages[1].role", "messages[1].role"),
        ("orphan_tool_call", "$.messages[2].tool_calls", "messages.[3].role"),
    ]


def test_an_assistant_message_needs_content_or_calls() -> None:
    empty = {"role": "assistant", "content": None}
    assert _problems([_user(), empty, _user("x"), {"role": "assistant", "refusal": "No."}]) == [
        (
            "missing_content",
            "$.messages[1].content",
            "messages[1].content",
            "Invalid value for 'content': expected a string, got null.",
        )
    ]
    legacy = {
        "role": "assistant",
        "content": None,
        "function_call": {"name": "get_weather", "arguments": "{}"},
    }
    audio = {"role": "assistant", "audio": {"id": "audio_1"}}
    assert _where([_user(), legacy, {"role": "function", "name": "get_weather", "content": "18C"}]) == []
    assert _where([_user(), audio, _user("x")]) == []


def test_tool_choice_and_parallel_calls_need_tools() -> None:
    payload: dict[str, Any] = {"tool_choice": "auto", "parallel_tool_calls": False, "tools": []}
    assert _problems([_user()], **payload) == [
        (
            "tool_choice_without_tools",
            "$.tool_choice",
            "tool_choice",
            "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
        ),
        (
            "tool_choice_without_tools",
            "$.parallel_tool_calls",
            "parallel_tool_calls",
            "Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only allowed when 'tools' "
            "are specified.",
        ),
    ]
    assert _problems([_user()], tool_choice="required", parallel_tool_calls=True) == []


def test_function_call_needs_functions() -> None:
    message = (
        "Invalid value for 'function_call': 'function_call' is only allowed when 'functions' are specified."
    )
    assert _problems([_user()], function_call="auto") == [
        ("tool_choice_without_tools", "$.function_call", "function_call", message)
    ]
    functions = [{"name": "get_weather", "parameters": {"type": "object"}}]
    assert _problems([_user()], function_call="auto", functions=functions) == []


def test_a_named_tool_choice_names_a_declared_tool() -> None:
    unknown = {"type": "function", "function": {"name": "get_time"}}
    assert _problems([_user()], tool_choice=unknown) == [
        (
            "tool_choice_unknown_tool",
            "$.tool_choice.function.name",
            "tool_choice.function.name",
            "Invalid value for 'tool_choice': function 'get_time' is not among the provided tools.",
        )
    ]
    custom = {"type": "custom", "custom": {"name": "run"}}
    assert _where([_user()], tool_choice=custom) == [
        ("tool_choice_unknown_tool", "$.tool_choice.custom.name", "tool_choice.custom.name")
    ]
    for name, kind in (("get_weather", "function"), ("apply_patch", "custom")):
        assert _problems([_user()], tool_choice={"type": kind, kind: {"name": name}}) == []


def test_parameters_root_must_be_an_object() -> None:
    tools = [
        {"type": "function", "function": {"name": "a", "parameters": {"type": "array", "items": {}}}},
        {"type": "function", "function": {"name": "b", "parameters": {"type": "array"}, "strict": True}},
        {"type": "function", "function": {"name": "c", "parameters": {"type": ["object", "null"]}}},
    ]
    assert _problems([_user()], tools=tools) == [
        (
            "invalid_function_parameters",
            f"$.tools[{i}].function.parameters",
            f"tools[{i}].function.parameters",
            f"Invalid schema for function '{name}': schema must be a JSON Schema of 'type: \"object\"', "
            "got 'type: \"array\"'.",
        )
        for i, name in ((0, "a"), (1, "b"))
    ]


def test_strict_schemas_are_checked_only_with_strict_true() -> None:
    loose = {"type": "object", "properties": {"city": {"type": "string"}}}
    tools = [
        {"type": "function", "function": {"name": "a", "parameters": loose, "strict": True}},
        {"type": "function", "function": {"name": "b", "parameters": loose, "strict": False}},
        {"type": "function", "function": {"name": "c", "parameters": loose}},
        {"type": "custom", "custom": {"name": "d"}},
    ]
    assert _problems([_user()], tools=tools) == [
        (
            "invalid_function_parameters",
            "$.tools[0].function.parameters",
            "tools[0].function.parameters",
            "Invalid schema for function 'a': In context=(), 'additionalProperties' is required to be "
            "supplied and to be false.",
        )
    ]


def test_tools_that_are_not_tools_do_not_hide_the_ones_that_are() -> None:
    tool = {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "array"}}}
    tools = ["junk", {"type": "x"}, {"function": {"name": "n"}}, {"type": ["function"]}, tool]
    choice = {"type": "function", "function": {"name": "get_weather"}}
    assert _where([_user()], tools=tools, tool_choice=choice) == [
        ("invalid_type", "$.tools[0]", "tools[0]"),
        ("invalid_value", "$.tools[1].type", "tools[1].type"),
        ("missing_required_parameter", "$.tools[2].type", "tools[2].type"),
        ("invalid_value", "$.tools[3].type", "tools[3].type"),
        ("invalid_function_parameters", "$.tools[4].function.parameters", "tools[4].function.parameters"),
    ]


def test_null_choices_are_not_choices() -> None:
    payload = {"model": "gpt-4o", "messages": [_user()], "tool_choice": None, "parallel_tool_calls": None}
    codes = [p.code for p in validate({**payload, "function_call": None}, format="openai-chat")]
    assert len(codes) == 3 and "tool_choice_without_tools" not in codes


def test_a_tool_message_with_a_non_string_id_answers_nothing() -> None:
    messages = [_user(), _calls("c1"), {"role": "tool", "tool_call_id": 5, "content": "18C"}, _user("x")]
    assert _where(messages) == [
        ("invalid_type", "$.messages[2].tool_call_id", "messages[2].tool_call_id"),
        ("orphan_tool_call", "$.messages[1].tool_calls", "messages.[3].role"),
    ]


def test_calls_without_string_ids_are_left_to_the_shape_checks() -> None:
    good = _calls("c1")["tool_calls"][0]
    no_id = {"type": "function", "function": {"name": "get_weather", "arguments": "{}"}}
    messages = [
        _user(),
        {"role": "assistant", "content": None, "tool_calls": ["x", no_id, good]},
        _tool("c1"),
    ]
    assert _where(messages) == [
        ("invalid_type", "$.messages[1].tool_calls[0]", "messages[1].tool_calls[0]"),
        ("missing_required_parameter", "$.messages[1].tool_calls[1].id", "messages[1].tool_calls[1].id"),
    ]


def test_a_named_choice_without_a_name_is_left_to_the_shape_checks() -> None:
    for function, code in (({}, "missing_required_parameter"), ({"name": 5}, "invalid_type")):
        choice = {"type": "function", "function": function}
        assert _where([_user()], tool_choice=choice) == [
            (code, "$.tool_choice.function.name", "tool_choice.function.name")
        ]
