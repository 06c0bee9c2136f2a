"""Multi-turn Responses sessions kept by the gateway in front of stateless upstreams.

A Codex-style session (streamed, ``store: true``, ``previous_response_id``, reasoning on,
function calls and their outputs) and an Agents-SDK-style one (whole answers, a
``previous_response_id`` chain, tools) run through the ASGI app and the Transport to an
Anthropic, a Gemini and a Chat upstream: the emulator with the providers' replay rules, so a
history a real API would refuse (a thinking block without its signature, a tool result without its
call...) fails the turn. Every upstream request is recorded: each carries the whole conversation
so far (the previous request's history, unchanged, is its prefix), and the last one is exactly
what a client replaying the whole history itself (``store: false``) causes.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openai
import pytest

from tests.gateway.shells import ROUTE_MODELS, gateway_config
from tests.gateway.stateful import WEATHER, Recorder, open_gateway
from toolwire.emulator import EmulatorConfig, serve
from toolwire.gateway import HopConfig

UPSTREAMS = ("anthropic", "gemini", "openai-chat")
SHELLS = ("asgi", "transport")
HISTORY_KEY = {"anthropic": "messages", "gemini": "contents", "openai-chat": "messages"}
ASKS = ("What is the weather in Paris?", "And the weather in Rome?")


@pytest.fixture(scope="module")
def strict_config() -> Iterator[HopConfig]:
    """Routes to an emulator that enforces the providers' replay rules."""
    with serve(config=EmulatorConfig(rules="provider"), log_level="critical") as url:
        yield gateway_config(url)


def _turn(client: openai.OpenAI, stream: bool, **args: Any) -> Any:
    if not stream:
        return client.responses.create(**args)
    with client.responses.stream(**args) as events:
        kinds = [event.type for event in events]
        final = events.get_final_response()
    assert kinds[0] == "response.created" and kinds[-1] == "response.completed", kinds
    return final


def _session(client: openai.OpenAI, model: str, *, stream: bool, reasoning: bool) -> list[Any]:
    """Two questions, each answered by a tool call then (after its output) a text: four turns
    chained by ``previous_response_id``, the client sending only what is new."""
    extra: dict[str, Any] = {"reasoning": {"effort": "high"}} if reasoning else {}
    answers: list[Any] = []
    previous: str | None = None
    for ask in ASKS:
        for new_input in ([{"role": "user", "content": ask}], None):
            if new_input is None:
                call = next(item for item in answers[-1].output if item.type == "function_call")
                new_input = [
                    {"type": "function_call_output", "call_id": call.call_id, "output": '{"temp": 21}'}
                ]
            args: dict[str, Any] = {"model": model, "input": new_input, "tools": [WEATHER], "store": True}
            if previous is not None:
                args["previous_response_id"] = previous
            answer = _turn(client, stream, **args, **extra)
            assert answer.status == "completed", answer
            assert answer.previous_response_id == previous
            answers.append(answer)
            previous = answer.id
    return answers


def _replay(client: openai.OpenAI, model: str, answers: list[Any], reasoning: bool) -> None:
    """The last turn sent with the whole history by the client itself, nothing stored."""
    items: list[Any] = []
    for ask, (first, second) in zip(ASKS, (answers[0:2], answers[2:4]), strict=True):
        items.append({"role": "user", "content": ask})
        items += [item.model_dump(exclude_none=True) for item in first.output]
        call = next(item for item in first.output if item.type == "function_call")
        items.append({"type": "function_call_output", "call_id": call.call_id, "output": '{"temp": 21}'})
        if second is not answers[-1]:
            items += [item.model_dump(exclude_none=True) for item in second.output]
    extra: dict[str, Any] = {"reasoning": {"effort": "high"}} if reasoning else {}
    replayed = client.responses.create(model=model, input=items, tools=[WEATHER], store=False, **extra)  # type: ignore[arg-type]
    assert replayed.status == "completed"


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("upstream", UPSTREAMS)
@pytest.mark.parametrize(
    ("style", "stream", "reasoning"), [("codex", True, True), ("agents-sdk", False, False)]
)
def test_a_session_chained_by_previous_response_id_sends_the_whole_history_upstream(
    strict_config: HopConfig,
    tmp_path: Path,
    shell: str,
    upstream: str,
    style: str,
    stream: bool,
    reasoning: bool,
) -> None:
    recorder = Recorder()
    model = ROUTE_MODELS[upstream]
    with open_gateway(shell, strict_config, f"sqlite://{tmp_path / 'state.db'}", recorder) as client:
        answers = _session(client, model, stream=stream, reasoning=reasoning)
        _replay(client, model, answers, reasoning)

    calls = [[item for item in a.output if item.type == "function_call"] for a in answers]
    assert [len(c) for c in calls] == [1, 0, 1, 0]
    assert [json.loads(c[0].arguments)["city"] for c in (calls[0], calls[2])] == ["Paris", "Rome"]
    assert all('{"temp": 21}' in a.output_text for a in (answers[1], answers[3]))
    if reasoning and upstream != "openai-chat":  # Chat has no reasoning items to replay
        # every answer, but a streamed Gemini text answer (its signature comes after the text: dropped)
        expected = [0, 2] if upstream == "gemini" else [0, 1, 2, 3]
        assert [n for n, a in enumerate(answers) if any(i.type == "reasoning" for i in a.output)] == expected
    assert len({a.id for a in answers}) == 4

    sent = recorder.sent
    assert len(sent) == 5, [s.path for s in sent]  # one upstream call per turn, and the replay
    histories = [s.body[HISTORY_KEY[upstream]] for s in sent]
    for before, after in itertools.pairwise(histories[:4]):
        assert len(after) > len(before)
        assert after[: len(before)] == before  # the history so far, unchanged, then the new turn
    # what previous_response_id expanded to is exactly what the client's own replay sends
    # (the replay is a whole answer: the stream options aside)
    streaming = {"stream": None, "stream_options": None}
    assert {**sent[3].body, **streaming} == {**sent[4].body, **streaming}
    texts = json.dumps(histories[3])
    assert all(ask in texts for ask in ASKS) and texts.count("21") >= 1
