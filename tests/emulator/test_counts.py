"""Token counts through the SDKs: ``responses.input_tokens.count``, ``messages.count_tokens``,
genai ``models.count_tokens``; each equals the input tokens a generation of the same request
reports, and grows by one token per four characters (the documented estimate)."""

from __future__ import annotations

from typing import Any

import anthropic
import openai
import pytest

from tests.emulator import test_sdk_gemini as gem
from tests.emulator.tools import anthropic_tools, responses_tools

PAD = "x" * 400  # 400 more characters of text: exactly 100 more tokens


def responses_count(url: str, text: str) -> tuple[int, int]:
    c = openai.OpenAI(base_url=f"{url}/v1", api_key="k", max_retries=0)
    args: dict[str, Any] = {
        "model": "gpt-5",
        "input": text,
        "tools": responses_tools(),
        "instructions": "Be brief.",
    }
    count = c.responses.input_tokens.count(**args)
    assert count.object == "response.input_tokens"
    usage = c.responses.create(**args).usage
    assert usage is not None
    return count.input_tokens, usage.input_tokens


def anthropic_count(url: str, text: str, beta: bool = False) -> tuple[int, int]:
    c = anthropic.Anthropic(base_url=url, api_key="k", max_retries=0)
    args: dict[str, Any] = {
        "model": "claude-sonnet-4-6",
        "system": "Be brief.",
        "messages": [{"role": "user", "content": text}],
        "tools": anthropic_tools(),
    }
    if beta:
        counted = c.beta.messages.count_tokens(**args)
        assert counted.context_management is None
        return counted.input_tokens, c.beta.messages.create(max_tokens=64, **args).usage.input_tokens
    return c.messages.count_tokens(**args).input_tokens, c.messages.create(
        max_tokens=64, **args
    ).usage.input_tokens


def gemini_count(url: str, text: str) -> tuple[int, int]:
    c = gem.client(url)  # held: a collected client closes its connection pool
    contents = [gem.user(text)]
    counted = c.models.count_tokens(model=gem.MODEL, contents=contents)  # type: ignore[arg-type]
    usage = c.models.generate_content(model=gem.MODEL, contents=contents).usage_metadata  # type: ignore[arg-type]
    assert counted.total_tokens is not None and usage is not None and usage.prompt_token_count is not None
    return counted.total_tokens, usage.prompt_token_count


@pytest.mark.parametrize("count", [responses_count, anthropic_count, gemini_count])
def test_count_agrees_with_generation_usage(url: str, count: Any) -> None:
    short, short_usage = count(url, "What is the weather in Paris?")
    long, long_usage = count(url, "What is the weather in Paris?" + PAD)
    assert (short, long) == (short_usage, long_usage)
    assert long - short == 100


def test_anthropic_beta_count(url: str) -> None:
    short, usage = anthropic_count(url, "hi", beta=True)
    assert short == usage and anthropic_count(url, "hi" + PAD, beta=True)[0] == short + 100


def test_gemini_count_body_and_generate_content_request(url: str) -> None:
    import httpx

    contents = [{"role": "user", "parts": [{"text": "hello"}]}]
    path = f"{url}/v1beta/models/{gem.MODEL}:countTokens"
    plain = httpx.post(path, json={"contents": contents}).json()
    wrapped = httpx.post(
        path, json={"generateContentRequest": {"model": f"models/{gem.MODEL}", "contents": contents}}
    )
    n = plain["totalTokens"]
    assert plain == {"totalTokens": n, "promptTokensDetails": [{"modality": "TEXT", "tokenCount": n}]}
    assert wrapped.json() == plain


def test_responses_count_without_model_and_bad_input(url: str) -> None:
    import httpx

    counted = httpx.post(f"{url}/v1/responses/input_tokens", json={"input": "hello"})
    assert counted.status_code == 200 and counted.json()["object"] == "response.input_tokens"
    bad = httpx.post(
        f"{url}/v1/responses/input_tokens",
        json={"input": [{"type": "function_call_output", "call_id": "c", "output": "1"}]},
    )
    assert bad.status_code == 400
    assert bad.json()["error"]["message"] == "No tool call found for function call output with call_id c."
