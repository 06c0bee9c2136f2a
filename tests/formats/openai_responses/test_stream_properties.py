"""Property tests: any mix of text, tool calls and reasoning, chopped anyhow, survives the
Responses stream encoder and decoder."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.formats.openai_responses._streams import encode, parse_sse, sse_bytes
from tests.formats.openai_responses._synth import synthesize
from toolwire.formats._stream import iter_events
from toolwire.formats.openai_responses.stream import StreamDecoder, check_stream
from toolwire.ir.accumulate import accumulate
from toolwire.ir.content import Part, ReasoningPart, TextPart, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.response import Response

_text = st.text(min_size=0, max_size=30)
_name = st.from_regex(r"[a-z][a-z0-9_]{0,10}", fullmatch=True)
_call = st.builds(
    ToolCall,
    name=_name,
    arguments=_text,
    id=st.one_of(st.none(), st.from_regex(r"id_[a-z0-9]{1,8}", fullmatch=True)),
    kind=st.sampled_from(["function", "custom"]),
)
_reasoning = st.builds(
    ReasoningPart,
    text=st.one_of(st.none(), _text),
    summary=st.lists(_text, max_size=3).map(tuple),
    origin=st.sampled_from(["anthropic", "gemini", "openai-responses"]),
)
_part: st.SearchStrategy[Part] = st.one_of(st.builds(TextPart, text=_text), _call, _reasoning)


@settings(max_examples=60, deadline=None)
@given(
    parts=st.lists(_part, max_size=6),
    origin=st.sampled_from(["openai-chat", "anthropic", "gemini"]),
    whole=st.booleans(),
    interleave=st.booleans(),
)
def test_encoded_stream_is_valid_and_decodes_back(
    parts: list[Part], origin: str, whole: bool, interleave: bool
) -> None:
    resp = Response(parts=tuple(parts), id="resp_x", model="m", origin=origin, stop_reason="end_turn")  # type: ignore[arg-type]
    wire = encode(synthesize(resp, whole=whole, interleave=interleave))
    assert check_stream(wire, stable_ids=True) == []
    decoded = iter_events(StreamDecoder(Notes("drop")), parse_sse([sse_bytes(wire)]))
    back = accumulate(decoded)
    assert back.text == resp.text
    sent = [c for c in resp.tool_calls]
    got = back.tool_calls
    assert [(c.name, c.arguments, c.kind) for c in got] == [(c.name, c.arguments, c.kind) for c in sent]
    assert [c.id for c, s in zip(got, sent, strict=True) if s.id is not None] == [
        s.id for s in sent if s.id is not None
    ]
    explicit = [c.id for c in sent if c.id is not None]
    if len(set(explicit)) == len(explicit):  # then every call keeps a distinct call_id
        assert len({c.id for c in got}) == len(got)
