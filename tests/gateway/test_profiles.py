"""Provider upstreams in the gateway config (Vertex AI, Azure deployments, dialect providers),
routing by model-string prefix, and the whole hop over real loopback HTTP: the official OpenAI
and Anthropic SDKs -> the gateway (ASGI app and ``toolwire serve``) -> the emulator answering on
the services' own paths."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anthropic
import httpx
import openai
import pytest
from google import genai
from google.genai import types

from tests.gateway.test_serve_cli import _free_port, _wait_healthy
from toolwire.emulator import EmulatorConfig, serve
from toolwire.gateway import ConfigError, HopConfig, Route, create_app
from toolwire.hop._config import decode_config

TOKEN = "vertex-token-SECRET-0123456789"
AZURE = "azure-key-SECRET-0123456789"
ENV = {"VERTEX_TOKEN": TOKEN, "AZURE_KEY": AZURE, "DEEPSEEK_API_KEY": AZURE}
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
    }
]
ASK = [{"role": "user", "content": "What is the weather in Paris?"}]


def _upstreams(url: str) -> dict[str, Any]:
    return {
        "vg": {"provider": "vertex-gemini", "base_url": url, "project": "proj", "key_env": "VERTEX_TOKEN"},
        "va": {
            "provider": "vertex-anthropic",
            "base_url": url,
            "project": "proj",
            "location": "europe-west1",
            "key_env": "VERTEX_TOKEN",
        },
        "az": {"provider": "azure-openai-chat", "base_url": url, "key_env": "AZURE_KEY"},
        "ds": {"provider": "deepseek", "base_url": url + "/v1"},
    }


@pytest.fixture(scope="module")
def emulator() -> Iterator[str]:
    with serve(config=EmulatorConfig(api_keys=(TOKEN, AZURE))) as url:
        yield url


@pytest.fixture(scope="module")
def gateway(emulator: str) -> Iterator[str]:
    config = decode_config({"upstreams": _upstreams(emulator)}, ENV)
    with serve(create_app(config, env=ENV)) as url:
        yield url


# -- the config ----------------------------------------------------------------------------------


def test_provider_upstreams_decode_with_their_rows_and_parameters(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_VERSION", raising=False)
    config = decode_config({"upstreams": _upstreams("http://up")}, ENV)
    vg, va, az, ds = (config.upstreams[n] for n in ("vg", "va", "az", "ds"))
    assert (vg.format, vg.provider, dict(vg.params)) == (
        "gemini",
        "vertex-gemini",
        {"project": "proj", "location": "us-central1"},
    )
    assert (va.format, dict(va.params)) == ("anthropic", {"project": "proj", "location": "europe-west1"})
    assert (az.format, dict(az.params), az.key(ENV)) == ("openai-chat", {"api_version": "2024-10-21"}, AZURE)
    assert (ds.format, ds.key_env, ds.key(ENV), ds.spec.dialect) == (
        "openai-chat",
        "DEEPSEEK_API_KEY",
        AZURE,
        "deepseek",
    )
    assert vg.key(ENV) == TOKEN and vg.tokens is None  # a token in key_env: no ADC
    defaults = decode_config(
        {"upstreams": {"v": {"provider": "vertex-gemini", "project": "p", "key_env": "T"}}}, {}
    )
    assert defaults.upstreams["v"].base_url == "https://us-central1-aiplatform.googleapis.com"


BAD = [
    (
        {"v": {"provider": "vertx-gemini"}},
        "upstreams.v.provider: unknown provider 'vertx-gemini' (did you mean",
    ),
    (
        {"v": {"provider": "vertex"}},
        "upstreams.v.provider: 'vertex' is a model prefix; its providers: vertex-anthropic, vertex-gemini",
    ),
    (
        {"v": {"provider": "vertex-gemini", "key_env": "T"}},
        "upstreams.v: provider 'vertex-gemini' needs a project",
    ),
    (
        {"v": {"provider": "vertex-gemini", "format": "gemini", "project": "p"}},
        "upstreams.v: give 'provider' or 'format', not both",
    ),
    (
        {"v": {"format": "gemini", "base_url": "x", "project": "p"}},
        "upstreams.v.project: only a 'provider' upstream",
    ),
    ({"v": {"provider": "anthropic", "project": "p"}}, "upstreams.v: provider 'anthropic' takes no project"),
    (
        {"v": {"provider": "azure-openai-chat"}},
        "upstreams.v: provider 'azure-openai-chat' has no default address",
    ),
    ({"v": {"provider": "anthropic", "regoin": "x"}}, "upstreams.v: unknown key 'regoin'"),
    ({"v": {"provider": 3}}, "upstreams.v.provider: expected str, got int"),
]


@pytest.mark.parametrize(("upstreams", "words"), BAD)
def test_bad_provider_upstreams_name_their_path(upstreams: dict[str, Any], words: str) -> None:
    with pytest.raises(ConfigError) as info:
        decode_config({"upstreams": upstreams}, {})
    assert str(info.value).startswith(words) and "\n" not in str(info.value), str(info.value)


def test_models_route_by_prefix_to_the_upstream_of_the_prefixs_provider() -> None:
    config = decode_config(
        {
            "upstreams": {
                "claude": {"format": "anthropic", "base_url": "http://a"},
                **_upstreams("http://up"),
            },
            "routes": [{"match": "vertex/gemini-1*", "upstream": "claude", "model": "claude-x"}],
        },
        ENV,
    )
    assert config.route("vertex/gemini-2.5-pro") == Route("vertex/*", "vg", "gemini-2.5-pro")
    assert config.route("vertex/claude-opus-4-1@20250805") == Route(
        "vertex/*", "va", "claude-opus-4-1@20250805"
    )
    assert config.route("azure-chat/dep") == Route("azure-chat/*", "az", "dep")
    assert config.route("deepseek/deepseek-reasoner") == Route("deepseek/*", "ds", "deepseek-reasoner")
    assert config.route("anthropic/claude-sonnet-4-5") == Route("anthropic/*", "claude", "claude-sonnet-4-5")
    assert config.route("vertex/gemini-1.5-pro") == Route(
        "vertex/gemini-1*", "claude", "claude-x"
    )  # routes first
    assert config.route("mistral/mistral-large") is None  # no Mistral upstream, no default
    assert config.route("gpt-5") is None
    with pytest.raises(Exception, match=r"^unknown model prefix 'vertx' \(did you mean 'vertex'\?\)"):
        config.route("vertx/gemini")
    with_default = HopConfig(config.upstreams, default=Route("*", "claude"))
    assert with_default.route("vertx/gemini") == Route("*", "claude")  # a default takes any model


# -- over loopback ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "model",
    [
        "vertex/gemini-2.5-pro",
        "vertex/claude-sonnet-4-5@20250929",
        "azure-chat/my-gpt",
        "deepseek/deepseek-chat",
    ],
)
@pytest.mark.parametrize("stream", [False, True])
def test_the_openai_sdk_reaches_each_provider_through_the_gateway(
    gateway: str, model: str, stream: bool
) -> None:
    client = openai.OpenAI(base_url=f"{gateway}/v1", api_key="unused", max_retries=0)
    if stream:
        chunks = list(client.chat.completions.create(model=model, messages=ASK, tools=TOOLS, stream=True))  # type: ignore[arg-type]
        calls = [c for chunk in chunks if chunk.choices for c in chunk.choices[0].delta.tool_calls or []]
        name, arguments = calls[0].function.name, "".join(c.function.arguments or "" for c in calls)  # type: ignore[union-attr]
        assert {chunk.model for chunk in chunks} == {model}
    else:
        answer = client.chat.completions.create(model=model, messages=ASK, tools=TOOLS)  # type: ignore[arg-type]
        call = answer.choices[0].message.tool_calls[0]  # type: ignore[index]
        name, arguments = call.function.name, call.function.arguments  # type: ignore[union-attr]
        assert answer.model == model
    assert name == "get_weather" and json.loads(arguments) == {"city": "Paris"}


@pytest.mark.parametrize("model", ["vertex/claude-sonnet-4-5@20250929", "vertex/gemini-2.5-pro"])
def test_the_anthropic_sdk_counts_tokens_on_vertex(gateway: str, model: str) -> None:
    client = anthropic.Anthropic(base_url=gateway, api_key="unused", max_retries=0)
    counted = client.messages.count_tokens(model=model, messages=[{"role": "user", "content": "hello there"}])
    made = client.messages.create(
        model=model, max_tokens=50, messages=[{"role": "user", "content": "hello there"}]
    )
    assert counted.input_tokens == made.usage.input_tokens > 0
    assert made.model == model


def test_an_unknown_prefix_without_a_default_is_a_404_naming_the_prefixes(gateway: str) -> None:
    client = openai.OpenAI(base_url=f"{gateway}/v1", api_key="unused", max_retries=0)
    with pytest.raises(openai.NotFoundError) as info:
        client.chat.completions.create(model="vertx/gemini-2.5-pro", messages=ASK)
    message = info.value.body["message"]  # type: ignore[index]
    assert message.startswith(
        "unknown model prefix 'vertx' (did you mean 'vertex'?); expected one of openai, "
    )


def test_toolwire_serve_reads_provider_upstreams_from_its_config(emulator: str, tmp_path: Path) -> None:
    config = tmp_path / "gw.toml"
    config.write_text(
        "[upstreams.vertex]\n"
        'provider = "vertex-anthropic"\n'
        f'base_url = "{emulator}"\n'
        'project = "proj"\n'
        'location = "us-east5"\n'
        'key_env = "VERTEX_TOKEN"\n',
        encoding="utf-8",
    )
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, **ENV, "PYTHONUNBUFFERED": "1"}
    argv = [sys.executable, "-m", "toolwire", "serve", "--config", str(config), "--port", str(port)]
    proc = subprocess.Popen(
        [*argv, "--log-level", "warning"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    try:
        _wait_healthy(url, proc)
        answer = httpx.post(
            f"{url}/v1/chat/completions",
            json={"model": "vertex/claude-haiku-4-5@20251001", "messages": ASK, "tools": TOOLS},
            timeout=10,
        )
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            _, err_bytes = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err_bytes = proc.communicate()
    assert answer.status_code == 200, answer.text
    assert answer.json()["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "get_weather"
    err = err_bytes.decode()
    assert TOKEN not in err  # the token is never logged
    line = next(json.loads(x) for x in err.splitlines() if x.startswith("{") and "/v1/chat" in x)
    assert (line["upstream"], line["upstream_format"], line["status"]) == ("vertex", "anthropic", 200)


@pytest.mark.parametrize("model", ["vertex/gemini-2.5-pro", "vertex/claude-sonnet-4-5@20250929"])
@pytest.mark.parametrize("stream", [False, True])
def test_the_gemini_sdk_uses_model_strings_in_its_url(gateway: str, model: str, stream: bool) -> None:
    """google-genai writes ``models/{model}``: the slash of the prefix stays in the path."""
    options = types.HttpOptions(base_url=gateway, retry_options=types.HttpRetryOptions(attempts=1))
    client = genai.Client(api_key="unused", http_options=options)
    config = types.GenerateContentConfig(
        tools=[
            types.Tool(
                function_declarations=[
                    types.FunctionDeclaration(
                        name="get_weather", parameters_json_schema=TOOLS[0]["function"]["parameters"]
                    )
                ]
            )
        ],
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
    )
    if stream:
        chunks = list(
            client.models.generate_content_stream(model=model, contents="Weather in Paris?", config=config)
        )
        calls = [c for chunk in chunks for c in chunk.function_calls or []]
        versions = {chunk.model_version for chunk in chunks}
    else:
        reply = client.models.generate_content(model=model, contents="Weather in Paris?", config=config)
        calls, versions = reply.function_calls or [], {reply.model_version}
    (call,) = calls
    assert call.name == "get_weather" and call.args == {"city": "Paris"}
    assert versions == {model}
