"""Cross-check the validator tables against the official specs in tests/data/specs.

The tables are written by hand (no spec parsing at runtime); these tests keep them honest:
required fields, accepted properties, enums, union tags and limits must agree with the spec.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.validate import _specs as spec
from toolwire.validate import anthropic, gemini, openai_chat, openai_responses
from toolwire.validate._anthropic_turns import ROLES as ANTHROPIC_ROLES
from toolwire.validate._engine import Anything, Arr, Either, Int, Num, Obj, Spec, Str, Tagged
from toolwire.validate._gemini_dialect import camel
from toolwire.validate._gemini_rules import DATA_FIELDS

pytestmark = pytest.mark.skipif(not spec.available(), reason="spec folder tests/data/specs not found")

oa, an = spec.openai, spec.anthropic


def required(obj: Obj) -> set[str]:
    return {name for name, field in obj.fields.items() if field.required}


def inner(field_spec: Spec, cls: type[Any]) -> Any:
    """The first spec of type ``cls`` inside an Either/Arr wrapper."""
    if isinstance(field_spec, cls):
        return field_spec
    if isinstance(field_spec, Either):
        for option in field_spec.options:
            found = inner(option, cls)
            if found is not None:
                return found
    if isinstance(field_spec, Arr):
        return inner(field_spec.items, cls)
    return None


def enum(obj: Obj, name: str) -> set[str]:
    found = inner(obj.fields[name].spec, Str)
    assert found is not None and found.enum is not None, name
    return set(found.enum)


def bounds(obj: Obj, name: str) -> tuple[float | None, float | None]:
    found = inner(obj.fields[name].spec, (Num, Int))
    return found.minimum, found.maximum


def spec_bounds(schema: Any, lookup: Any) -> tuple[float | None, float | None]:
    schema = spec.resolve(schema, lookup)
    for option in [schema, *schema.get("anyOf", []), *schema.get("oneOf", [])]:
        if "minimum" in option or "maximum" in option:
            return option.get("minimum"), option.get("maximum")
    return None, None


# --- OpenAI Chat Completions -----------------------------------------------------------------------


def test_chat_request_properties_and_required() -> None:
    props, req = spec.properties(oa("CreateChatCompletionRequest"), oa)
    table = openai_chat.REQUEST
    assert required(table) == req
    assert set(table.fields) == set(props)


@pytest.mark.parametrize("name", ["temperature", "top_p", "n", "frequency_penalty", "presence_penalty"])
def test_chat_ranges(name: str) -> None:
    props, _ = spec.properties(oa("CreateChatCompletionRequest"), oa)
    assert bounds(openai_chat.REQUEST, name) == spec_bounds(props[name], oa)


def test_chat_enums_and_tags() -> None:
    props, _ = spec.properties(oa("CreateChatCompletionRequest"), oa)
    assert enum(openai_chat.REQUEST, "reasoning_effort") == spec.enum_of(props["reasoning_effort"], oa)
    assert enum(openai_chat.REQUEST, "service_tier") == spec.enum_of(props["service_tier"], oa)
    messages = inner(openai_chat.REQUEST.fields["messages"].spec, Tagged)
    assert set(messages.variants) == spec.variant_tags(oa("ChatCompletionRequestMessage"), oa, "role")
    tools = inner(openai_chat.REQUEST.fields["tools"].spec, Tagged)
    assert set(tools.variants) == spec.variant_tags(props["tools"]["items"], oa)
    choice = openai_chat.TOOL_CHOICE.options
    assert set(choice[0].enum) == spec.enum_of(oa("ChatCompletionToolChoiceOption"), oa)
    assert set(choice[1].variants) == spec.variant_tags(oa("ChatCompletionToolChoiceOption"), oa)
    user = openai_chat.MESSAGE.variants["user"].fields["content"].spec
    assert set(inner(user, Tagged).variants) == spec.variant_tags(
        oa("ChatCompletionRequestUserMessageContentPart"), oa
    )
    assert len(spec.properties(oa("ChatCompletionRequestMessage"), oa)[0]) == 0  # a union, not an object


def test_chat_stop_limit() -> None:
    stop = spec.resolve(oa("StopConfiguration"), oa)
    array = next(o for o in stop["oneOf"] if o.get("type") == "array")
    table = inner(openai_chat.REQUEST.fields["stop"].spec, Arr)
    assert (table.min_items, table.max_items) == (array["minItems"], array["maxItems"])


def test_chat_response_required_and_finish_reasons() -> None:
    props, req = spec.properties(oa("CreateChatCompletionResponse"), oa)
    assert required(openai_chat.RESPONSE) == req
    choice = props["choices"]["items"]
    assert enum(inner(openai_chat.RESPONSE.fields["choices"].spec, Obj), "finish_reason") == spec.enum_of(
        choice["properties"]["finish_reason"], oa
    )


# --- OpenAI Responses ------------------------------------------------------------------------------


def test_responses_request_properties() -> None:
    """The table is the spec plus the fields listed (with their source) in ``BEYOND_SPEC``."""
    props, req = spec.properties(oa("CreateResponse"), oa)
    beyond = set(openai_responses.BEYOND_SPEC)
    assert not beyond & set(props)
    assert set(openai_responses.REQUEST.fields) == set(props) | beyond
    assert required(openai_responses.REQUEST) == req | set(openai_responses.REQUIRED_BEYOND_SPEC)


def test_responses_text_format_matches_the_spec() -> None:
    props, _ = spec.properties(oa("ResponseTextParam"), oa)
    assert set(openai_responses.TEXT.fields) == set(props)
    schema_props, schema_req = spec.properties(oa("TextResponseFormatJsonSchema"), oa)
    table = openai_responses.TEXT_FORMAT.variants["json_schema"]
    assert isinstance(table, Obj)
    assert (set(table.fields), required(table)) == (set(schema_props), schema_req)


def test_responses_unions_cover_the_spec() -> None:
    assert spec.variant_tags(oa("Tool"), oa) == set(openai_responses.TOOL.variants)
    assert spec.variant_tags(oa("InputItem"), oa) == set(openai_responses.ITEM_TYPES)
    tags = spec.variant_tags(oa("ToolChoiceParam"), oa)
    assert tags <= set(openai_responses.TOOL_CHOICE.options[1].variants)


def test_responses_enums_and_limits() -> None:
    props, _ = spec.properties(oa("CreateResponse"), oa)
    table = openai_responses.REQUEST
    assert enum(table, "include") == spec.enum_of(props["include"], oa) | spec.enum_of(oa("IncludeEnum"), oa)
    assert enum(openai_responses.REASONING_CONFIG, "effort") == spec.enum_of(oa("ReasoningEffort"), oa)
    assert bounds(table, "temperature") == spec_bounds(props["temperature"], oa)
    output = spec.properties(oa("FunctionCallOutputItemParam"), oa)[0]
    call_id = inner(openai_responses.FUNCTION_CALL_OUTPUT.fields["call_id"].spec, Str)
    assert (call_id.min_len, call_id.max_len) == (
        output["call_id"]["anyOf"][0]["minLength"],
        output["call_id"]["anyOf"][0]["maxLength"],
    )
    fc_props, fc_req = spec.properties(oa("FunctionToolCall"), oa)
    assert fc_req <= required(openai_responses.FUNCTION_CALL)
    assert set(fc_props) <= set(openai_responses.FUNCTION_CALL.fields)


# --- Anthropic -----------------------------------------------------------------------------------

_BETA_ONLY = {"betas", "mcp_servers", "context_management", "output_format", "speed"}


def test_anthropic_request_properties_and_required() -> None:
    props, req = spec.properties(an("CreateMessageParams"), an)
    assert required(anthropic.REQUEST) == req == {"model", "messages", "max_tokens"}
    assert set(anthropic.REQUEST.fields) - _BETA_ONLY == set(props)


def test_anthropic_unions_match_the_spec() -> None:
    assert set(anthropic.BLOCK.variants) == set(an("InputContentBlock")["discriminator"]["mapping"])
    assert set(anthropic.TOOL_CHOICE.variants) == set(an("ToolChoice")["discriminator"]["mapping"])
    assert set(anthropic.THINKING_CONFIG.variants) == set(
        an("ThinkingConfigParam")["discriminator"]["mapping"]
    )
    tools = spec.properties(an("CreateMessageParams"), an)[0]["tools"]["items"]
    assert spec.variant_tags(tools, an) | {"custom"} == set(anthropic.TOOL.variants)
    assert set(an("InputMessage")["properties"]["role"]["enum"]) == set(ANTHROPIC_ROLES)


def test_response_tables_require_only_what_the_specs_require() -> None:
    """Response tables are lenient (recordings predate newer required fields), never stricter."""
    assert required(openai_responses.RESPONSE) <= spec.properties(oa("Response"), oa)[1]
    assert required(anthropic.RESPONSE) <= set(an("Message")["required"])
    assert set(an("Message")["required"]) <= set(anthropic.RESPONSE.fields)


def test_anthropic_limits_and_enums() -> None:
    name = an("Tool")["properties"]["name"]
    table = anthropic.CUSTOM_TOOL.fields["name"].spec
    assert isinstance(table, Str)
    assert (table.pattern, table.min_len, table.max_len) == (
        name["pattern"],
        name["minLength"],
        name["maxLength"],
    )
    assert name["pattern"] == anthropic.TOOL_NAME_PATTERN
    budget = anthropic.THINKING_CONFIG.variants["enabled"]
    assert isinstance(budget, Obj)
    assert (
        bounds(budget, "budget_tokens")[0]
        == an("ThinkingConfigEnabled")["properties"]["budget_tokens"]["minimum"]
    )
    props = spec.properties(an("CreateMessageParams"), an)[0]
    for key in ("temperature", "top_p", "top_k", "max_tokens"):
        assert bounds(anthropic.REQUEST, key) == (props[key].get("minimum"), props[key].get("maximum")), key
    assert enum(anthropic.REQUEST, "service_tier") == set(props["service_tier"]["enum"])
    assert set(an("StopReason")["enum"]) <= set(anthropic.STOP_REASONS)
    use = an("RequestToolUseBlock")["properties"]["id"]["pattern"]
    assert anthropic.TOOL_USE_ID.pattern == use
    assert set(an("RequestToolResultBlock")["required"]) <= required(anthropic.TOOL_RESULT)
    assert set(an("RequestThinkingBlock")["required"]) <= required(anthropic.THINKING)


# --- Gemini --------------------------------------------------------------------------------------


def _camel_fields(message: str) -> dict[str, bool]:
    return {camel(name): req for name, req in spec.proto_fields(message).items()}


@pytest.mark.parametrize(
    ("message", "table"),
    [
        ("GenerateContentRequest", gemini.REQUEST),
        ("Part", gemini.PART),
        ("FunctionResponse", gemini.PART.fields["functionResponse"].spec),
        ("FunctionDeclaration", gemini.FUNCTION_DECLARATION),
        ("Schema", gemini.SCHEMA),
        ("SafetySetting", gemini.SAFETY_SETTING),
        ("GenerationConfig", gemini.GENERATION_CONFIG),
    ],
)
def test_gemini_messages(message: str, table: Obj) -> None:
    fields = _camel_fields(message)
    assert set(fields) <= set(table.fields), set(fields) - set(table.fields)
    # `model` is a path parameter (models/{m}:generateContent); the body does not carry it.
    # FunctionDeclaration.description is REQUIRED in the proto, yet the API accepts declarations
    # without one (recorded requests omit it), so the table leaves it optional; likewise a Schema
    # made only of `anyOf` carries no `type`.
    expected = {n for n, req in fields.items() if req} - {"model", "description", "type"}
    assert expected <= required(table), expected - required(table)


def test_gemini_enums() -> None:
    mode = inner(gemini.TOOL_CONFIG.fields["functionCallingConfig"].spec, Obj)
    assert {v for v in enum(mode, "mode") if v.isupper()} == spec.proto_enum("Mode", "FunctionCallingConfig")
    assert spec.proto_enum("HarmCategory") <= enum(gemini.SAFETY_SETTING, "category")
    assert spec.proto_enum("Type") <= enum(gemini.SCHEMA, "type")
    assert spec.proto_enum("FinishReason", "Candidate") <= set(gemini.FINISH_REASONS)
    part = spec.proto_fields("Part")
    data = {
        camel(n)
        for n in (
            "text",
            "inline_data",
            "function_call",
            "function_response",
            "file_data",
            "executable_code",
            "code_execution_result",
        )
    }
    assert data <= set(DATA_FIELDS) and data <= {camel(n) for n in part}


def test_gemini_struct_fields_are_objects() -> None:
    response = inner(gemini.PART.fields["functionResponse"].spec, Obj).fields["response"]
    assert response.required and isinstance(response.spec, Anything) and response.spec.kind == "object"
