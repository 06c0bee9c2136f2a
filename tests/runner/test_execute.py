"""Tool execution: validation, errors, timeouts, approval, concurrency and result order."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pydantic
import pytest

from toolwire.ir import ImagePart, TextPart, ToolCall, ToolResult
from toolwire.runner import Toolbox, execute_async, execute_sync


class Weather(pydantic.BaseModel):
    city: str
    days: int = 1


def make_box() -> Toolbox:
    box = Toolbox()

    @box.register
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @box.register
    def slow(seconds: float) -> str:
        """Sleep, then answer."""
        time.sleep(seconds)
        return f"slept {seconds}"

    @box.register
    async def aslow(seconds: float) -> str:
        """Sleep asynchronously, then answer."""
        await asyncio.sleep(seconds)
        return f"async slept {seconds}"

    @box.register
    def boom() -> str:
        """Always fails."""
        raise RuntimeError("the tool broke")

    @box.register(needs_approval=True)
    def delete_file(path: str) -> str:
        """Delete a file (needs approval)."""
        return f"deleted {path}"

    @box.register
    def picture() -> list[Any]:
        """Returns an image and a caption."""
        return [ImagePart(data="iVBORw0KGgo=", media_type="image/png"), TextPart(text="a dot")]

    box.register_model(Weather, lambda w: {"city": w.city, "days": w.days, "sky": "clear"})
    box.register_schema(
        "lookup",
        {
            "type": "object",
            "properties": {"key": {"type": "string", "enum": ["a", "b"]}},
            "required": ["key"],
        },
        lambda key: {"a": 1, "b": 2}[key],
        description="Look a key up.",
    )
    return box


def call(name: str, args: str, i: int = 0) -> ToolCall:
    return ToolCall(id=f"call_{i}", name=name, arguments=args)


def text(result: ToolResult) -> str:
    return "".join(p.text for p in result.content if isinstance(p, TextPart))


@pytest.fixture(params=["sync", "async"])
def execute(request: pytest.FixtureRequest) -> Any:
    if request.param == "sync":
        return execute_sync
    return lambda *a, **k: asyncio.run(execute_async(*a, **k))


def test_results_in_call_order_with_ids(execute: Any) -> None:
    calls = [
        call("slow", '{"seconds": 0.2}', 0),
        call("add", '{"a": 2, "b": 3}', 1),
        call("aslow", '{"seconds": 0.05}', 2),
    ]
    results = execute(calls, make_box())
    assert [r.call_id for r in results] == ["call_0", "call_1", "call_2"]
    assert [text(r) for r in results] == ["slept 0.2", "5", "async slept 0.05"]
    assert all(r.is_error is None for r in results)
    assert [r.name for r in results] == ["slow", "add", "aslow"]


def test_parallel_calls_run_concurrently() -> None:
    """Four calls that each wait for all four to arrive: they only finish if they run at once."""
    box = Toolbox()
    barrier = threading.Barrier(4, timeout=10)

    @box.register
    def meet(i: int) -> str:
        """Wait at the barrier."""
        barrier.wait()
        return f"met {i}"

    @box.register
    async def ameet(i: int) -> str:
        """Wait at the barrier without blocking the event loop."""
        await asyncio.to_thread(barrier.wait)
        return f"met {i}"

    calls = [call("meet", f'{{"i": {i}}}', i) for i in range(4)]
    assert [text(r) for r in execute_sync(calls, box, max_concurrency=4)] == [f"met {i}" for i in range(4)]
    barrier.reset()
    acalls = [call("ameet", f'{{"i": {i}}}', i) for i in range(4)]
    results = asyncio.run(execute_async(acalls, box, max_concurrency=4))
    assert [text(r) for r in results] == [f"met {i}" for i in range(4)]


def test_errors_become_error_results(execute: Any) -> None:
    calls = [
        call("boom", "{}", 0),
        call("add", '{"a": "x", "b": 1}', 1),
        call("add", '{"a": 1', 2),
        call("nope", "{}", 3),
        call("lookup", '{"key": "z"}', 4),
        call("Weather", '{"days": 2}', 5),
    ]
    results = execute(calls, make_box())
    assert all(r.is_error for r in results)
    assert "RuntimeError: the tool broke" in text(results[0])
    assert "invalid arguments for 'add'" in text(results[1]) and "$.a" in text(results[1])
    assert "invalid JSON" in text(results[2])
    assert "unknown tool 'nope'" in text(results[3]) and "add" in text(results[3])
    assert '"z" is not one of "a" or "b"' in text(results[4]) and "$.key" in text(results[4])
    assert "$.city" in text(results[5])


def test_timeout(execute: Any) -> None:
    results = execute(
        [call("slow", '{"seconds": 2}'), call("aslow", '{"seconds": 2}', 1)], make_box(), timeout=0.2
    )
    assert [r.is_error for r in results] == [True, True]
    assert "timed out after 0.2 s" in text(results[0]) and "timed out" in text(results[1])


def test_approval(execute: Any) -> None:
    box = make_box()
    seen: list[str] = []

    def approve(c: ToolCall, tool: Any) -> bool:
        seen.append(f"{tool.name}:{c.arguments}")
        return "keep" not in c.arguments

    results = execute(
        [call("delete_file", '{"path": "/tmp/x"}', 0), call("delete_file", '{"path": "keep"}', 1)],
        box,
        approve=approve,
    )
    assert text(results[0]) == "deleted /tmp/x" and results[0].is_error is None
    assert results[1].is_error and "not approved" in text(results[1])
    assert seen == ['delete_file:{"path": "/tmp/x"}', 'delete_file:{"path": "keep"}']
    refused = execute([call("delete_file", '{"path": "a"}')], box)  # no approver: refused
    assert refused[0].is_error


def test_async_approver() -> None:
    async def approve(c: ToolCall, tool: Any) -> bool:
        await asyncio.sleep(0)
        return True

    results = asyncio.run(execute_async([call("delete_file", '{"path": "p"}')], make_box(), approve=approve))
    assert text(results[0]) == "deleted p"


def test_results_keep_content_parts_and_json(execute: Any) -> None:
    results = execute(
        [call("picture", ""), call("Weather", '{"city": "Oslo"}', 1), call("lookup", '{"key": "b"}', 2)],
        make_box(),
    )
    assert isinstance(results[0].content[0], ImagePart) and text(results[0]) == "a dot"
    assert text(results[1]) == '{"city": "Oslo", "days": 1, "sky": "clear"}'
    assert text(results[2]) == "2"


def test_max_concurrency_is_respected() -> None:
    box = Toolbox()
    lock = threading.Lock()
    running = [0, 0]  # now, peak

    @box.register
    def work() -> str:
        """Count concurrent runs."""
        with lock:
            running[0] += 1
            running[1] = max(running[1], running[0])
        time.sleep(0.05)
        with lock:
            running[0] -= 1
        return "ok"

    execute_sync([call("work", "", i) for i in range(6)], box, max_concurrency=2)
    assert running[1] == 2
    running[1] = 0
    asyncio.run(execute_async([call("work", "", i) for i in range(6)], box, max_concurrency=3))
    assert running[1] == 3


def test_duplicate_registration_is_refused() -> None:
    box = make_box()
    with pytest.raises(Exception, match="already registered"):
        box.register_schema("add", {"type": "object", "properties": {}}, lambda: 1)
