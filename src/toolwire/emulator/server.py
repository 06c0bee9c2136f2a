"""Run an ASGI app with uvicorn in a background thread, for tests and demos."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

from toolwire._extras import require

__all__ = ["serve"]

_LOOPBACK = ("127.0.0.1", "localhost", "::1")


@contextlib.contextmanager
def serve(
    app: Any = None,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    log_level: str = "warning",
    timeout: float = 10.0,
    config: Any = None,
) -> Iterator[str]:
    """Serve ``app`` (default: a fresh emulator, of ``config`` when given) on ``host:port``;
    yields the base URL.

    ``port=0`` picks a free port. The server stops when the ``with`` block ends.

    Example:
        >>> with serve() as url:                       # doctest: +SKIP
        ...     client = openai.OpenAI(base_url=f"{url}/v1", api_key="x")
        >>> with serve(config=EmulatorConfig(rules="provider")) as url:  # doctest: +SKIP
        ...     ...
    """
    require("toolwire.emulator.serve", "uvicorn")
    import uvicorn

    if app is None:
        from toolwire.emulator.app import create_app

        app = create_app(config)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    bound = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level=log_level, lifespan="off", access_log=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, daemon=True, name="toolwire-emulator"
    )
    thread.start()
    try:
        _wait_started(server, thread, timeout)
        shown = f"[{host}]" if ":" in host else host
        yield f"http://{shown}:{bound}"
    finally:
        server.should_exit = True
        thread.join(timeout)
        sock.close()


def _wait_started(server: Any, thread: threading.Thread, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("the emulator server failed to start")
        if time.monotonic() > deadline:
            server.should_exit = True
            raise TimeoutError("the emulator server did not start in time")
        time.sleep(0.005)
