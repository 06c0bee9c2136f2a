"""Keeping the agent CLIs on loopback, and proving they stayed there.

Two independent layers, both used by :mod:`tests.e2e._clients`:

* **Prevent.** :class:`Sinkhole` is a TCP listener on 127.0.0.1 that every proxy variable
  (``HTTP_PROXY``, ``HTTPS_PROXY``, ``ALL_PROXY`` and their lowercase forms) points at, with
  ``NO_PROXY`` naming only loopback. A client that honours the variables (reqwest in Codex, the
  Node/Bun fetch stack in Claude Code) sends any non-loopback request there; the sinkhole records
  the first line (``CONNECT api.openai.com:443 HTTP/1.1``) and answers 403.
* **Verify.** When ``strace`` is installed the client runs under
  ``strace -f -e trace=connect,sendto,sendmsg``, so a client that ignores the proxy variables and
  dials out directly (or sends a DNS query) is still seen. :func:`outside_addresses` lists every
  IPv4/IPv6 address in that trace that is not loopback; AF_UNIX and AF_NETLINK are local.

A test asserts both lists are empty.
"""

from __future__ import annotations

import re
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

__all__ = [
    "PROXY_VARIABLES",
    "Sinkhole",
    "endpoints",
    "outside",
    "outside_addresses",
    "proxy_env",
    "sinkhole",
]

PROXY_VARIABLES: tuple[str, ...] = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")
"""Proxy variables pointed at the sinkhole (each also set in lowercase)."""

_LOOPBACK_NO_PROXY = "127.0.0.1,localhost,::1"
_INET = re.compile(r'sin_addr=inet_addr\("([0-9.]+)"\)|inet_pton\(AF_INET6, "([0-9a-fA-F:.]+)"')
_PORT = re.compile(r"sin6?_port=htons\((\d+)\)")


@dataclass(slots=True)
class Sinkhole:
    """A loopback listener that refuses every proxied request and remembers what was asked."""

    port: int = 0
    attempts: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``, the value of the proxy variables."""
        return f"http://127.0.0.1:{self.port}"


def _answer(conn: socket.socket, hole: Sinkhole) -> None:
    with conn:
        conn.settimeout(2.0)
        try:
            first = conn.recv(4096).split(b"\r\n", 1)[0]
            hole.attempts.append(first.decode("latin-1") or "<connection without a request line>")
            conn.sendall(b"HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
        except OSError:
            hole.attempts.append("<connection without a request line>")


@contextmanager
def sinkhole() -> Iterator[Sinkhole]:
    """Run a :class:`Sinkhole` on a free loopback port for the ``with`` block."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.settimeout(0.2)
    hole = Sinkhole(port=listener.getsockname()[1])
    stop = threading.Event()

    def loop() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            _answer(conn, hole)

    thread = threading.Thread(target=loop, daemon=True, name="e2e-sinkhole")
    thread.start()
    try:
        yield hole
    finally:
        stop.set()
        thread.join(5)
        listener.close()


def proxy_env(hole: Sinkhole) -> dict[str, str]:
    """The environment that sends every non-loopback request of a client to ``hole``."""
    env = {"NO_PROXY": _LOOPBACK_NO_PROXY, "no_proxy": _LOOPBACK_NO_PROXY}
    for name in PROXY_VARIABLES:
        env[name] = env[name.lower()] = hole.url
    return env


def _is_loopback(address: str) -> bool:
    if address.startswith("127.") or address in ("::1", "0.0.0.0", "::"):
        return True
    return address.startswith("::ffff:127.")


def endpoints(trace: str) -> list[str]:
    """Every IPv4/IPv6 ``address:port`` in an ``strace -e trace=connect,sendto,sendmsg`` log, in
    order, one entry per syscall line naming one (AF_UNIX and unaddressed sends name none)."""
    out: list[str] = []
    for line in trace.splitlines():
        found = _INET.search(line)
        if found is None:
            continue
        port = _PORT.search(line)
        out.append(f"{found.group(1) or found.group(2)}:{port.group(1) if port else '?'}")
    return out


def outside(reached: list[str]) -> list[str]:
    """The ``address:port`` endpoints of ``reached`` outside loopback."""
    return [e for e in reached if not _is_loopback(e.rsplit(":", 1)[0])]


def outside_addresses(trace: str) -> list[str]:
    """The :func:`endpoints` of an strace log outside loopback."""
    return outside(endpoints(trace))
