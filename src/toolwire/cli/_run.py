"""``toolwire run``: a quick tool-calling loop with Python tools against any provider."""

from __future__ import annotations

import argparse
import inspect
import sys
from typing import Any

from toolwire._extras import require
from toolwire.cli._exit import UsageError
from toolwire.cli._schema import import_user_module, load_object
from toolwire.errors import MissingDependencyError, ToolwireError
from toolwire.ir.content import Message, TextPart
from toolwire.ir.request import Request
from toolwire.ir.stream import TextDelta

__all__ = ["add_parser", "load_toolbox"]

_PROVIDERS = (
    "openai-responses",
    "openai-chat",
    "anthropic",
    "gemini",
    "azure-openai",
    "azure-openai-chat",
    "vertex-gemini",
    "vertex-anthropic",
    "bedrock",
    "mistral",
    "deepseek",
    "openrouter",
    "groq",
    "xai",
    "ollama",
    "vllm",
)
"""``toolwire.client.PROVIDERS``'s names (kept here so building the parser imports no client;
a test keeps them equal)."""


def add_parser(sub: Any) -> None:
    """Register ``run``."""
    parser = sub.add_parser("run", help="run a tool-calling conversation with Python tools")
    parser.add_argument("question", help="the user's message")
    parser.add_argument(
        "--provider",
        choices=_PROVIDERS,
        default=None,
        help="API to call (default: the prefix of a --model PREFIX/MODEL, else openai-responses)",
    )
    parser.add_argument("--base-url", help="server root (default: the provider's)")
    parser.add_argument("--api-key", help="API key (default: the provider's usual environment variable)")
    parser.add_argument(
        "--model", default=None, help="model name, or PREFIX/MODEL without --provider (vertex/gemini-2.5-pro)"
    )
    parser.add_argument(
        "--tools",
        action="append",
        default=[],
        metavar="MODULE[:NAME,...]",
        help="tools: every @tool function of MODULE, or the named functions (repeatable)",
    )
    parser.add_argument("--system", help="system instructions")
    parser.add_argument(
        "--max-turns", type=int, default=10, help="stop after this many model calls (default: 10)"
    )
    parser.add_argument(
        "--max-tokens", type=int, default=1024, help="output token limit per call (default: 1024)"
    )
    parser.add_argument("--stream", action="store_true", help="stream the model's text as it arrives")
    parser.set_defaults(handler=_run)


def load_toolbox(specs: list[str]) -> Any:
    """A :class:`~toolwire.runner.Toolbox` from ``module`` or ``module:name,name`` specs."""
    from toolwire.decorator import ToolFunction
    from toolwire.runner import Toolbox

    box = Toolbox()
    for spec in specs:
        module_name, _, names = spec.partition(":")
        if names:
            objects = [
                load_object(f"{module_name}:{name.strip()}") for name in names.split(",") if name.strip()
            ]
        else:
            module = import_user_module(module_name)
            objects = [v for v in vars(module).values() if isinstance(v, ToolFunction)]
            if not objects:
                objects = [
                    v
                    for k, v in vars(module).items()
                    if inspect.isfunction(v) and v.__module__ == module.__name__ and not k.startswith("_")
                ]
        for obj in objects:
            box.register(obj)
    return box


def _request(args: argparse.Namespace) -> Request:
    messages = [Message(role="user", parts=(TextPart(text=args.question),))]
    if args.system:
        messages.insert(0, Message(role="system", parts=(TextPart(text=args.system),)))
    return Request(model=args.model, messages=tuple(messages), max_tokens=args.max_tokens)


def _progress(turn: int, response: Any) -> None:
    for call in response.tool_calls:
        sys.stderr.write(f"[turn {turn}] {call.name}({call.arguments})\n")


def _result_line(call: Any, result: Any) -> None:
    state = "error" if result.is_error else "ok"
    sys.stderr.write(f"  -> {call.name}: {state}\n")


def _client(factory: Any, args: argparse.Namespace) -> Any:
    """The client for ``--provider``/``--model`` (a model string names both); a bad model string
    is a usage error."""
    provider = args.provider
    if provider is None and not (args.model and "/" in args.model):
        provider = "openai-responses"
    try:
        return factory(provider, base_url=args.base_url, api_key=args.api_key, model=args.model)
    except MissingDependencyError:
        raise
    except ToolwireError as exc:
        raise UsageError(f"--model {args.model!r}: {exc}" if provider is None else str(exc)) from None


def _run(args: argparse.Namespace) -> int:
    # Python tools are built with pydantic: with --tools the command needs the models extra too.
    require("'toolwire run'", "httpx", "tenacity", *(("pydantic",) if args.tools else ()))
    from toolwire.client import Client
    from toolwire.runner import Hooks, RunEnd, RunResult, run, run_stream

    box = load_toolbox(args.tools)
    hooks = Hooks(after_response=lambda t, r: _progress(t, r), after_tool=lambda c, r: _result_line(c, r))
    result: RunResult | None = None
    with _client(Client, args) as client:
        if not args.stream:
            result = run(client, _request(args), box, max_turns=args.max_turns, hooks=hooks)
            sys.stdout.write(result.text + "\n")
        else:
            for event in run_stream(client, _request(args), box, max_turns=args.max_turns, hooks=hooks):
                if isinstance(event, TextDelta):
                    sys.stdout.write(event.text)
                    sys.stdout.flush()
                elif isinstance(event, RunEnd):
                    result = event.result
            sys.stdout.write("\n")
    assert result is not None
    sys.stderr.write(f"{result.turns} turn(s), stopped: {result.stop}\n")
    return 0 if result.stop == "completed" else 1
