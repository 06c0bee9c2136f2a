"""The hop's background steps without I/O: ``background: true`` keeps the response queued and
hands its upstream call to the shell as a job (:class:`Detach`) before answering; the job's own
steps keep ``in_progress``, call the upstream, and keep the final record between two reads of
the cancel flag; a cancel thrown into the job settles the response ``cancelled``; a shell that
runs no jobs gets a 400 and the upstream is never called."""

from __future__ import annotations

import json
from typing import Any

from tests.hop.cases import ANTHROPIC_ANSWER
from tests.hop.driving import CLOCK, make_hop
from toolwire.hop import InboundRequest
from toolwire.hop._config import HopConfig, Route
from toolwire.hop.core import Detach, Hop, Received, Reply, Send
from toolwire.store import ResponseRecord
from toolwire.store.background import Cancelled, StoreCall


def _config() -> HopConfig:
    return HopConfig.single(
        "anthropic", "https://up.example", model_map=(Route("*", "upstream", "up-model"),)
    )


def _inbound(**extra: Any) -> InboundRequest:
    body = {"model": "gpt-x", "input": "hi", "background": True, **extra}
    headers = {"content-type": "application/json"}
    return InboundRequest("POST", "/v1/responses", "", headers, json.dumps(body).encode())


class Kept:
    """Store calls answered from dicts: responses by id, opaque state by key."""

    def __init__(self) -> None:
        self.responses: dict[str, ResponseRecord] = {}
        self.state: dict[str, bytes] = {}
        self.calls: list[str] = []

    def __call__(self, step: StoreCall) -> Any:
        self.calls.append(step.method)
        if step.method == "put_response":
            self.responses[step.args[0].id] = step.args[0]
            return None
        if step.method == "get_response":
            return self.responses.get(step.args[0])
        if step.method == "put_state":
            self.state[step.args[0]] = step.args[1]
            return None
        if step.method == "get_state":
            return self.state.get(step.args[0])
        raise AssertionError(step.method)


def _create(kept: Kept) -> tuple[Detach, Reply]:
    hop = Hop(_config(), env={}, clock=lambda: CLOCK, request_id="req_bg", background=True)
    gen = hop.steps(_inbound())
    step = next(gen)
    detached = None
    try:
        while True:
            assert not isinstance(step, Send), "the upstream is called by the job, not the request"
            if isinstance(step, Detach):
                detached = step
                step = gen.send(None)
            else:
                step = gen.send(kept(step))
    except StopIteration as stop:
        assert detached is not None and isinstance(stop.value, Reply)
        return detached, stop.value


def test_the_request_keeps_the_response_queued_and_detaches_its_upstream_call() -> None:
    kept = Kept()
    detached, reply = _create(kept)
    body = json.loads(reply.body)
    assert reply.status == 200 and body["status"] == "queued" and body["background"] is True
    assert body["output"] == [] and body["created_at"] == int(CLOCK) and body["model"] == "gpt-x"
    assert kept.calls == ["put_response"] and kept.responses[body["id"]].status == "queued"
    assert detached.job.response_id == body["id"]


def test_the_job_calls_the_upstream_and_keeps_the_final_record_between_two_flag_reads() -> None:
    kept = Kept()
    detached, reply = _create(kept)
    rid = json.loads(reply.body)["id"]
    job = detached.job.steps
    assert kept(next(job)) is None and kept.responses[rid].status == "in_progress"
    send = job.send(None)
    assert isinstance(send, Send) and send.url == "https://up.example/v1/messages"
    kept.calls.clear()
    step = job.send(Received(200, {}, json.dumps(ANTHROPIC_ANSWER).encode()))
    try:
        while True:
            step = job.send(kept(step))
    except StopIteration:
        pass
    assert kept.calls == ["get_state", "put_response", "get_state"]
    final = kept.responses[rid]
    assert final.status == "completed" and final.response["output"][0]["content"][0]["text"] == "done"
    assert final.response["id"] == rid and final.response["background"] is True


def test_a_cancel_thrown_into_the_job_settles_the_response_cancelled() -> None:
    kept = Kept()
    detached, reply = _create(kept)
    rid = json.loads(reply.body)["id"]
    job = detached.job.steps
    kept(next(job))
    assert isinstance(job.send(None), Send)
    step = job.throw(Cancelled())
    try:
        while True:
            step = job.send(kept(step))
    except StopIteration:
        pass
    assert kept.responses[rid].status == "cancelled"
    assert kept.responses[rid].response["status"] == "cancelled"


def test_a_shell_without_jobs_refuses_background_before_any_step() -> None:
    gen = make_hop(_config()).steps(_inbound())
    try:
        step = next(gen)
    except StopIteration as stop:
        reply = stop.value
    else:
        raise AssertionError(f"a step was asked for: {step!r}")
    assert reply.status == 400 and json.loads(reply.body)["error"]["param"] == "background"


def test_background_without_store_is_refused() -> None:
    hop = make_hop(_config())
    gen = hop.steps(_inbound(store=False))
    try:
        next(gen)
    except StopIteration as stop:
        error = json.loads(stop.value.body)["error"]
    assert error["param"] == "background" and "store" in error["message"]
