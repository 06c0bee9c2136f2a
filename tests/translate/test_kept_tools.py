"""``translate_request_bytes`` Chat -> Responses with the tools kept as JSON text (issue 18).

The second time a body's ``tools`` array is seen it is stored; from then on a body holding the
same bytes there is parsed without it. Every case here is judged against the full parse: the
output bytes, notes and errors must be exactly those of a process that never stored anything.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import msgspec
import orjson
import pytest
from benchmarks._conversation import chat_request

from toolwire import ConversionError, Note, PayloadError, translate_request, translate_request_bytes
from toolwire._kept_schemas import TOOLS, ToolsCache, restore_schemas, split_chat_request

PAIR = {"source": "openai-chat", "target": "openai-responses"}


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    TOOLS.clear()
    yield
    TOOLS.clear()


def _expected(body: bytes, policy: str = "drop") -> bytes:
    """What the full parse writes: the dict API's payload, serialized as the bytes API does."""
    out = translate_request(json.loads(body), policy=policy, **PAIR).payload  # type: ignore[arg-type]
    return msgspec.json.encode(out)


def _three_times(body: bytes, policy: str = "drop") -> list[bytes]:
    """The body translated on first sight, when stored, and from the cache."""
    return [translate_request_bytes(body, policy=policy, **PAIR) for _ in range(3)]  # type: ignore[arg-type]


def _bodies() -> dict[str, bytes]:
    request = chat_request()
    return {
        "compact": orjson.dumps(request),
        "spaced": json.dumps(request, indent=2, ensure_ascii=True).encode(),
        "reordered": orjson.dumps(dict(reversed(list(request.items())))),
    }


@pytest.mark.parametrize("name", sorted(_bodies()))
def test_every_sighting_writes_what_the_full_parse_writes(name: str) -> None:
    body = _bodies()[name]
    assert _three_times(body) == [_expected(body)] * 3
    assert len(TOOLS) == 1


@pytest.mark.parametrize("policy", ["warn", "strict"])
def test_a_request_the_lane_leaves_gets_the_general_paths_answer(policy: str) -> None:
    body = orjson.dumps(chat_request())  # noted on the way to Responses: the general path's
    try:
        expected: Any = _expected(body, policy)
    except ConversionError as exc:
        expected = str(exc)
    for _ in range(3):
        try:
            got: Any = translate_request_bytes(body, policy=policy, **PAIR)  # type: ignore[arg-type]
        except ConversionError as exc:
            got = str(exc)
        assert got == expected
    assert len(TOOLS) == 1


def test_tools_are_stored_the_second_time_they_are_seen() -> None:
    body = orjson.dumps(chat_request())
    translate_request_bytes(body, **PAIR)  # type: ignore[arg-type]
    assert len(TOOLS) == 0
    translate_request_bytes(body, **PAIR)  # type: ignore[arg-type]
    assert len(TOOLS) == 1
    split = split_chat_request(body)
    assert split is not None
    payload, kept = split
    assert len(kept) == len(chat_request()["tools"])
    assert [tool["function"]["parameters"] for tool in payload["tools"]] == [p for p, _ in kept]


def test_a_stored_text_elsewhere_in_the_body_is_not_taken_for_the_tools() -> None:
    request = chat_request()
    tools_text = orjson.dumps(request["tools"])
    body = orjson.dumps(request)
    _three_times(body)  # stored
    # the same bytes first under a nested "tools" key, the real tools a different array
    other = {**request, "tools": request["tools"][:2]}
    hostile = orjson.dumps(other).replace(
        b'{"model"', b'{"metadata":{"tools":' + tools_text + b'},"model"', 1
    )
    assert hostile.index(tools_text) < hostile.rindex(b'"tools"')
    assert _three_times(hostile) == [_expected(hostile)] * 3
    split = split_chat_request(hostile)  # the stored text is cut out, found not to be the tools
    assert split is not None
    payload, kept = split
    assert payload["metadata"] == {"tools": request["tools"]}
    assert [tool["function"]["name"] for tool in payload["tools"]] == [
        t["function"]["name"] for t in other["tools"]
    ]
    assert len(kept) == 2


def test_a_cached_body_with_bad_bytes_elsewhere_fails_as_before() -> None:
    body = orjson.dumps(chat_request())
    _three_times(body)
    bad = body.replace(b"You are", b"\xff\xfe are", 1)
    with pytest.raises(PayloadError) as caught:
        translate_request_bytes(bad, **PAIR)  # type: ignore[arg-type]
    assert caught.value.path == "$"
    assert "not UTF-8" in str(caught.value)


def test_a_schema_with_bad_bytes_is_never_served_from_the_cache() -> None:
    request = chat_request()
    body = orjson.dumps(request)
    _three_times(body)
    schema = orjson.dumps(request["tools"][0]["function"]["parameters"])
    bad = body.replace(schema, schema[:-1] + b',"x":"\xff"}', 1)
    for _ in range(3):
        with pytest.raises(PayloadError, match="not UTF-8"):
            translate_request_bytes(bad, **PAIR)  # type: ignore[arg-type]


