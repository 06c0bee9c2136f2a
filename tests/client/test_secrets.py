"""No API key appears in any log line or exception message."""

from __future__ import annotations

import logging

import pytest

from tests.client.conftest import KEY, Server, Sleeps
from tests.client.payloads import MODELS, PROVIDER_FORMATS, native
from toolwire.client import TRACE, Client, RetryPolicy
from toolwire.errors import ProviderError, ToolwireError


@pytest.mark.parametrize("provider", PROVIDER_FORMATS)
def test_key_never_logged_or_raised(
    keyed: Server, provider: str, caplog: pytest.LogCaptureFixture, sleeps: Sleeps
) -> None:
    messages: list[str] = []
    with caplog.at_level(TRACE, logger="toolwire"):
        keyed.recorder.schedule("503")
        with Client(
            provider, base_url=keyed.url, api_key=KEY, model=MODELS[provider], sleep=sleeps
        ) as client:
            client.create(native(provider))
        # the emulator echoes part of a wrong key; a key that equals our secret must not leak
        wrong = KEY[::-1]
        client = Client(provider, base_url=keyed.url, api_key=wrong, model=MODELS[provider], sleep=sleeps)
        with client, pytest.raises(ProviderError) as info:
            client.create(native(provider))
        messages.append(str(info.value))
        messages.append(repr(info.value.body))
        keyed.recorder.schedule("429", "429", "429")
        client = Client(
            provider,
            base_url=keyed.url,
            api_key=KEY,
            model=MODELS[provider],
            sleep=sleeps,
            retry=RetryPolicy(max_attempts=2),
        )
        with client, pytest.raises(ToolwireError) as info2:
            client.create(native(provider))
        messages.append(str(info2.value))
    logged = [record.getMessage() for record in caplog.records]
    assert any(record.levelno == TRACE for record in caplog.records)  # the request bodies were logged
    assert any("[REDACTED]" in line for line in logged)
    for text in (*logged, *messages):
        assert KEY not in text
        assert KEY[::-1] not in text


def test_transport_error_hides_key(caplog: pytest.LogCaptureFixture, sleeps: Sleeps) -> None:
    client = Client(
        "openai-chat",
        base_url="http://127.0.0.1:9",
        api_key=KEY,
        sleep=sleeps,
        retry=RetryPolicy(max_attempts=1),
    )
    with caplog.at_level(logging.DEBUG, logger="toolwire"), client, pytest.raises(ToolwireError) as info:
        client.create(native("openai-chat"))
    assert KEY not in str(info.value)
    assert all(KEY not in record.getMessage() for record in caplog.records)
