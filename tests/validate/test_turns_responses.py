"""Responses input rules as a user meets them: the whole list of problems, located.

Calls and outputs pair by ``call_id`` (an output after its call; a continued response may answer
calls it does not repeat), ids are unique, a reasoning item with an id is followed by the item it
preceded, assistant messages hold output parts, tool choice names a declared tool.
"""

from __future__ import annotations

from typing import Any

from toolwire.validate import validate

_USER = {"role": "user", "content": "Weather in Paris?"}
_LOOSE = {"type": "object", "properties": {"city": {"type": "string"}}}
_TOOLS = [
    {"type": "function", "name": "get_weather", "parameters": _LOOSE, "strict": False},
    {"type": "custom", "name": "apply_patch"},
    {"type": "web_search"},
]


def _call(call_id: str, custom: bool = False) -> dict[str, Any]:
    if custom:
        return {"type": "custom_tool_call", "call_id": call_id, "name": "apply_patch", "input": "x"}
    return {"type": "function_call", "call_id": call_id, "name": "get_weather", "arguments": "{}"}


def _output(call_id: str, custom: bool = False) -> dict[str, Any]:
    kind = "custom_tool_call_output" if custom else "function_call_output"
    return {"type": kind, "call_id": call_id, "output": "18C"}


def _reasoning(item_id: str | None = "rs_1") -> dict[str, Any]:
    item: dict[str, Any] = {"type": "reasoning", "summary": []}
    if item_id is not None:
        item["id"] = item_id
    return item


def _said(text: str = "18C", item_id: str | None = "msg_1") -> dict[str, Any]:
    """An assistant output message (with ``id`` and ``status`` when ``item_id`` is given)."""
    message: dict[str, Any] = {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "output_text", "text": text, "annotations": []}],
    }
    if item_id is not None:
        message |= {"id": item_id, "status": "completed"}
    return message


def _problems(items: list[Any], **extra: Any) -> list[tuple[str, str, str | None, str]]:
    """(code, JSON path, API param, message) of each problem of a request."""
    payload = {"model": "gpt-5", "input": items, "tools": _TOOLS, **extra}
    return [(p.code, p.path, p.param, p.message) for p in validate(payload, format="openai-responses")]


def _where(items: list[Any], **extra: Any) -> list[tuple[str, str]]:
    return [(code, path) for code, path, _, _ in _problems(items, **extra)]


def test_a_valid_tool_loop_has_no_problem() -> None:
    items = [
        _USER,
        _reasoning(),
        _call("c1"),
        _call("c2", custom=True),
        _output("c2", True),
        _output("c1"),
        _said(),
    ]
    assert _problems(items) == []


def test_a_call_without_output() -> None:
    items = [_USER, _call("c1"), _call("c2", custom=True), _call("c3"), _output("c3")]
    assert _problems(items) == [
        ("orphan_tool_call", "$.input[1]", "input", "No tool output found for function call c1."),
        ("orphan_tool_call", "$.input[2]", "input", "No tool output found for custom tool call c2."),
    ]


def test_an_output_without_call() -> None:
    items = [_USER, _output("c1"), _output("c2", custom=True)]
    assert _problems(items) == [
        (
            "orphan_tool_result",
            "$.input[1].call_id",
            "input",
            "No tool call found for function call output with call_id c1.",
        ),
        (
            "orphan_tool_result",
            "$.input[2].call_id",
            "input",
            "No tool call found for custom tool call output with call_id c2.",
        ),
    ]


def test_an_output_before_its_call() -> None:
    """Pairing is in input order: the output is an orphan, the call counts as answered."""
    assert _where([_USER, _output("c1"), _call("c1")]) == [("orphan_tool_result", "$.input[1].call_id")]


def test_a_continued_response_may_answer_calls_not_in_input() -> None:
    for key, value in (("previous_response_id", "resp_1"), ("conversation", "conv_1")):
        assert _problems([_output("c1"), _output("c2", custom=True)], **{key: value}) == []
        assert _where([_USER, _call("c3")], **{key: value}) == [("orphan_tool_call", "$.input[1]")]


def test_a_reused_call_id() -> None:
    items = [_USER, _call("c1"), _output("c1"), _call("c1", custom=True), _output("c1", custom=True)]
    assert _problems(items) == [
        (
            "duplicate_call_id",
            "$.input[3].call_id",
            "input",
            "Duplicate call_id 'c1': each custom tool call needs its own call_id.",
        )
    ]


def test_a_reused_item_id() -> None:
    first = {"role": "user", "content": "hi", "id": "msg_1", "type": "message"}
    items = [first, _said(item_id="msg_1"), {"type": "item_reference", "id": "msg_1"}, _said(item_id="msg_2")]
    assert _problems(items) == [
        (
            "duplicate_item_id",
            "$.input[1].id",
            "input",
            "Duplicate item found with id msg_1. Remove duplicate items from your input and try again.",
        )
    ]
    references = [_USER, {"type": "item_reference", "id": "msg_1"}, {"type": "item_reference", "id": "msg_1"}]
    assert _problems(references) == []


def test_a_reasoning_item_needs_its_following_item() -> None:
    message = "Item 'rs_1' of type 'reasoning' was provided without its required following item."
    assert _problems([_USER, _reasoning()]) == [
        ("reasoning_without_follower", "$.input[1]", "input", message)
    ]
    assert _where([_USER, _reasoning(), _USER]) == [("reasoning_without_follower", "$.input[1]")]
    assert _where([_USER, _reasoning(), _said(item_id=None)]) == [
        ("reasoning_without_follower", "$.input[1]")
    ]


