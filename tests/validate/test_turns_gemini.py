"""Gemini conversation rules as a user meets them: the whole list of problems, located.

Roles are ``user``/``model`` (a missing role is ``user``); a function call turn follows a user
turn or a function response turn; a function response turn comes right after a call turn and
answers every call of it; parameters roots are object schemas.
"""

from __future__ import annotations

from typing import Any, get_args

from toolwire.formats.gemini.response import FINISH_REASONS as MAPPED
from toolwire.formats.gemini.wire import FinishReason
from toolwire.validate import validate

_COUNT = (
    "Please ensure that the number of function response parts is equal to the number of function call "
    "parts of the function call turn."
)
_RESPONSE_AFTER = "Please ensure that function response turn comes immediately after a function call turn."
_CALL_AFTER = (
    "Please ensure that function call turn comes immediately after a user turn or after a function "
    "response turn."
)


def _user(text: str = "Weather in Paris?") -> dict[str, Any]:
    return {"role": "user", "parts": [{"text": text}]}


def _model_text(text: str = "18C.") -> dict[str, Any]:
    return {"role": "model", "parts": [{"text": text}]}


def _calls(*names: str) -> dict[str, Any]:
    return {"role": "model", "parts": [{"functionCall": {"name": n, "args": {}}} for n in names]}


def _responses(*names: str) -> dict[str, Any]:
    return {
        "role": "user",
        "parts": [{"functionResponse": {"name": n, "response": {"t": 18}}} for n in names],
    }


def _problems(contents: list[Any], **extra: Any) -> list[tuple[str, str, str | None, str]]:
    """(code, JSON path, API location, message) of each problem of a request."""
    payload = {"contents": contents, **extra}
    return [(p.code, p.path, p.param, p.message) for p in validate(payload, format="gemini")]


def _where(contents: list[Any], **extra: Any) -> list[tuple[str, str]]:
    return [(code, path) for code, path, _, _ in _problems(contents, **extra)]


def test_a_valid_function_loop_has_no_problem() -> None:
    contents = [_user(), _calls("a", "b"), _responses("a", "b"), _calls("c"), _responses("c"), _model_text()]
    assert _problems(contents) == []


def test_a_call_turn_may_end_the_conversation() -> None:
    assert _problems([_user(), _calls("a")]) == []


def test_fewer_or_more_responses_than_calls() -> None:
    fewer = [
        _user(),
        _calls("a", "b"),
        _responses("a"),
        _model_text(),
        _user("x"),
        _calls("c"),
        _responses("c", "c"),
    ]
    assert _problems(fewer) == [
        ("orphan_tool_call", "$.contents[2]", "contents[2]", _COUNT),
        ("orphan_tool_call", "$.contents[6]", "contents[6]", _COUNT),
    ]


def test_a_call_turn_followed_by_text() -> None:
    """The turn after a call turn must hold its responses: a user or model text turn does not."""
    assert _where([_user(), _calls("a"), _user("hm")]) == [("orphan_tool_call", "$.contents[2]")]
    assert _where([_user(), _calls("a"), _model_text()]) == [("orphan_tool_call", "$.contents[2]")]


def test_a_response_turn_without_a_call_turn_before_it() -> None:
    contents = [_responses("a"), _user(), _model_text(), _responses("a")]
    assert _problems(contents) == [
        ("orphan_tool_result", "$.contents[0]", "contents[0]", _RESPONSE_AFTER),
        ("orphan_tool_result", "$.contents[3]", "contents[3]", _RESPONSE_AFTER),
    ]


def test_a_call_turn_after_a_model_turn() -> None:
    contents = [_user(), _model_text(), _calls("a"), _responses("a"), _calls("b"), _responses("b")]
    assert _problems(contents) == [("call_not_after_user", "$.contents[2]", "contents[2]", _CALL_AFTER)]


def test_a_call_turn_first() -> None:
    assert _where([_calls("a"), _responses("a")]) == [("call_not_after_user", "$.contents[0]")]


def test_a_content_without_role_is_a_user_turn() -> None:
    no_role = {"parts": [{"text": "hi"}]}
    responses = {"parts": [{"functionResponse": {"name": "a", "response": {}}}]}
    assert _problems([no_role, _calls("a"), responses]) == []


