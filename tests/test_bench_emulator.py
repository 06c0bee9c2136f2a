"""The emulator benchmark's harness: recording, the replaying baseline app, the load generator.

Servers run in-process (``toolwire.emulator.serve``) over real loopback HTTP; the benchmark
itself runs them as subprocesses.
"""

from __future__ import annotations

import os
from pathlib import Path

import httpx
import pytest
from benchmarks._http_load import Call, Server, baseline_app, drive, record
from benchmarks.bench_emulator import calls

from toolwire.emulator import serve


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[int]]:
    path = tmp_path_factory.mktemp("bench") / "canned.json"
    with serve() as url:
        counts = record(url, list(calls().values()), path)
    return path, counts


def test_every_benchmark_request_gets_a_real_answer(recorded: tuple[Path, list[int]]) -> None:
    _, counts = recorded
    streamed = dict(zip(calls(), counts, strict=True))
    for (fmt, stream), chunks in streamed.items():
        if stream:
            assert chunks >= 2, fmt  # an SSE stream of several events
        else:
            assert chunks == 1, fmt


def test_baseline_replays_the_recorded_bytes(recorded: tuple[Path, list[int]]) -> None:
    path, _ = recorded
    cases = calls()
    with (
        serve() as emulator_url,
        serve(baseline_app(path)) as baseline_url,
        httpx.Client(base_url=baseline_url) as baseline,
        httpx.Client(base_url=emulator_url) as emulator,
    ):
        for (fmt, stream), call in cases.items():
            replay = baseline.post(call.target, content=call.body)
            assert replay.status_code == 200
            kind = replay.headers["content-type"]
            assert kind.startswith("text/event-stream" if stream else "application/json"), fmt
            fresh = emulator.post(call.target, content=call.body)
            # ids and timestamps differ between answers, the shape does not
            assert len(replay.content) == pytest.approx(len(fresh.content), rel=0.1), fmt


def test_drive_counts_requests_and_server_cpu(recorded: tuple[Path, list[int]]) -> None:
    path, _ = recorded
    call = calls()[("anthropic", True)]
    with serve(baseline_app(path)) as url:
        load = drive(Server(os.getpid(), url), call, concurrency=4, requests=40)
    assert load.requests == 40
    assert load.rate > 0
    if load.server_cpu is not None:  # Linux: this process served the requests itself
        assert load.server_cpu > 0


def test_drive_rejects_an_error_answer(recorded: tuple[Path, list[int]]) -> None:
    path, _ = recorded
    with serve(baseline_app(path)) as url, pytest.raises(RuntimeError, match="404"):
        drive(Server(os.getpid(), url), Call("/v1/unknown", b"{}"), concurrency=2, requests=4)
