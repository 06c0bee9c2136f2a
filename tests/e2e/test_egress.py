"""The egress guard of the real-client tests: the sinkhole refuses and records proxied requests,
and the strace audit sees direct connections outside loopback (so a client that ignores the proxy
variables cannot pass unseen)."""

from __future__ import annotations

import shutil
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.e2e._clients import _run
from tests.e2e._egress import outside_addresses, proxy_env, sinkhole

TRACE = "\n".join(
    [
        '101 connect(3, {sa_family=AF_UNIX, sun_path="/var/run/nscd/socket"}, 110) = -1 ENOENT',
        '101 connect(5, {sa_family=AF_INET, sin_port=htons(8123), sin_addr=inet_addr("127.0.0.1")}, 16) = 0',
        "102 connect(7, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0),"
        ' inet_pton(AF_INET6, "2606:4700::1", &sin6_addr), sin6_scope_id=0}, 28) = -1 ENETUNREACH',
        "102 connect(8, {sa_family=AF_INET6, sin6_port=htons(9000), sin6_flowinfo=htonl(0),"
        ' inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28) = 0',
        '103 sendto(9, "\\x12", 1, MSG_NOSIGNAL, {sa_family=AF_INET, sin_port=htons(53),'
        ' sin_addr=inet_addr("10.0.0.2")}, 16) = 1',
        '103 sendto(9, "abc", 3, 0, NULL, 0) = 3',
    ]
)


def test_outside_addresses_lists_only_non_loopback_inet_endpoints() -> None:
    assert outside_addresses(TRACE) == ["2606:4700::1:443", "10.0.0.2:53"]


def test_sinkhole_refuses_and_records_a_proxied_request() -> None:
    with sinkhole() as hole:
        env = proxy_env(hole)
        assert env["HTTPS_PROXY"] == env["https_proxy"] == hole.url
        assert env["NO_PROXY"] == "127.0.0.1,localhost,::1"
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({"http": hole.url}))
        with pytest.raises(urllib.error.HTTPError) as info:
            opener.open("http://example.invalid/v1/models", timeout=5)
        assert info.value.code == 403
    assert hole.attempts == ["GET http://example.invalid/v1/models HTTP/1.1"]


@pytest.mark.e2e
@pytest.mark.skipif(shutil.which("strace") is None, reason="needs strace")
def test_audit_sees_a_direct_connection_that_ignores_the_proxy(tmp_path: Path) -> None:
    code = (
        "import socket\n"
        "s = socket.socket(); s.settimeout(0.3)\n"
        "try: s.connect(('192.0.2.1', 443))\n"  # TEST-NET-1: never routed, never answered
        "except OSError: pass\n"
    )
    with sinkhole() as hole:
        run = _run("codex", [sys.executable, "-c", code], {}, tmp_path, tmp_path, hole, 30.0, True)
    assert run.returncode == 0, run.describe()
    assert run.reached == ["192.0.2.1:443"]
    assert run.outside == ["192.0.2.1:443"]
    assert run.proxied == []