def test_lone_part_objects_and_snake_case_fields_count() -> None:
    """Proto JSON takes a lone object for a repeated field and snake_case field names."""
    call = {"role": "model", "parts": {"function_call": {"name": "a", "args": {}}}}
    response = {"role": "user", "parts": {"function_response": {"name": "a", "response": {}}}}
    assert _problems([_user(), call, response]) == []
    assert _where([_user(), call, _user()]) == [("orphan_tool_call", "$.contents[2]")]


def test_after_a_non_object_content_later_turns_are_checked() -> None:
    contents = [_user(), 5, _user(), _calls("a"), _responses("a", "b")]
    found = _where(contents)
    assert found[0] == ("invalid_type", "$.contents[1]")
    assert found[1:] == [("orphan_tool_call", "$.contents[4]")]


def test_after_an_invalid_role_later_turns_are_checked() -> None:
    contents = [_user(), {"role": "assistant", "parts": [{"text": "x"}]}, _user(), _calls("a"), _user()]
    assert _problems(contents) == [
        ("invalid_role", "$.contents[1].role", "contents[1].role", "Please use a valid role: user, model."),
        ("orphan_tool_call", "$.contents[4]", "contents[4]", _COUNT),
    ]


def test_empty_parts_and_parts_without_data() -> None:
    contents = [
        _user(),
        {"role": "model", "parts": []},
        {"role": "user"},
        {"role": "user", "parts": [{"text": "ok"}, {}]},
        {"role": "model", "parts": [{"thoughtSignature": "c2ln"}, {"thought_signature": "c2ln"}]},
        {"role": "user", "parts": [{"text": "a", "inlineData": {"mimeType": "image/png", "data": "AA=="}}]},
        {"role": "user", "parts": {}},
    ]
    assert _problems(contents) == [
        (
            "empty_content",
            "$.contents[1].parts",
            "contents[1].parts",
            "* GenerateContentRequest.contents[1].parts: contents.parts must not be empty.",
        ),
        (
            "empty_content",
            "$.contents[2].parts",
            "contents[2].parts",
            "* GenerateContentRequest.contents[2].parts: contents.parts must not be empty.",
        ),
        (
            "empty_part",
            "$.contents[3].parts[1]",
            "contents[3].parts[1].data",
            "* GenerateContentRequest.contents[3].parts[1].data: required oneof field 'data' must have one "
            "initialized field",
        ),
        (
            "oneof_conflict",
            "$.contents[5].parts[0].inlineData",
            "contents[5].parts[0].inline_data",
            "Invalid JSON payload received. Oneof field 'data' is already set. Cannot set 'inlineData'",
        ),
        (
            "empty_part",
            "$.contents[6].parts",
            "contents[6].parts.data",
            "* GenerateContentRequest.contents[6].parts.data: required oneof field 'data' must have one "
            "initialized field",
        ),
    ]


def test_parameters_roots_must_be_objects() -> None:
    tools = [
        {
            "functionDeclarations": [
                {"name": "a", "parameters": {"type": "ARRAY", "items": {"type": "STRING"}}},
                {"name": "b", "parametersJsonSchema": {"type": "array"}},
                {"name": "c", "parameters": {"type": "OBJECT"}, "parametersJsonSchema": {"type": ["object"]}},
            ]
        },
        {"function_declarations": [{"name": "d", "parameters_json_schema": {"type": "string"}}]},
    ]
    assert _problems([_user()], tools=tools) == [
        (
            "invalid_function_parameters",
            "$.tools[0].functionDeclarations[0].parameters.type",
            "tools[0].function_declarations[0].parameters.type",
            "* GenerateContentRequest.tools[0].function_declarations[0].parameters.type: schema of function "
            "'a' must be of type OBJECT, got ARRAY.",
        ),
        (
            "invalid_function_parameters",
            "$.tools[0].functionDeclarations[1].parametersJsonSchema.type",
            "tools[0].function_declarations[1].parameters_json_schema.type",
            "* GenerateContentRequest.tools[0].function_declarations[1].parameters_json_schema.type: schema "
            "of function 'b' must be of type OBJECT, got array.",
        ),
        (
            "invalid_function_parameters",
            "$.tools[1].function_declarations[0].parameters_json_schema.type",
            "tools[1].function_declarations[0].parameters_json_schema.type",
            "* GenerateContentRequest.tools[1].function_declarations[0].parameters_json_schema.type: schema "
            "of function 'd' must be of type OBJECT, got string.",
        ),
    ]


