"""``toolwire serve``: the gateway (any client format in front of any provider) with uvicorn.

With neither ``--config`` nor ``--upstream-url`` it fronts the built-in emulator, offline.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import sys
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from toolwire._extras import require
from toolwire.cli._exit import UsageError
from toolwire.errors import ToolwireError

__all__ = ["add_parser", "config_from_args"]

_FORMATS = ["openai-chat", "openai-responses", "anthropic", "gemini", "chat", "responses"]


def add_parser(sub: Any) -> None:
    """Register ``serve``."""
    parser = sub.add_parser(
        "serve",
        help="run the gateway: OpenAI, Anthropic and Gemini clients in front of any upstream",
        description="Run the gateway. With no --config and no --upstream-url it fronts the built-in "
        "emulator (offline). One upstream: --upstream-format/--upstream-url/--upstream-key-env; "
        "several, routes and gateway keys: --config FILE (TOML or YAML).",
    )
    parser.add_argument("--config", metavar="FILE", help="routing config, TOML or YAML")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8080, help="TCP port (default 8080)")
    parser.add_argument(
        "--upstream-format",
        choices=_FORMATS,
        default=None,
        help="the upstream's wire format (default anthropic)",
    )
    parser.add_argument(
        "--upstream-url",
        metavar="URL",
        help="the upstream's base URL as its SDK takes it (e.g. .../v1 for OpenAI)",
    )
    parser.add_argument(
        "--upstream-key-env", metavar="VAR", help="environment variable holding the upstream key"
    )
    parser.add_argument(
        "--model-map",
        action="append",
        default=[],
        metavar="PATTERN=MODEL",
        help="send models matching PATTERN (a glob) as MODEL, e.g. 'gpt-*=claude-sonnet-4-5' (repeatable)",
    )
    parser.add_argument(
        "--policy", choices=["warn", "strict", "drop"], default=None, help="conversion policy (default warn)"
    )
    parser.add_argument(
        "--store",
        metavar="URL",
        help="where Responses state is kept for non-Responses upstreams: sqlite:///path.db (default: "
        "a file in the user's data directory), redis://host:port/db, memory://",
    )
    parser.add_argument(
        "--trace",
        action="store_true",
        help="keep a trace of each call in the store (see 'toolwire trace ls'; a [trace] config "
        "section sets its limits)",
    )
    parser.add_argument(
        "--graceful-timeout", type=float, default=30.0, help="seconds open streams get at shutdown"
    )
    parser.add_argument("--no-access-log", action="store_true", help="do not write the JSON access log")
    parser.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="server log level (default: info)",
    )
    parser.set_defaults(handler=_run)


def config_from_args(args: argparse.Namespace) -> Any:
    """The :class:`~toolwire.gateway.HopConfig` the arguments describe (``None``: the embedded
    emulator).

    Raises:
        UsageError: conflicting or incomplete options.
    """
    from toolwire.hop._config import ConfigError, HopConfig, parse_model_map

    if args.store:
        from toolwire.store import StoreURLError, store_spec

        try:
            store_spec(args.store)  # a bad URL is a usage error before anything starts
        except StoreURLError as exc:
            raise UsageError(f"--store: {exc.message}") from None
    single = args.upstream_url or args.upstream_format or args.upstream_key_env or args.model_map
    if args.config and single:
        raise UsageError("--config and the --upstream-*/--model-map options are alternatives; use one")
    if args.config:
        from toolwire.gateway import load_config

        config = load_config(args.config)
    elif args.upstream_url:
        try:
            routes = tuple(parse_model_map(text) for text in args.model_map)
        except ConfigError as exc:  # a bad option value is a usage error
            raise UsageError(exc.message) from None
        config = HopConfig.single(
            args.upstream_format or "anthropic",
            args.upstream_url,
            key_env=args.upstream_key_env,
            model_map=routes,
        )
    else:
        if args.upstream_key_env or args.model_map:
            raise UsageError("--upstream-key-env and --model-map need --upstream-url")
        return None
    if args.policy:
        config = replace(config, policy=args.policy)
    return replace(config, store=args.store) if args.store else config


def _access_logging(enabled: bool) -> None:
    logger = logging.getLogger("toolwire.gateway.access")
    logger.propagate = False
    if enabled:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)


def _server_class(base: Any) -> Any:
    """uvicorn's server, but a SIGTERM or SIGINT that shut it down gracefully ends the process
    with status 0 (uvicorn raises the signal again once it has stopped, so the process would
    die by it, status -15, and supervisors would report a crash)."""

    class Server(base):  # type: ignore[misc]
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            with super().capture_signals():
                yield
                captured = getattr(self, "_captured_signals", None)
                if captured:
                    captured.clear()

    return Server


def _run(args: argparse.Namespace) -> int:
    require("'toolwire serve'", "httpx", "uvicorn", "starlette")
    import uvicorn

    from toolwire.gateway import create_app
    from toolwire.gateway._embedded import EmbeddedEmulator

    try:
        config = config_from_args(args)
    except ToolwireError:
        raise
    embedded = None
    if config is None:
        embedded = EmbeddedEmulator(args.upstream_format or "anthropic", None)
        config = embedded.config if not args.store else replace(embedded.config, store=args.store)
        where = f"the built-in emulator ({config.upstreams['upstream'].format})"
    else:
        where = ", ".join(f"{u.name} ({u.format})" for u in config.upstreams.values())
    if args.trace:
        config = replace(config, trace=replace(config.trace, enabled=True))
    _access_logging(not args.no_access_log)
    print(f"toolwire gateway on http://{args.host}:{args.port} -> {where}", file=sys.stderr, flush=True)
    if config.trace.enabled:
        from toolwire.store import DEFAULT_STORE, redact

        store = config.store or DEFAULT_STORE
        store = redact(store) if "@" in store else store  # redact() would respell sqlite:///x as sqlite:/x
        print(
            f"tracing every call into {store} (toolwire trace ls --store {store})",
            file=sys.stderr,
            flush=True,
        )
    server_config = uvicorn.Config(
        create_app(config),
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        access_log=False,
        timeout_graceful_shutdown=args.graceful_timeout,
    )
    try:
        _server_class(uvicorn.Server)(server_config).run()
    finally:
        if embedded is not None:
            embedded.close()
    return 0
