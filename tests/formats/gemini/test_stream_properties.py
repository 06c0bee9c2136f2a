"""Property: any response, chopped any way (calls interleaved or not), survives encode + decode."""

from __future__ import annotations

import base64
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.formats.gemini._streams import synth_events
from tests.formats.gemini.test_stream_encode import encode, sdk_validate
from toolwire.formats._stream import iter_events
from toolwire.formats.gemini import StreamDecoder, check_stream
from toolwire.ir.accumulate import accumulate
from toolwire.ir.content import Part, ReasoningPart, TextPart, ToolCall
from toolwire.ir.response import Response, Usage

_text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=40)
_json = st.recursive(
    st.none() | st.booleans() | st.integers(-1000, 1000) | _text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_text, inner, max_size=3),
    max_leaves=8,
)
_signature = st.binary(min_size=1, max_size=24).map(lambda b: base64.b64encode(b).decode())
_name = st.from_regex(r"[a-zA-Z_][a-zA-Z0-9_]{0,20}", fullmatch=True)


@st.composite
def _call(draw: st.DrawFn) -> ToolCall:
    args = draw(st.dictionaries(_text, _json, max_size=4))
    return ToolCall(
        name=draw(_name),
        arguments=json.dumps(args, ensure_ascii=draw(st.booleans())),
        id=draw(st.none() | _name),
        thought_signature=draw(st.none() | _signature),
    )


_part: st.SearchStrategy[Part] = st.one_of(
    st.builds(TextPart, text=_text),
    st.builds(ReasoningPart, text=_text, signature=st.none() | _signature, origin=st.just("gemini")),
    _call(),
)


@st.composite
def _response(draw: st.DrawFn) -> Response:
    parts = tuple(draw(st.lists(_part, max_size=6)))
    calls = any(isinstance(p, ToolCall) for p in parts)
    return Response(
        parts=parts,
        id=draw(st.none() | _name),
        model=draw(st.none() | _name),
        stop_reason="tool_calls" if calls else "end_turn",
        raw_stop_reason="STOP",
        usage=Usage(input_tokens=draw(st.integers(0, 99)), output_tokens=draw(st.integers(0, 99))),
        origin="gemini",
    )


def _reasoning(resp: Response) -> tuple[str, list[str]]:
    parts = [p for p in resp.parts if isinstance(p, ReasoningPart)]
    return "".join(p.text or "" for p in parts), [p.signature for p in parts if p.signature]


@settings(max_examples=40, deadline=None)
@given(_response(), st.integers(1, 5), st.booleans())
def test_any_response_round_trips(resp: Response, pieces: int, interleave: bool) -> None:
    chunks: list[Any] = encode(synth_events(resp, pieces=pieces, interleave=interleave))
    assert check_stream(chunks) == []
    for chunk in chunks:
        sdk_validate(chunk, passthrough=False)
    back = accumulate(iter_events(StreamDecoder(), chunks))
    assert back.tool_calls == [
        ToolCall(
            name=c.name,
            arguments=json.dumps(json.loads(c.arguments), separators=(",", ":"), ensure_ascii=False),
            id=c.id,
            thought_signature=c.thought_signature,
        )
        for c in resp.tool_calls
    ]
    assert back.text == resp.text
    assert _reasoning(back) == _reasoning(resp)
    assert (back.id, back.model, back.stop_reason, back.usage) == (
        resp.id,
        resp.model,
        resp.stop_reason,
        resp.usage,
    )
