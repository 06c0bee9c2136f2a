"""Provider profiles and model strings through the client: Vertex AI (Gemini and Claude), Azure
deployments and the dialect providers, built as the services want them and answered over real
loopback HTTP by the emulator (a fake token source stands in for Google's ADC)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import msgspec
import pytest

from tests.client.conftest import KEY, Server
from tests.client.payloads import ir_request
from toolwire.client import AsyncClient, Client
from toolwire.errors import AuthenticationError, ToolwireError
from toolwire.hop._prefixes import MODEL_PREFIXES, ModelPrefix

ASK: dict[str, Any] = {
    "messages": [{"role": "user", "content": "Weather in Paris?"}],
    "tools": [
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
    ],
}


class Tokens:
    """A token source handing out ``KEY`` (the emulator's key) and counting refreshes."""

    def __init__(self, value: str = KEY, *, fresh: bool = True) -> None:
        self.value, self.fresh, self.refreshes = value, fresh, 0

    def token(self) -> str:
        self.refreshes += 1
        self.fresh = True
        return self.value

    def current(self) -> str | None:
        return self.value if self.fresh else None


BUILT = [
    (
        "vertex/gemini-2.5-pro",
        False,
        "https://us-central1-aiplatform.googleapis.com/v1/projects/proj/locations/us-central1"
        "/publishers/google/models/gemini-2.5-pro:generateContent",
    ),
    (
        "vertex/gemini-2.5-pro",
        True,
        "https://us-central1-aiplatform.googleapis.com/v1/projects/proj/locations/us-central1"
        "/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
    ),
    (
        "vertex/claude-sonnet-4-5@20250929",
        False,
        "https://us-central1-aiplatform.googleapis.com/v1/projects/proj/locations/us-central1"
        "/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict",
    ),
    (
        "vertex/claude-sonnet-4-5@20250929",
        True,
        "https://us-central1-aiplatform.googleapis.com/v1/projects/proj/locations/us-central1"
        "/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict",
    ),
    (
        "azure-chat/my-gpt",
        False,
        "https://res.openai.azure.com/openai/deployments/my-gpt/chat/completions?api-version=2024-10-21",
    ),
    ("anthropic/claude-sonnet-4-5", False, "https://api.anthropic.com/v1/messages"),
    ("openai/gpt-5", False, "https://api.openai.com/v1/responses"),
    ("openai-chat/gpt-4o", False, "https://api.openai.com/v1/chat/completions"),
    ("deepseek/deepseek-chat", False, "https://api.deepseek.com/v1/chat/completions"),
    ("mistral/mistral-large-latest", True, "https://api.mistral.ai/v1/chat/completions"),
    ("groq/llama-3.3-70b-versatile", False, "https://api.groq.com/openai/v1/chat/completions"),
    ("openrouter/anthropic/claude-sonnet-4.5", False, "https://openrouter.ai/api/v1/chat/completions"),
]


@pytest.mark.parametrize(("target", "stream", "url"), BUILT)
def test_a_model_string_builds_the_services_request(
    target: str, stream: bool, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AZURE_OPENAI_ENDPOINT", "https://res.openai.azure.com")
    for name in ("GOOGLE_CLOUD_LOCATION", "CLOUD_ML_REGION", "OPENAI_API_VERSION"):
        monkeypatch.delenv(name, raising=False)
    client = (
        Client(target, api_key="token-123", project="proj")
        if "vertex" in target
        else Client(target, api_key="k")
    )
    call = client.core.prepare(ASK, stream=stream, source="openai-chat")
    assert call.http.url == url
    model = target.partition("/")[2]
    body = call.http.body
    if target.startswith("vertex/claude"):  # the model is in the path only; the version in the body
        assert "model" not in body and body["anthropic_version"] == "vertex-2023-10-16"
        assert body["stream"] is stream and "anthropic-version" not in call.http.headers
        assert call.http.format_body is not None and call.http.format_body["model"] == model
    elif target.startswith("vertex/"):
        assert "model" not in body and body["contents"][0]["parts"] == [{"text": "Weather in Paris?"}]
    else:
        assert body["model"] == model
    if target.startswith("mistral/"):  # Mistral's closed schema refuses stream_options
        assert body["stream"] is True and "stream_options" not in body
    headers = client.core.request_headers(call)
    auth = headers.get("authorization") or headers.get("x-api-key") or headers.get("api-key")
    assert auth in ("Bearer token-123", "Bearer k", "k")


def test_vertex_global_location_has_no_host_prefix() -> None:
    client = Client(model="vertex/gemini-2.5-flash", api_key="t", project="p", location="global")
    call = client.core.prepare(ASK, stream=False, source="openai-chat")
    assert call.http.url == (
        "https://aiplatform.googleapis.com/v1/projects/p/locations/global"
        "/publishers/google/models/gemini-2.5-flash:generateContent"
    )


def test_vertex_reads_project_and_location_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "env-proj")
    monkeypatch.setenv("GOOGLE_CLOUD_LOCATION", "europe-west4")
    monkeypatch.setenv("ANTHROPIC_VERTEX_PROJECT_ID", "claude-proj")
    monkeypatch.setenv("CLOUD_ML_REGION", "us-east5")
    gemini = Client(model="vertex/gemini-2.5-pro", api_key="t")
    claude = Client(model="vertex/claude-opus-4-1@20250805", api_key="t")
    assert gemini.core.base_url == "https://europe-west4-aiplatform.googleapis.com"
    assert gemini.core.params == {"project": "env-proj", "location": "europe-west4"}
    assert claude.core.spec.name == "vertex-anthropic"
    assert claude.core.params == {"project": "claude-proj", "location": "us-east5"}
    assert claude.core.base_url == "https://us-east5-aiplatform.googleapis.com"


def test_a_model_string_given_as_the_provider_works_at_run_time() -> None:
    """Typed code passes model strings as ``model=`` (``provider`` is a ``Literal``); untyped code
    that passes one positionally gets the same client."""
    client = Client("anthropic/claude-sonnet-4-5", api_key="k")  # type: ignore[arg-type]
    assert (client.core.spec.name, client.core.model) == ("anthropic", "claude-sonnet-4-5")


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (
            ("vertx/gemini-2.5-pro",),
            {},
            "unknown model prefix 'vertx' (did you mean 'vertex'?); expected one of ",
        ),
        (("antropic/claude",), {}, "unknown model prefix 'antropic' (did you mean 'anthropic'?); "),
        (("anthropic/",), {}, "model string 'anthropic/' names no model after 'anthropic/'"),
        (("anthropic/claude-x",), {"model": "claude-y"}, "'anthropic/claude-x' already names the model"),
        ((), {"model": "claude-x"}, "model 'claude-x' has no provider prefix; expected one of openai/, "),
        ((), {}, "name a provider, or a model string starting with one of openai/, openai-chat/, "),
        (("anthropic/claude-x",), {"project": "p"}, "provider 'anthropic' takes no project"),
        (("openai/gpt-5",), {"credentials": Tokens()}, "provider 'openai-responses' takes an API key, not"),
    ],
)
def test_bad_model_strings_are_one_line_errors(
    args: tuple[str, ...], kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(ToolwireError) as info:
        Client(*args, api_key="k", **kwargs)
    text = str(info.value)
    assert text.startswith(message) and "\n" not in text, text
    if "expected one of" in message:
        assert all(f"{name}" in text for name in MODEL_PREFIXES)


def test_the_bedrock_prefix_is_the_bedrock_provider(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", "AWS_ENDPOINT_URL", "AWS_DEFAULT_REGION"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_REGION", "eu-west-3")
    client = Client(model="bedrock/anthropic.claude-sonnet-4-5-v1:0", api_key="k")
    assert (client.core.spec.name, client.core.format) == ("bedrock", "bedrock-converse")
    assert client.core.model == "anthropic.claude-sonnet-4-5-v1:0"
    assert client.core.base_url == "https://bedrock-runtime.eu-west-3.amazonaws.com"


def test_a_prefix_without_a_provider_is_refused_with_its_reason() -> None:
    row = ModelPrefix("later", None, missing="not part of this version")
    with pytest.raises(
        ToolwireError, match=r"^model prefix 'later' is not available: not part of this version$"
    ):
        row.provider_for("m")


def test_vertex_without_a_project_says_where_to_set_it(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GOOGLE_CLOUD_PROJECT", "ANTHROPIC_VERTEX_PROJECT_ID"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(
        ToolwireError,
        match=r"^provider 'vertex-anthropic' needs a project: pass project= or set "
        r"\$ANTHROPIC_VERTEX_PROJECT_ID or \$GOOGLE_CLOUD_PROJECT$",
    ):
        Client(model="vertex/claude-sonnet-4-5", api_key="t")


# -- over loopback: the emulator answers the services' paths ----------------------------------------


def _client(keyed: Server, target: str, tokens: Tokens | None = None) -> Client:
    if target.startswith("vertex/"):
        return Client(
            target, base_url=keyed.url, project="proj", location="us-east5", credentials=tokens or Tokens()
        )
    if target.startswith("azure/"):
        return Client(model=target, base_url=keyed.url + "/openai", api_key=KEY)
    return Client(model=target, base_url=keyed.url, api_key=KEY)


LOOPBACK = ["vertex/gemini-2.5-pro", "vertex/claude-sonnet-4-5@20250929", "azure-chat/my-gpt", "azure/gpt-5"]
PATHS = {
    "vertex/gemini-2.5-pro": "/v1/projects/proj/locations/us-east5/publishers/google/models/gemini-2.5-pro:",
    "vertex/claude-sonnet-4-5@20250929": "/v1/projects/proj/locations/us-east5/publishers/anthropic/models/"
    "claude-sonnet-4-5@20250929:",
    "azure-chat/my-gpt": "/openai/deployments/my-gpt/chat/completions",
    "azure/gpt-5": "/openai/v1/responses",
}


@pytest.mark.parametrize("target", LOOPBACK)
@pytest.mark.parametrize("stream", [False, True])
def test_profiles_answer_a_tool_call_over_loopback(keyed: Server, target: str, stream: bool) -> None:
    tokens = Tokens(fresh=False)
    with _client(keyed, target, tokens) as client:
        if stream:
            with client.stream(ASK, format="openai-chat") as events:
                response = events.collect()
                raw = events.raw_events
        else:
            result = client.create(ASK, format="openai-chat")
            response, raw = result.response, [result.raw]
    (call,) = response.tool_calls
    assert call.name == "get_weather" and json.loads(call.arguments) == {"city": "Paris"}
    (seen,) = keyed.requests
    assert seen.path.startswith(PATHS[target]), seen.path
    if target.startswith("vertex/"):
        assert seen.headers["authorization"] == f"Bearer {KEY}" and tokens.refreshes == 1
    else:
        assert seen.headers["api-key"] == KEY and "authorization" not in seen.headers
    if target.startswith("vertex/claude"):
        assert seen.path.endswith(":streamRawPredict" if stream else ":rawPredict")
        assert "model" not in seen.body and seen.body["anthropic_version"] == "vertex-2023-10-16"
    if target.startswith("vertex/gemini"):  # Vertex's own fields, on the body and every chunk
        assert seen.query == ("alt=sse" if stream else "")
        assert raw and all(e["usageMetadata"]["trafficType"] == "ON_DEMAND" for e in raw)
        assert all(e["createTime"].endswith("Z") and len(e["createTime"]) == 27 for e in raw)
        assert response.model == "gemini-2.5-pro"
    if target.startswith("azure-chat"):
        assert seen.query == "api-version=2024-10-21"


def test_a_wrong_vertex_token_is_googles_401_without_the_token(keyed: Server) -> None:
    bad = "ya29.wrong-token-0123456789"
    with (
        _client(keyed, "vertex/gemini-2.5-pro", Tokens(bad)) as client,
        pytest.raises(AuthenticationError) as info,
    ):
        client.create(ASK, format="openai-chat")
    assert info.value.status == 401
    assert "Expected OAuth 2 access token" in str(info.value) and bad not in str(info.value)


def test_the_emulator_holds_claude_on_vertex_to_its_body_rules(keyed: Server) -> None:
    url = keyed.url + PATHS["vertex/claude-sonnet-4-5@20250929"] + "rawPredict"
    body = {"max_tokens": 20, "messages": [{"role": "user", "content": "hi"}]}
    auth = {"authorization": f"Bearer {KEY}"}
    missing = httpx.post(url, json=body, headers=auth)
    with_model = httpx.post(
        url, json={**body, "model": "m", "anthropic_version": "vertex-2023-10-16"}, headers=auth
    )
    good = httpx.post(url, json={**body, "anthropic_version": "vertex-2023-10-16"}, headers=auth)
    unauthenticated = httpx.post(url, json=body)
    assert (
        missing.status_code == 400
        and missing.json()["error"]["message"] == "anthropic_version: Field required"
    )
    assert with_model.status_code == 400
    assert with_model.json()["error"]["message"] == "model: Extra inputs are not permitted"
    assert good.status_code == 200 and good.json()["model"] == "claude-sonnet-4-5@20250929"
    assert (
        unauthenticated.status_code == 401 and unauthenticated.json()["error"]["status"] == "UNAUTHENTICATED"
    )


def test_azure_deployment_paths_need_an_api_version(keyed: Server) -> None:
    url = keyed.url + "/openai/deployments/d/chat/completions"
    body = {"model": "d", "messages": [{"role": "user", "content": "hi"}]}
    assert httpx.post(url, json=body, headers={"api-key": KEY}).status_code == 404
    ok = httpx.post(url, params={"api-version": "2024-10-21"}, json=body, headers={"api-key": KEY})
    wrong = httpx.post(url, params={"api-version": "2024-10-21"}, json=body, headers={"api-key": "nope"})
    assert ok.status_code == 200 and ok.json()["object"] == "chat.completion"
    assert wrong.status_code == 401 and "invalid subscription key" in wrong.json()["error"]["message"]


def test_vertex_count_tokens_goes_to_the_services_count_paths(keyed: Server) -> None:
    gemini = keyed.url + PATHS["vertex/gemini-2.5-pro"] + "countTokens"
    claude = (
        keyed.url + "/v1/projects/proj/locations/us-east5/publishers/anthropic/models/count-tokens:rawPredict"
    )
    auth = {"authorization": f"Bearer {KEY}"}
    counted = httpx.post(
        gemini, json={"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}, headers=auth
    )
    generated = httpx.post(
        keyed.url + PATHS["vertex/gemini-2.5-pro"] + "generateContent",
        json={"contents": [{"role": "user", "parts": [{"text": "hi"}]}]},
        headers=auth,
    )
    claude_count = httpx.post(
        claude,
        json={
            "model": "claude-x",
            "anthropic_version": "vertex-2023-10-16",
            "messages": [{"role": "user", "content": "hi"}],
        },
        headers=auth,
    )
    assert counted.json()["totalTokens"] == generated.json()["usageMetadata"]["promptTokenCount"]
    assert claude_count.status_code == 200 and claude_count.json()["input_tokens"] > 0


@pytest.mark.anyio
async def test_the_async_client_refreshes_a_stale_token_off_the_loop(keyed: Server) -> None:
    tokens = Tokens(fresh=False)
    async with AsyncClient(
        model="vertex/claude-sonnet-4-5@20250929",
        base_url=keyed.url,
        project="proj",
        location="us-east5",
        credentials=tokens,
    ) as client:
        first = await client.create(ASK, format="openai-chat")
        second = await client.create(ASK, format="openai-chat")
    assert first.tool_calls[0].name == second.tool_calls[0].name == "get_weather"
    assert tokens.refreshes == 1  # the second call found the token fresh
    assert [r.headers["authorization"] for r in keyed.requests] == [f"Bearer {KEY}"] * 2


def test_an_ir_request_is_encoded_in_the_providers_chat_dialect() -> None:
    """Mistral's dialect row: ``max_tokens`` (its schema has no ``max_completion_tokens``)."""
    request = msgspec.structs.replace(ir_request("m"), max_tokens=50)
    mistral = Client(model="mistral/mistral-large-latest", api_key="k").core.prepare(request, stream=False)
    openai_chat = Client(model="openai-chat/gpt-4o", api_key="k").core.prepare(request, stream=False)
    assert mistral.http.body["max_tokens"] == 50 and "max_completion_tokens" not in mistral.http.body
    assert openai_chat.http.body["max_completion_tokens"] == 50 and "max_tokens" not in openai_chat.http.body


ANTHROPIC_HISTORY: dict[str, Any] = {
    "max_tokens": 100,
    "messages": [
        {"role": "user", "content": "Weather in Paris?"},
        {
            "role": "assistant",
            "content": [
                {
                    "type": "tool_use",
                    "id": "toolu_01AbCdEf",
                    "name": "get_weather",
                    "input": {"city": "Paris"},
                }
            ],
        },
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "toolu_01AbCdEf", "content": "sunny"}],
        },
    ],
}


@pytest.mark.parametrize(
    ("target", "mapped"), [("mistral/mistral-large-latest", True), ("deepseek/deepseek-chat", False)]
)
def test_a_translated_request_is_fitted_to_the_providers_dialect(target: str, mapped: bool) -> None:
    """Mistral takes 9-character alphanumeric call ids only: the translation maps them (and the
    result's id with them); DeepSeek takes any id."""
    body = (
        Client(model=target, api_key="k")
        .core.prepare(ANTHROPIC_HISTORY, stream=False, source="anthropic")
        .http.body
    )
    (call,) = body["messages"][1]["tool_calls"]
    assert body["messages"][2]["tool_call_id"] == call["id"]
    if mapped:
        assert len(call["id"]) == 9 and call["id"].isalnum()
    else:
        assert call["id"] == "toolu_01AbCdEf"
