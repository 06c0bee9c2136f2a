"""The tool runner: a registry of Python tools and the loop that carries a conversation to the end.

The model answers with tool calls, the tools run (validated, concurrent, bounded, with timeouts
and optional approval), the results go back in the provider's own format, and the loop repeats
until the model answers in text or ``max_turns`` is reached. Sync and async runners share one
sans-IO state machine (:class:`RunState`); only waiting differs.
"""

from toolwire.runner._calls import result_from_value
from toolwire.runner._execute import Approver, execute_async, execute_sync
from toolwire.runner._loop import Hooks, RunResult, RunState, RunUsageError, StopKind
from toolwire.runner._run import (
    RunEnd,
    RunEvent,
    ToolResultEvent,
    TurnEnd,
    arun,
    arun_stream,
    run,
    run_stream,
)
from toolwire.runner._toolbox import RegisteredTool, Toolbox
from toolwire.runner._workers import DEFAULT_ABANDONED_LIMIT, abandoned_threads, set_abandoned_limit

__all__ = [
    "DEFAULT_ABANDONED_LIMIT",
    "Approver",
    "Hooks",
    "RegisteredTool",
    "RunEnd",
    "RunEvent",
    "RunResult",
    "RunState",
    "RunUsageError",
    "StopKind",
    "ToolResultEvent",
    "Toolbox",
    "TurnEnd",
    "abandoned_threads",
    "arun",
    "arun_stream",
    "execute_async",
    "execute_sync",
    "result_from_value",
    "run",
    "run_stream",
    "set_abandoned_limit",
]
