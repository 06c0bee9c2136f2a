"""Runner hardening (issue 19): hung tools free the caller, deadlines per call, nothing aborts a run."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from typing import Any

import pydantic
import pytest

from toolwire.client import Client
from toolwire.emulator import EmulatorConfig, Script, ScriptedCall, Turn, create_app, serve
from toolwire.ir import Message, Request, TextPart, ToolCall, ToolResult
from toolwire.runner import Toolbox, abandoned_threads, execute_async, execute_sync, run, set_abandoned_limit
from toolwire.validate import validate

FOREVER = threading.Event()  # set only after each test: a tool waiting on it hangs until then


@pytest.fixture(autouse=True)
def _release_hung_tools() -> Iterator[None]:
    """Each test gets its own never-set event; its hung threads return when it ends.

    Abandoned threads still running count against the process-wide cap
    (``set_abandoned_limit``), so one test's hung tools must not use up another's.
    """
    global FOREVER
    FOREVER = threading.Event()
    before = abandoned_threads()
    yield
    FOREVER.set()
    end = time.monotonic() + 5
    while abandoned_threads() > before and time.monotonic() < end:
        time.sleep(0.01)


def call(name: str, args: str = "{}", i: int = 0) -> ToolCall:
    return ToolCall(id=f"call_{i}", name=name, arguments=args)


def text(result: ToolResult) -> str:
    return "".join(p.text for p in result.content if isinstance(p, TextPart))


@pytest.fixture(params=["sync", "async"])
def execute(request: pytest.FixtureRequest) -> Any:
    if request.param == "sync":
        return execute_sync
    return lambda *a, **k: asyncio.run(execute_async(*a, **k))


def hang_box() -> Toolbox:
    box = Toolbox()

    @box.register
    def hang() -> str:
        """Never returns."""
        FOREVER.wait()
        return "unreachable"

    @box.register
    def quick(i: int) -> str:
        """Answers at once."""
        return f"quick {i}"

    return box


HUNG_SCRIPT = """
import asyncio, sys, threading
from toolwire.client import AsyncClient, Client
from toolwire.emulator import serve
from toolwire.ir import Message, Request, TextPart
from toolwire.runner import Toolbox, arun, run

box = Toolbox()

@box.register
def hang(city: str) -> str:
    '''Never returns.'''
    threading.Event().wait()
    return "unreachable"

request = Request(model="m", messages=(Message(role="user", parts=(TextPart(text="go"),)),))
with serve(log_level="critical") as url:
    if sys.argv[1] == "run":
        with Client("anthropic", base_url=url, api_key="k") as client:
            result = run(client, request, box, tool_timeout=0.3, max_turns=2)
    else:
        async def go():
            async with AsyncClient("anthropic", base_url=url, api_key="k") as client:
                return await arun(client, request, box, tool_timeout=0.3, max_turns=2)
        result = asyncio.run(go())
    print("timed out" in str(result.messages), flush=True)
