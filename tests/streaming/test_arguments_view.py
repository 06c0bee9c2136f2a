"""``ArgumentsView`` over every recorded stream with tool calls: the progressive parsed arguments
never raise, always show a prefix of the final value, and end equal to the final arguments."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.corpus import Sample, require_corpus
from tests.streaming._matrix import all_stream_samples, has_client_calls, source
from tests.streaming.test_partial_json import _is_prefix_of
from toolwire.ir.content import ToolCall
from toolwire.ir.stream import PartStart, ToolCallDelta
from toolwire.partial_json import parse_partial
from toolwire.streaming import ArgumentsView

WITH_CALLS = [
    pytest.param(s, id=s.id)
    for s in all_stream_samples()
    if has_client_calls(source(s.id, s.format).response)
]


def _final(arguments: str) -> Any:
    """The parsed final arguments (``""`` is ``{}``); cut-off JSON as far as it goes."""
    try:
        return json.loads(arguments or "{}")
    except ValueError:
        return parse_partial(arguments)


@pytest.mark.parametrize("sample", WITH_CALLS or [pytest.param(None, id="no-corpus")])
def test_progressive_arguments(sample: Sample) -> None:
    """Each tool call's view after every event is a prefix of its final value; then equal to it."""
    require_corpus()
    src = source(sample.id, sample.format)
    finals = {
        i: p for i, p in enumerate(src.response.parts) if isinstance(p, ToolCall) and p.kind != "builtin"
    }
    view = ArgumentsView()
    seen: set[int] = set()
    for event in src.events:
        view.feed(event)
        if isinstance(event, (PartStart, ToolCallDelta)) and event.index in finals:
            seen.add(event.index)
        for index in seen:
            partial = view.parsed(index)
            if partial is not None and finals[index].kind == "function":
                assert _is_prefix_of(partial, _final(finals[index].arguments)), (index, partial)
    assert seen == set(finals)
    for index, call in finals.items():
        assert view.text(index) == call.arguments
        if call.kind == "function":
            assert view.parsed(index) == (_final(call.arguments) if call.arguments else None)
