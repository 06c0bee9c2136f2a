"""Property tests: generated Chat payloads (all spellings, odd extras) round-trip exactly."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from toolwire.errors import ToolwireError
from toolwire.formats import openai_chat as chat
from toolwire.ir import Notes

text = st.text(max_size=8)
name = st.from_regex(r"[a-z_]{1,8}", fullmatch=True)
empty = st.sampled_from([None, [], {}])
scalar = st.one_of(st.booleans(), st.integers(-3, 3), text)
extra_keys = st.sampled_from(["x_extra", "cache_control", "prompt_cache_breakpoint", "index", "weird"])


def with_extras(base: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    extras = st.dictionaries(extra_keys, st.one_of(empty, scalar, st.just({"type": "ephemeral"})), max_size=2)
    return st.builds(lambda b, e: {**e, **b}, base, extras)


text_part = with_extras(st.fixed_dictionaries({"type": st.just("text"), "text": text}))
image_part = with_extras(
    st.fixed_dictionaries(
        {
            "type": st.just("image_url"),
            "image_url": st.fixed_dictionaries(
                {"url": st.sampled_from(["https://x/a.png", "data:image/png;base64,AAAA"])},
                optional={"detail": st.sampled_from(["low", "high", "auto"])},
            ),
        }
    )
)
audio_part = st.fixed_dictionaries(
    {
        "type": st.just("input_audio"),
        "input_audio": st.fixed_dictionaries({"data": text, "format": st.just("mp3")}),
    }
)
file_part = st.fixed_dictionaries(
    {
        "type": st.just("file"),
        "file": st.fixed_dictionaries(
            {},
            optional={
                "file_data": st.sampled_from(
                    ["data:application/pdf;base64,JVBE", "JVBE", "data:text/plain,hi"]
                ),
                "file_id": st.just("file-1"),
                "filename": st.just("a.pdf"),
            },
        ),
    }
)
refusal_part = st.fixed_dictionaries({"type": st.just("refusal"), "refusal": text})
user_content = st.one_of(
    text, st.lists(st.one_of(text_part, image_part, audio_part, file_part), min_size=1, max_size=3)
)
text_content = st.one_of(text, st.lists(text_part, min_size=1, max_size=2))


def message(role: str, content: st.SearchStrategy[Any], **optional: st.SearchStrategy[Any]) -> Any:
    return with_extras(st.fixed_dictionaries({"role": st.just(role), "content": content}, optional=optional))


function_call = st.fixed_dictionaries(
    {"name": name, "arguments": st.sampled_from(["", "{}", '{"a": 1}', "not json"])}
)
tool_call = with_extras(
    st.one_of(
        st.fixed_dictionaries({"id": name, "type": st.just("function"), "function": function_call}),
        st.fixed_dictionaries(
            {
                "id": name,
                "type": st.just("custom"),
                "custom": st.fixed_dictionaries({"name": name, "input": text}),
            }
        ),
    )
)
assistant = with_extras(
    st.fixed_dictionaries(
        {"role": st.just("assistant")},
        optional={
            "content": st.one_of(
                st.none(), text, st.lists(st.one_of(text_part, refusal_part), min_size=1, max_size=2)
            ),
            "refusal": st.one_of(st.none(), text),
            "tool_calls": st.one_of(st.just([]), st.lists(tool_call, min_size=1, max_size=3)),
            "name": name,
            "reasoning_content": text,
            "audio": st.one_of(st.none(), st.just({"id": "audio_1"})),
        },
    )
)
legacy_assistant = st.fixed_dictionaries(
    {"role": st.just("assistant"), "function_call": function_call}, optional={"content": st.none()}
)
messages = st.lists(
    st.one_of(
        message("system", text_content, name=name),
        message("developer", text_content),
        message("user", user_content, name=name),
        assistant,
        legacy_assistant,
        message("tool", text_content).map(lambda m: {**m, "tool_call_id": "c1"}),
        st.fixed_dictionaries(
            {"role": st.just("function"), "name": name, "content": st.one_of(st.none(), text)}
        ),
    ),
    max_size=6,
)
function_tool = with_extras(
    st.fixed_dictionaries(
        {
            "type": st.just("function"),
            "function": with_extras(
                st.fixed_dictionaries(
                    {"name": name},
                    optional={
                        "description": text,
                        "parameters": st.just({"type": "object", "properties": {}}),
                        "strict": st.one_of(st.none(), st.booleans()),
                    },
                )
            ),
        }
    )
)
custom_tool = st.fixed_dictionaries(
    {
        "type": st.just("custom"),
        "custom": st.fixed_dictionaries(
            {"name": name},
            optional={
                "format": st.sampled_from(
                    [{"type": "text"}, {"type": "grammar", "grammar": {"definition": "a", "syntax": "regex"}}]
                )
            },
        ),
    }
)
tool_choice = st.one_of(
    st.sampled_from(["auto", "none", "required"]),
    st.builds(lambda n: {"type": "function", "function": {"name": n}}, name),
    st.builds(lambda n: {"type": "custom", "custom": {"name": n}}, name),
    st.builds(
        lambda names, mode: {
            "type": "allowed_tools",
            "allowed_tools": {
                "mode": mode,
                "tools": [{"type": "function", "function": {"name": n}} for n in names],
            },
        },
        st.lists(name, max_size=2),
        st.sampled_from(["auto", "required"]),
    ),
)
requests = with_extras(
    st.fixed_dictionaries(
        {"messages": messages},
        optional={
            "model": name,
            "tools": st.lists(st.one_of(function_tool, custom_tool), max_size=3),
            "tool_choice": st.one_of(st.none(), tool_choice),
            "parallel_tool_calls": st.one_of(st.none(), st.booleans()),
            "functions": st.lists(
                st.fixed_dictionaries({"name": name}, optional={"description": text}), max_size=2
            ),
            "function_call": st.one_of(
                st.sampled_from(["auto", "none"]), st.builds(lambda n: {"name": n}, name)
            ),
            "max_tokens": st.one_of(st.none(), st.integers(1, 9)),
            "max_completion_tokens": st.integers(1, 9),
            "temperature": st.one_of(st.none(), st.floats(0, 2), st.integers(0, 2)),
            "stop": st.one_of(st.none(), text, st.lists(text, max_size=3)),
            "response_format": st.sampled_from(
                [
                    {"type": "text"},
                    {"type": "json_object"},
                    {"type": "json_schema", "json_schema": {"name": "a", "schema": {}, "strict": None}},
                ]
            ),
            "reasoning_effort": st.sampled_from(["low", "high"]),
            "metadata": st.one_of(st.none(), st.just({}), st.just({"a": "b"})),
            "user": text,
            "stream": st.booleans(),
            "seed": st.integers(),
        },
    )
)


@settings(max_examples=150, deadline=None)
@given(requests)
def test_generated_requests_round_trip(payload: dict[str, Any]) -> None:
    notes = Notes("strict")
    assert chat.encode_request(chat.decode_request(payload, notes), notes) == payload


response_message = with_extras(
    st.fixed_dictionaries(
        {"role": st.just("assistant"), "content": st.one_of(st.none(), text)},
        optional={
            "refusal": st.one_of(st.none(), text),
            "tool_calls": st.lists(tool_call, max_size=2),
            "annotations": st.lists(
                st.just({"type": "url_citation", "url_citation": {"url": "u"}}), max_size=1
            ),
            "function_call": function_call,
        },
    )
)
choice = with_extras(
    st.fixed_dictionaries(
        {
            "index": st.integers(0, 2),
            "message": response_message,
            "finish_reason": st.one_of(
                st.none(),
                st.sampled_from(["stop", "length", "tool_calls", "content_filter", "function_call", "x"]),
            ),
        },
        optional={"logprobs": st.one_of(st.none(), st.just({"content": [], "refusal": None}))},
    )
)
usage = st.fixed_dictionaries(
    {
        "prompt_tokens": st.integers(0, 9),
        "completion_tokens": st.integers(0, 9),
        "total_tokens": st.integers(0, 9),
    },
    optional={
        "prompt_tokens_details": st.fixed_dictionaries(
            {}, optional={"cached_tokens": st.integers(0, 9), "audio_tokens": st.integers(0, 9)}
        ),
        "completion_tokens_details": st.fixed_dictionaries(
            {}, optional={"reasoning_tokens": st.integers(0, 9), "accepted_prediction_tokens": st.just(0)}
        ),
        "cost": st.floats(0, 1),
    },
)
responses = with_extras(
    st.fixed_dictionaries(
        {"choices": st.lists(choice, max_size=3)},
        optional={
            "id": name,
            "object": st.sampled_from(["chat.completion", "other"]),
            "created": st.integers(0, 10),
            "model": name,
            "usage": st.one_of(st.none(), usage),
            "system_fingerprint": st.one_of(st.none(), name),
        },
    )
)


@settings(max_examples=150, deadline=None)
@given(responses)
def test_generated_responses_round_trip(payload: dict[str, Any]) -> None:
    notes = Notes("strict")
    assert chat.encode_response(chat.decode_response(payload, notes), notes) == payload


# ---------------------------------------------------------------- junk never escapes as a non-toolwire error

WORDS = [
    "role",
    "content",
    "type",
    "text",
    "user",
    "assistant",
    "tool",
    "system",
    "function",
    "developer",
    "name",
    "arguments",
    "tool_calls",
    "tool_call_id",
    "id",
    "image_url",
    "url",
    "input_audio",
    "data",
    "format",
    "file",
    "file_data",
    "refusal",
    "custom",
    "input",
    "parameters",
    "allowed_tools",
    "mode",
    "tools",
    "auto",
    "required",
    "json_schema",
    "schema",
    "message",
    "choices",
    "finish_reason",
    "usage",
    "prompt_tokens",
    "error",
    "code",
    "prompt_tokens_details",
    "cached_tokens",
    "function_call",
    "grammar",
    "reasoning_content",
    "strict",
]
words = st.sampled_from(WORDS)
junk = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.floats(allow_nan=False), words),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(words, inner, max_size=4)),
    max_leaves=25,
)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(words, junk, max_size=6), st.sampled_from(["strict", "drop"]))
def test_junk_only_raises_toolwire_errors(payload: dict[str, Any], policy: str) -> None:
    for decode in (chat.decode_request, chat.decode_response):
        notes = Notes(policy)  # type: ignore[arg-type]
        try:
            decode(payload, notes)
        except ToolwireError as exc:
            assert exc.path is not None
    try:
        chat.decode_error(payload, None, Notes(policy))  # type: ignore[arg-type]
    except ToolwireError as exc:
        assert exc.path is not None
