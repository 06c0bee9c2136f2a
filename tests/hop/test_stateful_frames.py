"""The Responses facade's stream side: which SSE frames get a finished response object and a
store call, whatever the framing (``event:`` with or without its space, frames split anyhow)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from toolwire.hop._stateful import ResponsesFacade, StoreCall


def _facade(**request: Any) -> ResponsesFacade:
    body = {"model": "m", "input": "hi", **request}
    return ResponsesFacade(body, make_record=lambda response, _request, _previous: ("kept", response["id"]))


def _frame(event: str, data: Any, space: str = " ") -> bytes:
    return f"event:{space}{event}\ndata: {json.dumps(data)}".encode()


def _response(status: str) -> dict[str, Any]:
    return {"type": f"response.{status}", "response": {"id": "up_1", "status": status, "output": []}}


def _data(frame: bytes) -> Any:
    line = next(ln for ln in frame.split(b"\n") if ln.startswith(b"data:"))
    return json.loads(line[5:])


def test_the_final_frame_is_finished_and_saved_once() -> None:
    facade = _facade(temperature=0.5)
    created, calls = facade.frames(_frame("response.created", _response("in_progress")))
    assert calls == []
    first = _data(created)["response"]
    assert first["id"].startswith("resp_") and first["temperature"] == 0.5 and first["store"] is True
    done, calls = facade.frames(_frame("response.completed", _response("completed")))
    final = _data(done)["response"]
    assert final["id"] == first["id"]  # one upstream id, one client id across the stream
    assert calls == [StoreCall("put_response", (("kept", final["id"]),))]
    assert facade.saved
    _, again = facade.frames(_frame("response.completed", _response("completed")))
    assert again == []


def test_an_event_line_without_its_space_is_still_a_lifecycle_event() -> None:
    facade = _facade()
    text = _frame("response.output_text.delta", {"delta": "x"}) + b"\n\n"
    chunk = text + _frame("response.completed", _response("completed"), space="")
    out, calls = facade.frames(chunk)
    assert len(calls) == 1
    frames = out.split(b"\n\n")
    assert frames[0] == text[:-2]  # other events pass unchanged
    assert _data(frames[1])["response"]["id"].startswith("resp_")
    alone, calls = _facade().frames(_frame("response.completed", _response("completed"), space=""))
    assert len(calls) == 1 and _data(alone)["response"]["id"].startswith("resp_")


def test_frames_without_a_response_object_pass_unchanged() -> None:
    facade = _facade()
    for frame in (
        _frame("response.completed", {"type": "response.completed"}),  # no response object
        _frame("response.completed", {"type": "response.completed", "response": "x"}),
        b"event: response.completed\ndata: {not json",
        b"event: response.completed",  # no data line
        _frame("response.output_text.delta", {"delta": "response.completed"}),
    ):
        assert facade.frames(frame) == (frame, [])
    assert not facade.saved


def test_store_false_finishes_but_does_not_save() -> None:
    facade = _facade(store=False)
    out, calls = facade.frames(_frame("response.completed", _response("completed")))
    assert calls == []
    assert _data(out)["response"]["store"] is False


@pytest.mark.parametrize("status", ["completed", "incomplete", "failed"])
def test_every_final_event_saves_the_response(status: str) -> None:
    facade = _facade()
    out, calls = facade.frames(_frame(f"response.{status}", _response(status)))
    final = _data(out)["response"]
    assert final["status"] == status
    assert calls == [StoreCall("put_response", (("kept", final["id"]),))]


def test_a_data_line_without_its_space_is_still_read() -> None:
    chunk = b"event:response.completed\ndata:" + json.dumps(_response("completed")).encode()
    out, calls = _facade(temperature=0.5).frames(chunk)
    final = _data(out)["response"]
    assert final["temperature"] == 0.5 and len(calls) == 1


def test_the_client_id_is_resp_and_40_hex_digits_the_same_for_the_same_upstream_id() -> None:
    ids = []
    for upstream_id in ("up_1", "up_1", "up_2"):
        facade = _facade()
        response = {"type": "response.completed", "response": {"id": upstream_id, "status": "completed"}}
        out, _ = facade.frames(_frame("response.completed", response))
        ids.append(_data(out)["response"]["id"])
    assert all(re.fullmatch(r"resp_[0-9a-f]{40}", ident) for ident in ids)
    assert ids[0] == ids[1] != ids[2]
