"""Issue 13, item 2 (in part): notes about a value made up for the target name where it went.

A no-loss note about a value the source does not hold (a required ``max_tokens``, a response's
``created`` time) points at the source as a whole (``$``) and names the target path in
``target``; over the whole corpus every ``target`` is a path the output holds.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.corpus import require_corpus, samples
from toolwire._jsonpath import locate
from toolwire.errors import ConversionError
from toolwire.translate import translate_response

from .test_strict_is_loss import _translate
from .test_valid_or_refused import PAIRS


@pytest.mark.parametrize(("kind", "source", "target"), PAIRS)
def test_target_paths_are_in_the_output(kind: str, source: str, target: str) -> None:
    require_corpus()
    for sample in samples(source, kind):
        try:
            result = _translate(sample, target, "drop")
        except ConversionError:
            continue
        for note in result.notes:
            if note.target is not None:
                assert locate(result.payload, note.target)[2], (sample.id, note)
                assert locate(sample.payload, note.path)[2], (sample.id, note)


def test_chat_requests_to_anthropic_name_the_made_up_max_tokens() -> None:
    require_corpus()
    for sample in samples("openai-chat", "request"):
        if sample.payload.get("max_tokens") is None and sample.payload.get("max_completion_tokens") is None:
            try:
                notes = _translate(sample, "anthropic", "drop").notes
            except ConversionError:
                continue
            assert [n.path for n in notes if n.target == "$.max_tokens"] == ["$"], sample.id


def test_made_up_response_metadata_points_at_the_target() -> None:
    anthropic: dict[str, Any] = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude",
        "content": [{"type": "text", "text": "hi"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    notes = translate_response(anthropic, source="anthropic", target="openai-chat").notes
    assert [(n.path, n.kind, n.target, n.loss) for n in notes] == [("$", "synthesized", "$.created", False)]
