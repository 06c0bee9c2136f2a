"""The Chat dialect table: one row per OpenAI-compatible provider (base URL, key, differences)."""

from __future__ import annotations

import re

import pytest

from toolwire.errors import ToolwireError
from toolwire.formats.openai_chat.dialects import DIALECTS, Dialect, dialect_for_url, get_dialect

_ENV = re.compile(r"[A-Z][A-Z0-9_]*_API_KEY")


def test_every_row_is_named_by_its_key_and_has_a_client_entry() -> None:
    assert sorted(DIALECTS) == sorted(
        ["openai", "mistral", "deepseek", "openrouter", "groq", "xai", "ollama", "vllm"]
    )
    for name, dialect in DIALECTS.items():
        assert dialect.name == name
        assert dialect.base_url is not None and dialect.base_url.startswith(("https://", "http://localhost"))
        assert not dialect.base_url.endswith("/")
        assert dialect.api_key_env is None or _ENV.fullmatch(dialect.api_key_env), name
        assert dialect.hosts and all(h.endswith("/") for h in dialect.hosts)
        assert dialect.base_url.startswith(dialect.hosts[0].rstrip("/"))


@pytest.mark.parametrize(
    ("name", "base_url", "key"),
    [
        ("mistral", "https://api.mistral.ai/v1", "MISTRAL_API_KEY"),
        ("deepseek", "https://api.deepseek.com", "DEEPSEEK_API_KEY"),
        ("openrouter", "https://openrouter.ai/api/v1", "OPENROUTER_API_KEY"),
        ("groq", "https://api.groq.com/openai/v1", "GROQ_API_KEY"),
        ("xai", "https://api.x.ai/v1", "XAI_API_KEY"),
        ("ollama", "http://localhost:11434/v1", None),
        ("openai", "https://api.openai.com/v1", "OPENAI_API_KEY"),
    ],
)
def test_client_entries(name: str, base_url: str, key: str | None) -> None:
    dialect = get_dialect(name)
    assert (dialect.base_url, dialect.api_key_env) == (base_url, key)
    assert (dialect.auth_header, dialect.auth_scheme) == ("authorization", "Bearer ")


def test_mistral_row_follows_its_spec() -> None:
    mistral = get_dialect("mistral")
    assert mistral.call_ids == "alnum9"
    assert mistral.tool_choice == {"auto", "none", "any", "required"}
    assert mistral.max_tokens == "max_tokens"
    assert not mistral.developer_role
    assert {"safe_prompt", "random_seed", "prompt_mode"} <= mistral.fields
    assert {"max_completion_tokens", "user", "stream_options"} <= mistral.rejects


def test_reasoning_rows() -> None:
    assert get_dialect("deepseek").reasoning == ("reasoning_content",)
    assert get_dialect("deepseek").replay == "tool_loop"
    assert get_dialect("openrouter").reasoning_details
    assert not any(d.reasoning_details for d in DIALECTS.values() if d.name != "openrouter")
    assert get_dialect("openai").reasoning == () and get_dialect("openai").replay == "never"


@pytest.mark.parametrize(
    ("url", "name"),
    [
        ("https://api.mistral.ai/v1/chat/completions", "mistral"),
        ("https://api.deepseek.com/chat/completions", "deepseek"),
        ("https://openrouter.ai/api/v1/chat/completions", "openrouter"),
        ("https://api.groq.com/openai/v1/chat/completions", "groq"),
        ("http://localhost:11434/v1/chat/completions", "ollama"),
        ("https://api.openai.com/v1/chat/completions", "openai"),
    ],
)
def test_dialect_for_url(url: str, name: str) -> None:
    found = dialect_for_url(url)
    assert found is not None and found.name == name


def test_dialect_for_unknown_url_is_none() -> None:
    assert dialect_for_url("https://example.com/v1/chat/completions") is None


def test_get_dialect_defaults_passes_through_and_refuses_unknown_names() -> None:
    assert get_dialect(None) is DIALECTS["openai"]
    custom = Dialect("openai", "Mine", "http://localhost:9/v1", None)
    assert get_dialect(custom) is custom
    with pytest.raises(ToolwireError, match="did you mean 'mistral'"):
        get_dialect("mistrl")