def test_notes_and_policies_are_those_of_the_full_parse() -> None:
    request = chat_request()
    request["tools"][0]["function"].pop("strict", None)  # Responses requires strict: noted
    body = orjson.dumps(request)
    full = translate_request(request, policy="warn", **PAIR)  # type: ignore[arg-type]
    for _ in range(3):
        notes: list[Note] = []
        out = translate_request_bytes(body, policy="drop", notes=notes, **PAIR)  # type: ignore[arg-type]
        assert out == msgspec.json.encode(full.payload)
        assert [(n.path, n.kind) for n in notes] == [(n.path, n.kind) for n in full.notes]


def test_a_schema_that_is_not_an_object_passes_as_parsed() -> None:
    request = chat_request()
    body = orjson.dumps(request)
    schema = orjson.dumps(request["tools"][0]["function"]["parameters"])
    for replacement in (b"{}", b'"text"', b"[]", b'{"type":"object","n":1.0,"e":1e2,"s":"\\u00e9\\/"}'):
        TOOLS.clear()
        changed = body.replace(schema, replacement, 1)
        try:
            expected: bytes | type[Exception] = _expected(changed)
        except PayloadError:
            expected = PayloadError
        for _ in range(3):
            if expected is PayloadError:
                with pytest.raises(PayloadError):
                    translate_request_bytes(changed, **PAIR)  # type: ignore[arg-type]
            else:
                assert translate_request_bytes(changed, **PAIR) == expected  # type: ignore[arg-type]


def test_restore_refuses_a_placeholder_missing_or_copied() -> None:
    body = orjson.dumps(chat_request())
    split = split_chat_request(body)
    assert split is None  # first sight: parsed in full by the caller
    split = split_chat_request(body)
    assert split is not None
    _, kept = split
    out = {"tools": [{"parameters": p} for p, _ in kept]}
    assert restore_schemas(out, kept)
    assert [tool["parameters"] for tool in out["tools"]] == [raw for _, raw in kept]
    assert not restore_schemas({"tools": [{"parameters": p} for p, _ in kept[1:]]}, kept)
    first = kept[0][0]
    assert not restore_schemas({"tools": [{"parameters": first}, {"parameters": first}]}, kept[:1])


def test_the_cache_stays_within_its_bounds() -> None:
    cache = ToolsCache(max_entries=3, max_total=10_000)
    texts = [b"[" + b'{"type":"function","n":%d}' % n + b"]" for n in range(5)]
    for text in texts:
        cache.put(text, ({"type": "function"},))
    assert len(cache) == 3
    assert cache.find(texts[0], 0) is None
    assert cache.find(texts[4], 0) is not None
    big = msgspec.Raw(b"{" + b" " * 6000 + b"}")
    for n in range(3):
        cache.put(b"[%d]" % n, ({"function": {"parameters": big}},))
    assert cache.size <= 10_000
    cache.clear()
    assert len(cache) == 0 and cache.size == 0


def test_tools_that_differ_after_the_stored_heads_bytes_are_their_own() -> None:
    request = chat_request()
    body = orjson.dumps(request)
    _three_times(body)
    function = request["tools"][-1]["function"]
    function["description"] = function["description"][:-1] + "?"  # the same length, a byte apart
    changed = orjson.dumps(request)
    assert len(changed) == len(body) and changed != body
    assert _three_times(changed) == [_expected(changed)] * 3
    assert orjson.dumps(function["description"]) in _three_times(changed)[0]


def test_threads_sharing_the_cache_get_their_own_answers() -> None:
    requests = [chat_request()]
    for n in range(1, 4):  # tools that differ only past the stored texts' first bytes
        request = chat_request()
        request["tools"][-1]["function"]["description"] += f" ({n})"
        requests.append(request)
    bodies = [orjson.dumps(request) for request in requests]
    expected = [_expected(body) for body in bodies]
    failures: list[int] = []

    def work(offset: int) -> None:
        for step in range(60):
            which = (offset + step) % len(bodies)
            if translate_request_bytes(bodies[which], policy="drop", **PAIR) != expected[which]:  # type: ignore[arg-type]
                failures.append(which)

    with pytest.MonkeyPatch.context() as patch:  # a cache smaller than the bodies: constant eviction
        patch.setattr(TOOLS, "max_entries", 2)
        threads = [threading.Thread(target=work, args=(n,)) for n in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert failures == []
    assert len(TOOLS) <= 2


def test_what_a_request_is_handed_is_never_the_stored_entry() -> None:
    request = chat_request()
    request["tools"][0]["function"]["parameters"] = {}  # not kept as text: parsed, handed out
    body = orjson.dumps(request)
    for _ in range(2):
        split = split_chat_request(body)
    assert split is not None
    payload, _ = split
    payload["tools"][0]["function"]["parameters"]["type"] = "object"  # a caller that writes to it
    payload["tools"][1]["function"]["name"] = "renamed"
    again = split_chat_request(body)
    assert again is not None
    assert again[0]["tools"][0]["function"]["parameters"] == {}
    assert again[0]["tools"][1]["function"]["name"] == request["tools"][1]["function"]["name"]