def test_what_may_follow_a_reasoning_item() -> None:
    assert _problems([_USER, _reasoning(), _said()]) == []
    assert _problems([_USER, _reasoning(), _call("c1"), _output("c1")]) == []
    assert _problems([_USER, _reasoning(), _reasoning("rs_2"), _said()]) == []
    search = {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search"}}
    assert _where([_USER, _reasoning(), search]) == []


def test_reasoning_items_without_id_are_not_checked() -> None:
    """Codex CLI (``store: false``) re-sends id-less reasoning items; the API takes them."""
    assert _problems([_USER, _reasoning(None)]) == []
    assert _problems([_USER, _reasoning(None), _said(item_id=None)]) == []


def test_assistant_messages_hold_output_parts() -> None:
    bad = {
        "role": "assistant",
        "content": [
            {"type": "output_text", "text": "ok"},
            {"type": "input_text", "text": "x"},
            {"type": "refusal", "refusal": "No."},
        ],
    }
    assert _problems([_USER, bad]) == [
        (
            "invalid_value",
            "$.input[1].content[1].type",
            "input[1].content[1]",
            "Invalid value: 'input_text'. Supported values are: 'output_text' and 'refusal'.",
        ),
        (
            "refusal_in_input",
            "$.input[1].content[2].type",
            "input[1].content[2]",
            "Invalid value: 'refusal' at input[1].content[2]: a refusal part is only valid in an output "
            "message item (with 'id' and 'status').",
        ),
    ]
    refused = _said() | {"content": [{"type": "refusal", "refusal": "No."}]}
    assert _problems([_USER, refused]) == []
    user_parts = {"role": "user", "content": [{"type": "input_text", "text": "hi"}]}
    assert _problems([user_parts, {"role": "assistant", "content": "plain"}]) == []


def test_a_named_tool_choice_names_a_declared_tool() -> None:
    assert _problems([_USER], tool_choice={"type": "function", "name": "get_time"}) == [
        (
            "tool_choice_unknown_tool",
            "$.tool_choice.name",
            "tool_choice.name",
            "Tool choice 'function' not found in 'tools' parameter.",
        )
    ]
    assert _where([_USER], tool_choice={"type": "custom", "name": "run"}) == [
        ("tool_choice_unknown_tool", "$.tool_choice.name")
    ]
    assert _problems([_USER], tool_choice={"type": "custom", "name": "apply_patch"}) == []
    assert _problems([_USER], tool_choice={"type": "function", "name": "get_weather"}) == []


def test_duplicate_tool_names() -> None:
    tools = [*_TOOLS, {"type": "function", "name": "apply_patch", "parameters": _LOOSE, "strict": False}]
    assert _problems([_USER], tools=tools) == [
        (
            "duplicate_tool_name",
            "$.tools[3].name",
            "tools",
            "Duplicate tool name: 'apply_patch'. Tool names must be unique.",
        )
    ]


def test_strict_and_root_checks_of_function_parameters() -> None:
    tools = [
        {"type": "function", "name": "a", "parameters": _LOOSE, "strict": True},
        {"type": "function", "name": "b", "parameters": _LOOSE},
        {"type": "function", "name": "c", "parameters": {"type": "array"}, "strict": False},
        {"type": "custom", "name": "d"},
    ]
    assert _problems([_USER], tools=tools) == [
        (
            "invalid_function_parameters",
            "$.tools[0].parameters",
            "tools[0].parameters",
            "Invalid schema for function 'a': In context=(), 'additionalProperties' is required to be "
            "supplied and to be false.",
        ),
        (
            "invalid_function_parameters",
            "$.tools[2].parameters",
            "tools[2].parameters",
            "Invalid schema for function 'c': schema must be a JSON Schema of 'type: \"object\"', got "
            "'type: \"array\"'.",
        ),
    ]


_FOLLOWER_TYPES = (
    "function_call",
    "custom_tool_call",
    "message",
    "reasoning",
    "web_search_call",
    "file_search_call",
    "computer_call",
    "code_interpreter_call",
    "image_generation_call",
    "local_shell_call",
    "shell_call",
    "apply_patch_call",
    "mcp_call",
    "tool_search_call",
)


def _reasoning_codes(follower: dict[str, Any]) -> list[str]:
    """Codes of the problems reported at the reasoning item ``input[1]`` when ``follower`` follows it."""
    payload = {"model": "gpt-5", "input": [_USER, _reasoning(), follower]}
    return [p.code for p in validate(payload, format="openai-responses") if p.path == "$.input[1]"]


def test_every_output_item_type_may_follow_a_reasoning_item() -> None:
    """The rule looks at the follower's type only; its own shape is checked elsewhere."""
    for kind in _FOLLOWER_TYPES:
        follower = {"type": kind, "id": "it_1", "role": "assistant", "call_id": "c1"}
        assert _reasoning_codes(follower) == [], kind
    for kind in ("function_call_output", "item_reference", "custom_tool_call_output", "compaction"):
        assert _reasoning_codes({"type": kind, "id": "it_1", "call_id": "c1"}) == [
            "reasoning_without_follower"
        ], kind


def test_a_refusal_needs_an_output_item_with_id_and_status() -> None:
    refusal = [{"type": "refusal", "refusal": "No."}]
    for keys in ({"id": "msg_1"}, {"status": "completed"}):
        item = {"type": "message", "role": "assistant", "content": refusal, **keys}
        assert _where([_USER, item]) == [("refusal_in_input", "$.input[1].content[0].type")]


def test_assistant_parts_without_a_type_are_left_to_the_shape_checks() -> None:
    item = {"role": "assistant", "content": ["junk", {"text": "x"}, {"type": "input_image"}]}
    codes = [
        code for code, path, _, _ in _problems([_USER, item]) if path.startswith("$.input[1].content[2]")
    ]
    assert codes == ["invalid_value"]
    assert all(code != "refusal_in_input" for code, _, _, _ in _problems([_USER, item]))
