"""Google Application Default Credentials through the real google-auth library, offline: an
``authorized_user`` credentials file (no service account) found by ``google.auth.default()``,
and Google's token endpoint pointed at one on loopback (google-auth always uses its own constant
for that credential type), so the refresh is google-auth's own HTTP exchange, without network."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import google.oauth2.credentials
import httpx
import pytest

from toolwire._google_auth import GoogleCredentials
from toolwire.client import Client
from toolwire.emulator import EmulatorConfig, serve
from toolwire.errors import MissingDependencyError, ToolwireError
from toolwire.gateway import Transport, create_app
from toolwire.hop._config import decode_config

REFRESH = "1//refresh-token-SECRET-abc"
CLIENT_SECRET = "client-secret-SECRET-xyz"
ASK = {"messages": [{"role": "user", "content": "Say hi"}]}


class TokenEndpoint:
    """An OAuth token endpoint (ASGI): answers refresh-token grants, records each form."""

    def __init__(self) -> None:
        self.forms: list[dict[str, list[str]]] = []
        self.expires_in = 3600
        self.fail = False

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        self.forms.append(parse_qs(body.decode()))
        if self.fail:
            status, answer = (
                400,
                {"error": "invalid_grant", "error_description": "Token has been expired or revoked."},
            )
        else:
            token = f"ya29.loopback-{len(self.forms)}"
            status, answer = (
                200,
                {"access_token": token, "expires_in": self.expires_in, "token_type": "Bearer"},
            )
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": json.dumps(answer).encode()})


@pytest.fixture
def endpoint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TokenEndpoint]:
    app = TokenEndpoint()
    with serve(app) as url:
        info = {
            "type": "authorized_user",
            "client_id": "toolwire-test.apps.googleusercontent.com",
            "client_secret": CLIENT_SECRET,
            "refresh_token": REFRESH,
        }
        path = tmp_path / "adc.json"
        path.write_text(json.dumps(info), encoding="utf-8")
        monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", str(path))
        monkeypatch.setattr(google.oauth2.credentials, "_GOOGLE_OAUTH2_TOKEN_ENDPOINT", f"{url}/token")
        monkeypatch.setenv("CLOUDSDK_CONFIG", str(tmp_path / "gcloud"))  # never the user's gcloud
        monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "adc-project")
        yield app


def test_adc_refreshes_through_google_auth_and_caches_the_token(endpoint: TokenEndpoint) -> None:
    creds = GoogleCredentials()
    assert creds.current() is None  # nothing loaded yet, and no I/O to say so
    assert creds.token() == "ya29.loopback-1"
    assert creds.current() == "ya29.loopback-1" and creds.token() == "ya29.loopback-1"
    (form,) = endpoint.forms
    assert form["grant_type"] == ["refresh_token"] and form["refresh_token"] == [REFRESH]
    assert form["client_secret"] == [CLIENT_SECRET]
    assert creds.project == "adc-project"


def test_a_token_close_to_expiry_is_refreshed(endpoint: TokenEndpoint) -> None:
    endpoint.expires_in = 60  # inside the 300 s margin
    creds = GoogleCredentials()
    assert creds.token() == "ya29.loopback-1"
    assert creds.current() is None
    assert creds.token() == "ya29.loopback-2"
    assert len(endpoint.forms) == 2


def test_a_failed_refresh_is_one_typed_line_without_secrets(endpoint: TokenEndpoint) -> None:
    endpoint.fail = True
    with pytest.raises(ToolwireError) as info:
        GoogleCredentials().token()
    text = str(info.value)
    assert text.startswith("could not refresh the Google access token: RefreshError: ")
    assert "\n" not in text and REFRESH not in text and CLIENT_SECRET not in text


def test_missing_credentials_name_the_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", str(tmp_path / "absent.json"))
    with pytest.raises(ToolwireError, match=r"^no Google credentials: DefaultCredentialsError: "):
        GoogleCredentials().token()


def test_without_google_auth_the_error_names_the_vertex_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "google.auth", None)  # as if not installed
    with pytest.raises(MissingDependencyError) as info:
        Client(model="vertex/gemini-2.5-pro", project="p")
    assert str(info.value) == "Vertex AI credentials needs the vertex extra: pip install 'toolwire[vertex]'"
    with pytest.raises(MissingDependencyError, match=r"toolwire\[vertex\]"):
        decode_config({"upstreams": {"v": {"provider": "vertex-gemini", "project": "p"}}}, {})


def test_the_client_calls_vertex_with_an_adc_token(endpoint: TokenEndpoint) -> None:
    with (
        serve(config=EmulatorConfig(api_keys=("ya29.loopback-1",))) as url,
        Client(model="vertex/gemini-2.5-pro", base_url=url, location="us-east5") as client,
    ):
        first = client.create(ASK, format="openai-chat")
        second = client.create(ASK, format="openai-chat")
    assert first.text == second.text != ""
    assert client.core.params == {"project": "adc-project", "location": "us-east5"}
    assert len(endpoint.forms) == 1  # one refresh for both calls


@pytest.mark.parametrize("shell", ["transport", "asgi"])
def test_the_gateway_refreshes_adc_tokens_for_a_vertex_upstream(endpoint: TokenEndpoint, shell: str) -> None:
    with serve(config=EmulatorConfig(api_keys=("ya29.loopback-1",))) as url:
        config = decode_config(
            {"upstreams": {"claude": {"provider": "vertex-anthropic", "base_url": url, "project": "p"}}}, {}
        )
        assert config.upstreams["claude"].key() is None  # not refreshed yet: the shell does it
        body = {"model": "vertex/claude-sonnet-4-5@20250929", **ASK}
        if shell == "transport":
            with httpx.Client(transport=Transport(config)) as http:
                answer = http.post("http://gw/v1/chat/completions", json=body)
        else:
            with serve(create_app(config)) as gateway:
                answer = httpx.post(f"{gateway}/v1/chat/completions", json=body, timeout=10)
    assert answer.status_code == 200, answer.text
    assert answer.json()["model"] == "vertex/claude-sonnet-4-5@20250929"
    assert config.upstreams["claude"].key() == "ya29.loopback-1" and len(endpoint.forms) == 1


def test_a_gateway_whose_refresh_fails_logs_why_and_answers_401(
    endpoint: TokenEndpoint, caplog: pytest.LogCaptureFixture
) -> None:
    endpoint.fail = True
    with serve(config=EmulatorConfig(api_keys=("ya29.loopback-1",))) as url:
        config = decode_config(
            {"upstreams": {"g": {"provider": "vertex-gemini", "base_url": url, "project": "p"}}}, {}
        )
        with serve(create_app(config)) as gateway, caplog.at_level("WARNING", logger="toolwire.gateway"):
            answer = httpx.post(
                f"{gateway}/v1/chat/completions", json={"model": "vertex/gemini-2.5-pro", **ASK}, timeout=10
            )
    assert answer.status_code == 401
    logged = [r.getMessage() for r in caplog.records if r.name == "toolwire.gateway"]
    assert any(
        m.startswith("upstream credentials: could not refresh the Google access token") for m in logged
    )
    assert not any(REFRESH in m or CLIENT_SECRET in m for m in logged)
