"""The scripted model on canonical requests: tool choice, parallel calls, quoting, scripts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolwire.emulator import PARALLEL_TRIGGERS, ScriptedModel, load_script, parse_script
from toolwire.errors import PayloadError
from toolwire.ir import (
    CustomTool,
    Message,
    ReasoningConfig,
    Request,
    TextPart,
    Tool,
    ToolCall,
    ToolChoice,
    ToolResult,
)

WEATHER = Tool(
    name="get_weather",
    parameters={"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)
TIME = Tool(
    name="get_time",
    parameters={"type": "object", "properties": {"tz": {"type": "string", "enum": ["UTC", "CET"]}}},
)
TOOLS = (WEATHER, TIME)


def ask(text: str, **kw: object) -> Request:
    return Request(messages=(Message(role="user", parts=(TextPart(text=text),)),), tools=TOOLS, **kw)  # type: ignore[arg-type]


def names(request: Request, model: ScriptedModel | None = None) -> list[str]:
    return [c.name for c in (model or ScriptedModel()).plan(request).tool_calls]


def test_calls_the_mentioned_tool_with_schema_arguments() -> None:
    plan = ScriptedModel().plan(ask("What time is it?"))
    assert [(c.name, json.loads(c.arguments)) for c in plan.tool_calls] == [("get_time", {"tz": "UTC"})]
    assert plan.text is None


def test_first_tool_when_nothing_is_mentioned() -> None:
    assert names(ask("hello there")) == ["get_weather"]


@pytest.mark.parametrize("trigger", PARALLEL_TRIGGERS)
def test_parallel_calls_on_trigger(trigger: str) -> None:
    assert names(ask(f"weather {trigger} time please")) == ["get_weather", "get_time"]


def test_parallel_capped_by_max_parallel() -> None:
    assert names(ask("weather and time"), ScriptedModel(max_parallel=1)) == ["get_weather"]


def test_parallel_disabled_gives_one_call() -> None:
    assert names(ask("weather and time", parallel_tool_calls=False)) == ["get_weather"]


def test_tool_choice_none_answers_text() -> None:
    plan = ScriptedModel().plan(ask("weather?", tool_choice=ToolChoice(mode="none")))
    assert plan.tool_calls == () and plan.text == "You said: weather?"


def test_tool_choice_named_and_allowed() -> None:
    assert names(ask("weather and time", tool_choice=ToolChoice(mode="named", name="get_time"))) == [
        "get_time"
    ]
    allowed = ToolChoice(mode="required", allowed=("get_time",))
    assert names(ask("weather please", tool_choice=allowed)) == ["get_time"]


def test_custom_tool_gets_free_text() -> None:
    request = Request(messages=ask("run").messages, tools=(CustomTool(name="shell"),))
    plan = ScriptedModel().plan(request)
    assert plan.tool_calls[0].name == "shell" and plan.tool_calls[0].arguments == "input for shell"


def test_a_namespaced_tool_is_called_in_its_namespace() -> None:
    """Two namespaces with a tool of the same name: the call names the namespace it picked."""
    read = Tool(name="read", parameters={"type": "object"})
    tools = (Tool(name="read", namespace="mcp__alpha"), Tool(name="read", namespace="mcp__beta"), read)
    request = Request(messages=ask("read both").messages, tools=tools)
    plan = ScriptedModel().plan(request)
    assert [(c.name, c.namespace) for c in plan.tool_calls] == [
        ("read", "mcp__alpha"),
        ("read", "mcp__beta"),
        ("read", None),
    ]


def test_results_are_quoted_verbatim() -> None:
    call = ToolCall(name="get_weather", arguments='{"city":"Paris"}', id="c1")
    call2 = ToolCall(name="get_time", arguments="{}", id="c2")
    messages = (
        *ask("weather and time").messages,
        Message(role="assistant", parts=(call, call2)),
        Message(role="tool", parts=(ToolResult(call_id="c1", content=(TextPart(text='{"temp": 21}'),)),)),
        Message(
            role="tool", parts=(ToolResult(call_id="c2", content=(TextPart(text="12:00"),), is_error=True),)
        ),
    )
    plan = ScriptedModel().plan(Request(messages=messages, tools=TOOLS))
    assert plan.tool_calls == ()
    assert plan.text == 'Results: get_weather -> {"temp": 21}; error from get_time -> 12:00'


def test_reasoning_only_when_enabled() -> None:
    assert ScriptedModel().plan(ask("weather")).reasoning is None
    on = ScriptedModel().plan(ask("weather", reasoning=ReasoningConfig(effort="high")))
    assert on.reasoning is not None and "get_weather" in on.reasoning
    off = ScriptedModel().plan(ask("weather", reasoning=ReasoningConfig(effort="minimal")))
    assert off.reasoning is None


def test_script_turns_by_assistant_count(tmp_path: Path) -> None:
    file = tmp_path / "script.yaml"
    file.write_text(
        "turns:\n"
        "  - reasoning: plan it\n"
        "    tool_calls:\n"
        "      - name: get_weather\n"
        "        arguments: {city: Oslo}\n"
        "  - text: Cold in Oslo.\n",
        encoding="utf-8",
    )
    model = ScriptedModel(load_script(file))
    first = model.plan(ask("anything"))
    assert first.reasoning == "plan it"
    assert [(c.name, json.loads(c.arguments)) for c in first.tool_calls] == [
        ("get_weather", {"city": "Oslo"})
    ]
    history = (*ask("anything").messages, Message(role="assistant", parts=(ToolCall(name="x", id="1"),)))
    assert model.plan(Request(messages=history)).text == "Cold in Oslo."
    twice = (*history, Message(role="assistant", parts=(TextPart(text="a"),)))
    assert model.plan(Request(messages=twice)).text == "You said: anything"  # past the script


@pytest.mark.parametrize(
    "data",
    [
        {"turns": "x"},
        [{"tool_calls": [{"arguments": {}}]}],
        [{}],
        [{"text": 3}],
        [{"tool_calls": [{"name": "f", "arguments": 3}]}],
    ],
)
def test_bad_scripts_raise_payload_error(data: object) -> None:
    with pytest.raises(PayloadError):
        parse_script(data)


def test_json_script_with_raw_argument_text(tmp_path: Path) -> None:
    file = tmp_path / "s.json"
    file.write_text(
        json.dumps([{"tool_calls": [{"name": "f", "arguments": '{"a": 1}'}]}, "done"]), encoding="utf-8"
    )
    script = load_script(file)
    assert script.turns[0].tool_calls[0].arguments == '{"a": 1}'
    assert script.turns[1].text == "done"
