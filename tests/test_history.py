from __future__ import annotations

from toolwire.ir import Message, TextPart, ToolCall, ToolResult
from toolwire.validate import lint_history


def _call(cid: str | None, name: str = "f") -> ToolCall:
    return ToolCall(id=cid, name=name, arguments="{}")


def _result(cid: str | None) -> Message:
    return Message(role="tool", parts=(ToolResult(call_id=cid, content=(TextPart(text="r"),)),))


def _codes(messages: list[Message], **kw: bool) -> list[tuple[str, str]]:
    return [(p.code, p.path) for p in lint_history(messages, **kw)]


def test_clean_history_with_parallel_calls() -> None:
    history = [
        Message(role="user", parts=(TextPart(text="q"),)),
        Message(role="assistant", parts=(_call("a"), _call("b"))),
        _result("a"),
        _result("b"),
        Message(role="assistant", parts=(TextPart(text="done"),)),
    ]
    assert lint_history(history) == []


def test_orphans_duplicates_and_order() -> None:
    history = [
        Message(role="assistant", parts=(_call("a"), _call("a"))),
        _result("zzz"),
        Message(role="assistant", parts=(_call("b"),)),
        _result("a"),
        _result("a"),
    ]
    assert _codes(history) == [
        ("duplicate_call_id", "$.messages[0].parts[1]"),
        ("orphan_tool_result", "$.messages[1].parts[0]"),
        ("result_not_next", "$.messages[3].parts[0]"),
        ("duplicate_result", "$.messages[4].parts[0]"),
        ("orphan_tool_call", "$.messages[2].parts[0]"),
    ]


def test_missing_ids_and_wrong_role() -> None:
    history = [Message(role="user", parts=(_call(None),)), _result(None)]
    assert _codes(history) == [
        ("call_not_assistant", "$.messages[0].parts[0]"),
        ("missing_call_id", "$.messages[0].parts[0]"),
        ("missing_call_id", "$.messages[1].parts[0]"),
    ]
    assert _codes(history, require_ids=False) == [("call_not_assistant", "$.messages[0].parts[0]")]
