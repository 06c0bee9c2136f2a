"""Three-turn tool loops through stateless hops (one Exchange per turn), for every ordered pair of
formats, answered whole, streamed, and streamed as bytes (see :mod:`tests.translate.hop_loop`)."""

from __future__ import annotations

import itertools
import re

import pytest

from tests.translate.hop_loop import PATCH, run_loop
from toolwire.ir import FORMATS
from toolwire.translate import format_module


def has_stream_codec(fmt: str) -> bool:
    """Whether the format has a stream codec (Bedrock's ConverseStream comes separately)."""
    return hasattr(format_module(fmt), "StreamDecoder")


_PAIRS = list(itertools.permutations(FORMATS, 2))
_MODES = {"whole": {}, "stream": {"streamed": True}, "frames": {"streamed": True, "frames": True}}


@pytest.mark.parametrize("mode", list(_MODES))
@pytest.mark.parametrize(("client", "upstream"), _PAIRS, ids=[f"{a}->{b}" for a, b in _PAIRS])
def test_three_turn_loop(client: str, upstream: str, mode: str) -> None:
    if mode != "whole" and not (has_stream_codec(client) and has_stream_codec(upstream)):
        pytest.skip("no ConverseStream codec yet (Bedrock streams: wt/bedrockwire)")
    got = run_loop(client, upstream, **_MODES[mode])  # the upstream checks every request it gets
    calls = got.calls
    assert len(calls) == 4  # two parallel calls in each of two turns, then a final answer
    ids = [c.id for c in calls]
    assert all(ids) and len(set(ids)) == len(ids), ids  # unique across the conversation
    if client == "anthropic":
        assert all(re.fullmatch(r"[a-zA-Z0-9_-]+", i or "") for i in ids)
    if client == "gemini":  # a Gemini client gets ids too, and echoes them (paired by id and position)
        assert all(i for i in ids)
    patches = [c for c in calls if c.name == "apply_patch"]
    assert patches, "the upstream called the patch tool"
    if client in ("openai-responses", "openai-chat"):  # custom stays custom
        assert {(c.kind, c.arguments) for c in patches} == {("custom", PATCH)}
    reads = [c for c in calls if c.name == "read"]
    if client == "openai-responses":  # namespaced stays namespaced, with the right namespace
        assert reads and {c.namespace for c in reads} <= {"mcp__alpha", "mcp__beta"}
        assert {c.name for c in calls} == {"apply_patch", "read"}
    else:
        assert all(c.namespace is None for c in calls)