"""


@pytest.mark.parametrize("mode", ["run", "arun"])
def test_a_hung_tool_lets_the_process_exit(mode: str, tmp_path: Any) -> None:
    script = tmp_path / "hung.py"
    script.write_text(textwrap.dedent(HUNG_SCRIPT))
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, str(script), mode], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"
    assert time.monotonic() - started < 30  # hung forever before the fix (killed by the 60 s timeout)


def test_parallel_timeouts_do_not_add_up(execute: Any) -> None:
    calls = [call("hang", "{}", i) for i in range(6)]
    started = time.monotonic()
    results = execute(calls, hang_box(), timeout=0.5, max_concurrency=8)
    elapsed = time.monotonic() - started
    assert all(r.is_error and "timed out after 0.5 s" in text(r) for r in results)
    assert elapsed < 2.5  # 6 x 0.5 s = 3 s when they add up


def test_queued_calls_run_after_hung_ones_time_out(execute: Any) -> None:
    """Two slots, two hung calls first: the quick calls queued behind them still run."""
    calls = [call("hang", "{}", 0), call("hang", "{}", 1)]
    calls += [call("quick", f'{{"i": {i}}}', i) for i in range(2, 5)]
    results = execute(calls, hang_box(), timeout=0.4, max_concurrency=2)
    assert [r.is_error for r in results[:2]] == [True, True]
    assert [text(r) for r in results[2:]] == ["quick 2", "quick 3", "quick 4"]


def test_hung_sync_tools_do_not_starve_the_default_executor() -> None:
    """Under ``arun``, hung sync tools once filled the loop's default executor.

    40 hung tools at once is above the default cap of abandoned threads, so the cap is raised
    here: the executor, not the cap, is under test.
    """
    old = set_abandoned_limit(1000)
    try:
        assert [text(r) for r in asyncio.run(_hung_then_quick())] == ["quick 7"]
    finally:
        set_abandoned_limit(old)


async def _hung_then_quick() -> list[ToolResult]:
    box = hang_box()
    first = await execute_async([call("hang", "{}", i) for i in range(40)], box, timeout=0.2)
    assert all(r.is_error for r in first)
    # the loop's own executor is still free
    assert await asyncio.wait_for(asyncio.to_thread(lambda: "free"), 5) == "free"
    return await execute_async([call("quick", '{"i": 7}')], box, timeout=5)


class Slow(pydantic.BaseModel):
    """Arguments whose validation takes 3 s (as a catastrophic pattern or a slow validator would)."""

    s: str

    @pydantic.field_validator("s")
    @classmethod
    def slow(cls, value: str) -> str:
        time.sleep(3)
        return value


def test_argument_validation_runs_under_the_timeout(execute: Any) -> None:
    """Before: validation ran in the caller, outside any deadline (3 s here, forever at worst)."""
    box = Toolbox()
    box.register_model(Slow, lambda model: model.s, name="slow")
    started = time.monotonic()
    results = execute([call("slow", '{"s": "x"}'), call("slow", '{"s": "y"}', 1)], box, timeout=0.5)
    elapsed = time.monotonic() - started
    assert [r.is_error for r in results] == [True, True]
    assert all("timed out after 0.5 s" in text(r) for r in results)
    assert elapsed < 2


def test_async_tool_is_cancelled_on_timeout() -> None:
    box = Toolbox()
    cancelled: list[bool] = []

    @box.register
    async def nap() -> str:
        """Sleeps too long."""
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            cancelled.append(True)
            raise
        return "late"

    results = asyncio.run(execute_async([call("nap")], box, timeout=0.2))
    assert results[0].is_error and "timed out" in text(results[0])
    assert cancelled == [True]


def odd_box() -> Toolbox:
    box = Toolbox()

    @box.register
    def tuple_keys() -> Any:
        """A result json.dumps cannot encode."""
        return {(1, 2): "x"}

    @box.register
    def escaped() -> str:
        """A surrogateescape'd string."""
        return b"caf\xe9".decode("utf-8", "surrogateescape")

    @box.register
    def quits() -> str:
        """Raises SystemExit."""
        raise SystemExit(3)

    @box.register
    async def aquits() -> str:
        """Raises SystemExit asynchronously."""
        raise SystemExit(4)

    @box.register(needs_approval=True)
    def guarded() -> str:
        """Needs approval."""
        return "ran"

    @box.register
    def fine() -> str:
        """Works."""
        return "fine"

    return box