def test_a_lone_declaration_object_is_checked_not_crashed_on() -> None:
    """``functionDeclarations`` (or ``tools``) given as one object: its path has no index."""
    lone = {"functionDeclarations": {"name": "a", "parameters": {"type": "ARRAY"}}}
    assert _where([_user()], tools=[lone]) == [
        ("invalid_function_parameters", "$.tools[0].functionDeclarations.parameters.type")
    ]
    assert _where([_user()], tools=lone) == [
        ("invalid_function_parameters", "$.tools.functionDeclarations.parameters.type")
    ]
    config = {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["a", "b"]}}
    assert _where([_user()], tools={"functionDeclarations": {"name": "a"}}, toolConfig=config) == [
        ("tool_choice_unknown_tool", "$.toolConfig.functionCallingConfig.allowedFunctionNames")
    ]


def test_duplicate_declarations_across_tools() -> None:
    tools = [
        {"functionDeclarations": [{"name": "a"}, {"name": "b"}]},
        {"function_declarations": [{"name": "a"}]},
    ]
    assert _problems([_user()], tools=tools) == [
        (
            "duplicate_tool_name",
            "$.tools[1].function_declarations[0].name",
            "tools",
            "* GenerateContentRequest.tools: Duplicate function declaration found: a",
        )
    ]


_DATA_PARTS = [
    {"fileData": {"mimeType": "image/png", "fileUri": "gs://bucket/chart.png"}},
    {"executableCode": {"language": "PYTHON", "code": "print(1)"}},
    {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "1"}},
    {"toolCall": {"id": "tc_1"}},
    {"toolResponse": {"id": "tc_1"}},
]


def test_every_data_field_fills_a_part() -> None:
    """Each member of the ``data`` oneof is a part's data; a second one is a conflict."""
    assert _problems([{"role": "user", "parts": _DATA_PARTS}]) == []
    conflicting = [{"text": "a", **part} for part in _DATA_PARTS]
    assert _where([{"role": "user", "parts": conflicting}]) == [
        ("oneof_conflict", f"$.contents[0].parts[{j}].{next(iter(part))}")
        for j, part in enumerate(_DATA_PARTS)
    ]
    snake = {"text": "a", "function_call": {"name": "a", "args": {}}}
    assert _problems([{"role": "user", "parts": [snake]}]) == [
        (
            "oneof_conflict",
            "$.contents[0].parts[0].function_call",
            "contents[0].parts[0].function_call",
            "Invalid JSON payload received. Oneof field 'data' is already set. Cannot set 'function_call'",
        )
    ]


def test_a_non_object_part_is_a_type_problem_only() -> None:
    found = _where([{"role": "user", "parts": ["x", {}]}])
    assert found == [("invalid_type", "$.contents[0].parts[0]"), ("empty_part", "$.contents[0].parts[1]")]


def test_a_first_response_turn_is_not_answered_by_the_last_call_turn() -> None:
    assert _where([_responses("a"), _user(), _calls("a")]) == [("orphan_tool_result", "$.contents[0]")]


def test_a_call_turn_followed_by_a_non_object() -> None:
    assert _where([_user(), _calls("a"), 5]) == [
        ("invalid_type", "$.contents[2]"),
        ("orphan_tool_call", "$.contents[2]"),
    ]


def test_a_non_object_tool_does_not_hide_the_declarations_after_it() -> None:
    tools = ["junk", {"functionDeclarations": [{"name": "a", "parameters": {"type": "ARRAY"}}]}]
    assert _where([_user()], tools=tools) == [
        ("invalid_type", "$.tools[0]"),
        ("invalid_function_parameters", "$.tools[1].functionDeclarations[0].parameters.type"),
    ]


def test_every_finish_reason_the_decoder_knows_is_valid_and_typed() -> None:
    """One list of ``finishReason`` values: the wire type's. The validator takes its enum from it,
    and every value the response decoder maps (``MODEL_ARMOR``, ``MISSING_THOUGHT_SIGNATURE``:
    newer than the bundled proto) is in it, so a real response that ends with one validates."""
    assert set(MAPPED) <= set(get_args(FinishReason))
    for reason in get_args(FinishReason):
        body = {
            "candidates": [{"content": {"role": "model", "parts": [{"text": "x"}]}, "finishReason": reason}]
        }
        assert validate(body, format="gemini", kind="response") == [], reason
