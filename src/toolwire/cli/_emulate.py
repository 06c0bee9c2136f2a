"""``toolwire emulate``: run the provider emulator (OpenAI, Anthropic, Gemini APIs) with uvicorn."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from toolwire._extras import require
from toolwire.cli._exit import UsageError
from toolwire.errors import PayloadError
from toolwire.store import StoreURLError, store_spec

__all__ = ["add_parser", "config_from_args"]


def add_parser(sub: Any) -> None:
    """Register ``emulate``."""
    parser = sub.add_parser(
        "emulate",
        help="serve the OpenAI, Anthropic and Gemini APIs with a deterministic scripted model",
    )
    parser.add_argument("--port", type=int, default=8000, help="TCP port (default 8000)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--script", metavar="FILE", help="JSON or YAML file of exact turns")
    parser.add_argument(
        "--api-key", action="append", default=[], metavar="KEY", help="required API key (repeatable)"
    )
    parser.add_argument("--faults", metavar="SPEC", help="faults for every request, e.g. 'latency=0.2'")
    parser.add_argument(
        "--rules",
        default="lenient",
        choices=["lenient", "provider"],
        help="'provider': enforce the replay rules real providers enforce on history (default: lenient)",
    )
    parser.add_argument(
        "--store",
        default="memory://",
        metavar="URL",
        help="where Responses are kept: memory:// (default), sqlite:///path.db, redis://host:port/db",
    )
    parser.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="server log level (default: info)",
    )
    parser.set_defaults(handler=_run)


def config_from_args(args: argparse.Namespace) -> Any:
    """The :class:`~toolwire.emulator.EmulatorConfig` the arguments describe."""
    from toolwire.emulator import EmulatorConfig, load_script, parse_faults

    try:
        parse_faults(args.faults)  # reject a bad spec before serving
    except PayloadError as exc:
        raise UsageError(f"--faults: {exc}") from None
    try:
        script = load_script(args.script) if args.script else None
    except OSError as exc:
        raise PayloadError(f"cannot read {args.script!r}: {exc.strerror or exc}") from None
    try:
        store_spec(args.store)
    except StoreURLError as exc:
        raise UsageError(f"--store: {exc.message}") from None
    return EmulatorConfig(
        api_keys=tuple(args.api_key), script=script, faults=args.faults, rules=args.rules, store=args.store
    )


def _run(args: argparse.Namespace) -> int:
    require("'toolwire emulate'", "starlette", "uvicorn")
    import uvicorn

    from toolwire.emulator import create_app

    config = config_from_args(args)
    print(f"toolwire emulator on http://{args.host}:{args.port}", file=sys.stderr)
    uvicorn.run(create_app(config), host=args.host, port=args.port, log_level=args.log_level)
    return 0