def test_odd_outcomes_become_error_results(execute: Any) -> None:
    names = ["tuple_keys", "escaped", "quits", "aquits", "fine"]
    results = execute([call(n, "{}", i) for i, n in enumerate(names)], odd_box(), timeout=5)
    assert [r.is_error for r in results] == [True, True, True, True, None]
    assert "cannot be sent as JSON (TypeError" in text(results[0])
    assert "not valid Unicode" in text(results[1])
    assert "SystemExit: 3" in text(results[2]) and "SystemExit: 4" in text(results[3])
    assert text(results[4]) == "fine"
    for r in results:
        text(r).encode("utf-8")  # every result can be sent


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_a_raising_approver_becomes_an_error_result(execute: Any, kind: str) -> None:
    def approve(c: ToolCall, tool: Any) -> bool:
        raise RuntimeError("approval service down")

    async def aapprove(c: ToolCall, tool: Any) -> bool:
        raise RuntimeError("approval service down")

    calls = [call("guarded", "{}", 0), call("fine", "{}", 1)]
    results = execute(calls, odd_box(), approve=approve if kind == "sync" else aapprove)
    assert results[0].is_error and "approval failed" in text(results[0])
    assert "approval service down" in text(results[0])
    assert text(results[1]) == "fine"


SCRIPT = Script(
    turns=(Turn(tool_calls=(ScriptedCall("add", '{"a": 1, "b": 2}'), ScriptedCall("add", "{}"))),)
)


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with serve(create_app(EmulatorConfig(script=SCRIPT)), log_level="critical") as base:
        yield base


@pytest.mark.parametrize("fmt", ["anthropic", "openai-chat", "openai-responses", "gemini"])
def test_max_turns_answers_the_open_calls(fmt: str, url: str) -> None:
    box = Toolbox()

    @box.register
    def add(a: int, b: int) -> int:
        """Add."""
        return a + b

    request = Request(model="m", messages=(Message(role="user", parts=(TextPart(text="add"),)),))
    with Client(fmt, base_url=url, api_key="k") as client:
        result = run(client, request, box, max_turns=1)
    assert result.stop == "max_turns"
    last = result.messages[-1]
    assert last.role == "tool"
    calls = result.response.tool_calls
    assert [p.call_id for p in last.parts if isinstance(p, ToolResult)] == [c.id for c in calls]
    assert all(isinstance(p, ToolResult) and p.is_error for p in last.parts)
    assert all("not run: max_turns reached" in text(p) for p in last.parts if isinstance(p, ToolResult))
    # the conversation plus a user turn is a valid request of the provider's format
    follow_up = result.native(fmt)
    user = Request(model="m", messages=(Message(role="user", parts=(TextPart(text="go on"),)),))
    from toolwire.ir.notes import Notes
    from toolwire.translate import format_module

    turn = format_module(fmt).encode_request(user, Notes("drop"))
    key = "contents" if fmt == "gemini" else ("input" if fmt == "openai-responses" else "messages")
    follow_up[key] = [*follow_up[key], *turn[key]]
    assert validate(follow_up, format=fmt, kind="request") == []


@pytest.mark.parametrize(
    "prop",
    [
        {"$ref": "{url}/evil.json"},
        {"$ref": "b.json"},  # relative to the root's $id
        {"$dynamicRef": "{url}/meta#node"},
        {"$ref": "#/$defs/missing"},
    ],
)
def test_remote_or_unresolvable_refs_are_refused_at_registration_without_fetching(
    prop: dict[str, str],
) -> None:
    """Already fixed on main; pinned here on the runner path: refused up front, nothing fetched."""
    from toolwire.errors import SchemaError

    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.5)
    url = f"http://127.0.0.1:{listener.getsockname()[1]}"
    schema = {
        "$id": f"{url}/root.json",
        "type": "object",
        "properties": {"x": {k: v.replace("{url}", url) for k, v in prop.items()}},
    }
    box = Toolbox()
    with listener:
        with pytest.raises(SchemaError) as info:
            box.register_schema("remote", schema, lambda x: x)
        with pytest.raises(TimeoutError):
            listener.accept()  # nobody connected
    assert info.value.path is not None and info.value.path.startswith("$.properties.x")
    assert "remote" not in box
