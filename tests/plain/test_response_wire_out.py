"""The bytes API's typed writers (``write_wire``, :mod:`toolwire._plain._response_out`) encode
to the JSON of the dict writers, byte for byte, for every shape a plain response takes: each
stop reason, with and without usage, text, calls (text and object arguments), a creation time;
and refuse what the dict writer refuses."""

from __future__ import annotations

import itertools
from typing import Any, get_args

import pytest
from msgspec import Struct

from tests.plain.harness import outcome
from toolwire._json import dumps
from toolwire._plain import _response_out, _response_wire
from toolwire._plain._response_form import PlainResponse
from toolwire._plain._response_lane import RESPONSE_LANES, RESPONSE_WRITERS, TYPED_LANES, WIRE_WRITERS
from toolwire._plain.bedrock_response import write_response_objects
from toolwire.ir.response import StopReason, Usage

_USAGES = (
    None,
    Usage(input_tokens=10, output_tokens=4, cached_tokens=2, reasoning_tokens=1),
    Usage(output_tokens=4, cache_creation_tokens=3),
    Usage(input_tokens=7, total_tokens=20),
    Usage(cached_tokens=1, cache_creation_tokens=2, total_tokens=3),
)
_DEEP: dict[str, Any] = {}
for _ in range(2000):
    _DEEP = {"a": _DEEP}


def _plain(
    stop: StopReason, usage: Usage | None, text: str | None, calls: int, created: int | None
) -> PlainResponse:
    plain = PlainResponse("msg_9", "claude-x", stop, "raw")
    plain.text, plain.usage, plain.created = text, usage, created
    arguments: list[Any] = ['{"b":2}', {"a": 1, "é": [1.5]}]
    plain.calls = [(f"toolu_{i}", f"f{i}", arguments[i % 2]) for i in range(calls)]
    return plain


SHAPES = [
    shape
    for shape in itertools.product(
        get_args(StopReason), _USAGES, (None, "Hi \\u00e9\n"), (0, 1, 3), (None, 1700000000)
    )
    if shape[2] is not None or shape[3]
]


@pytest.mark.parametrize("target", sorted(WIRE_WRITERS))
@pytest.mark.parametrize("shape", SHAPES)
def test_the_typed_writer_writes_the_dict_writer_s_json(target: str, shape: tuple[Any, ...]) -> None:
    plain = _plain(*shape)
    want = RESPONSE_WRITERS[target](plain)
    got = WIRE_WRITERS[target](plain)
    if want is None:
        assert got is None
    else:
        assert dumps(got) == dumps(want)


@pytest.mark.parametrize("target", sorted(WIRE_WRITERS))
@pytest.mark.parametrize("arguments", [_DEEP, "[1]", "{", "", "null", '{"a": 1e400}', {"s": "\ud800"}])
def test_arguments_of_every_kind_go_the_same_way(target: str, arguments: Any) -> None:
    """Arguments a writer refuses, refused both ways; others written (or failing to encode) the same."""
    plain = _plain("tool_calls", None, None, 1, None)
    plain.calls = [("toolu_0", "f", arguments)]
    want = RESPONSE_WRITERS[target](plain)
    got = WIRE_WRITERS[target](plain)
    if want is None:
        assert got is None
    else:
        assert outcome(lambda: dumps(got)) == outcome(lambda: dumps(want))


def test_every_typed_writer_is_the_lanes_for_a_json_body() -> None:
    for (source, target), lane in TYPED_LANES.items():
        # the target's typed writer, else the pair's own dict writer (Gemini into Bedrock: the
        # writer of copied argument objects)
        assert lane[2] is WIRE_WRITERS.get(target, RESPONSE_LANES[(source, target)][1]), (source, target)
    assert TYPED_LANES[("gemini", "bedrock-converse")][2] is write_response_objects
    assert set(WIRE_WRITERS) <= set(RESPONSE_WRITERS)


def test_no_struct_of_a_lane_is_tracked_by_the_garbage_collector() -> None:
    """``gc=False`` on every Struct the lanes decode or write (none holds a cycle)."""
    structs = [
        value
        for module in (_response_out, _response_wire)
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, Struct) and value is not Struct
    ]
    assert len(structs) > 30
    for struct in structs:
        assert struct.__struct_config__.gc is False, struct
