"""The routing config: a TOML or YAML file -> :class:`HopConfig`; each mistake a
:class:`ConfigError` naming the file and the path in it, on one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolwire.gateway import ConfigError, GatewayKey, HopConfig, Limits, Route, Upstream, load_config
from toolwire.hop._config import decode_config, parse_model_map

ENV = {"GW_KEY_A": " key-a \n", "GW_KEY_B": "key-b"}

TOML = """
policy = "strict"

[upstreams.claude]
format = "anthropic"
base_url = "https://api.anthropic.com"
key_env = "ANTHROPIC_API_KEY"
headers = { "anthropic-beta" = "x-1" }
timeout = 60

[upstreams.oai]
format = "chat"
base_url = "https://api.openai.com/v1"

[[routes]]
match = "gpt-*"
upstream = "claude"
model = "claude-sonnet-4-5"
max_tokens = 8192

[[routes]]
match = "o3"
upstream = "oai"

[default]
upstream = "oai"
model = "gpt-5"

[[keys]]
key_env = "GW_KEY_A"

[[keys]]
key_env = "GW_KEY_B"
models = ["gpt-*"]

[limits]
max_body_bytes = 1000
stream_idle_timeout = 5
state_ttl = 600
"""

YAML = """
policy: strict
upstreams:
  claude:
    format: anthropic
    base_url: https://api.anthropic.com
    key_env: ANTHROPIC_API_KEY
    headers: {anthropic-beta: x-1}
    timeout: 60
  oai: {format: chat, base_url: "https://api.openai.com/v1"}
routes:
  - {match: "gpt-*", upstream: claude, model: claude-sonnet-4-5, max_tokens: 8192}
  - {match: o3, upstream: oai}
default: {upstream: oai, model: gpt-5}
keys:
  - key_env: GW_KEY_A
  - {key_env: GW_KEY_B, models: ["gpt-*"]}
limits: {max_body_bytes: 1000, stream_idle_timeout: 5, state_ttl: 600}
"""

EXPECTED = HopConfig(
    upstreams={
        "claude": Upstream(
            "claude",
            "anthropic",
            "https://api.anthropic.com",
            "ANTHROPIC_API_KEY",
            {"anthropic-beta": "x-1"},
            60.0,
        ),
        "oai": Upstream("oai", "openai-chat", "https://api.openai.com/v1"),
    },
    routes=(Route("gpt-*", "claude", "claude-sonnet-4-5", 8192), Route("o3", "oai")),
    default=Route("*", "oai", "gpt-5"),
    keys=(GatewayKey("key-a"), GatewayKey("key-b", ("gpt-*",))),
    limits=Limits(max_body_bytes=1000, stream_idle_timeout=5.0, state_ttl=600.0),
    policy="strict",
)


@pytest.mark.parametrize(("name", "text"), [("gw.toml", TOML), ("gw.yaml", YAML), ("gw.yml", YAML)])
def test_a_config_file_is_read_in_toml_and_yaml(tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    config = load_config(path, env=ENV)
    assert config == EXPECTED
    assert config.route("gpt-4o") == EXPECTED.routes[0]
    assert config.route("o3") == EXPECTED.routes[1]
    assert config.route("anything") == EXPECTED.default
    assert config.models() == ["o3"]


def test_one_upstream_is_the_default_route_and_the_route_upstream() -> None:
    config = decode_config(
        {"upstreams": {"u": {"format": "gemini", "base_url": "https://g"}}, "routes": [{"match": "x"}]}
    )
    assert config.routes == (Route("x", "u"),) and config.default == Route("*", "u")


BASE = {"upstreams": {"u": {"format": "anthropic", "base_url": "https://a"}}}

ERRORS = [
    # (config, the message's start)
    ([], "$: expected a table, got list"),
    ({"upstream": {}}, "$: unknown key 'upstream'"),
    ({}, "upstreams: the config names no upstream"),
    ({"upstreams": []}, "$.upstreams: expected a table, got list"),
    ({"upstreams": {"u": "x"}}, "upstreams.u: expected a table, got str"),
    ({"upstreams": {"u": {"format": "anthropic"}}}, "upstreams.u: an upstream needs 'format' and 'base_url'"),
    (
        {"upstreams": {"u": {"format": "cohere", "base_url": "x"}}},
        "upstreams.u.format: unknown format 'cohere'",
    ),
    (
        {"upstreams": {"u": {"format": "gemini", "base_url": 3}}},
        "upstreams.u.base_url: expected str, got int",
    ),
    (
        {"upstreams": {"u": {"format": "gemini", "base_url": "x", "timeout": 0}}},
        "upstreams.u.timeout: must be positive",
    ),
    (
        {"upstreams": {"u": {"format": "gemini", "base_url": "x", "timeout": True}}},
        "upstreams.u.timeout: expected int or float, got bool",
    ),
    (
        {"upstreams": {"u": {"format": "gemini", "base_url": "x", "headers": {"a": 1}}}},
        "upstreams.u.headers.a: expected a string",
    ),
    (
        {"upstreams": {"u": {"format": "gemini", "base_url": "x", "keyenv": "K"}}},
        "upstreams.u: unknown key 'keyenv'",
    ),
    ({**BASE, "routes": {"match": "x"}}, "$.routes: expected list, got dict"),
    ({**BASE, "routes": [{"match": "x"}, {"upstream": "u"}]}, "routes[1]: a route needs 'match'"),
    ({**BASE, "routes": [{"match": "x", "upstream": "v"}]}, "routes[0].upstream: unknown upstream 'v'"),
    ({**BASE, "routes": [{"match": "x", "max_tokens": 0}]}, "routes[0].max_tokens: must be at least 1"),
    ({**BASE, "routes": [{"match": "x", "max_tokens": "9"}]}, "routes[0].max_tokens: expected int, got str"),
    ({**BASE, "routes": [{"match": "x", "modle": "y"}]}, "routes[0]: unknown key 'modle'"),
    ({**BASE, "default": {"upstream": "nope"}}, "default.upstream: unknown upstream 'nope'"),
    ({**BASE, "keys": [{"models": ["a"]}]}, "keys[0]: a gateway key needs 'key_env'"),
    ({**BASE, "keys": [{"key_env": "UNSET_VAR"}]}, "keys[0].key_env: $UNSET_VAR is not set"),
    (
        {**BASE, "keys": [{"key_env": "GW_KEY_B", "models": "gpt-*"}]},
        "keys[0].models: expected list, got str",
    ),
    (
        {**BASE, "keys": [{"key_env": "GW_KEY_B", "models": [1]}]},
        "keys[0].models: expected a list of model names",
    ),
    ({**BASE, "limits": {"max_body_bytes": -1}}, "limits.max_body_bytes: must be positive"),
    ({**BASE, "limits": {"max_streams": 3}}, "limits: unknown key 'max_streams'"),
    ({**BASE, "policy": "lenient"}, "policy: unknown policy 'lenient'"),
]


@pytest.mark.parametrize(("data", "start"), ERRORS, ids=[e[1].split(":")[0] for e in ERRORS])
def test_each_mistake_names_its_path(data: object, start: str) -> None:
    with pytest.raises(ConfigError) as info:
        decode_config(data, env=ENV)
    message = str(info.value)
    assert message.startswith(start), message
    assert "\n" not in message


def test_a_key_with_a_control_character_is_refused_without_showing_it() -> None:
    with pytest.raises(Exception) as info:
        decode_config({**BASE, "keys": [{"key_env": "K"}]}, env={"K": "sec\x01ret"})
    assert "index 3" in str(info.value) and "sec" not in str(info.value)


FILE_ERRORS = [
    ("gw.toml", "[upstreams.u]\nformat = ", "not valid TOML"),
    ("gw.yaml", "upstreams: [unclosed", "not valid YAML"),
    ("gw.toml", '[upstreams.u]\nformat = "x"\nbase_url = "y"\n', "upstreams.u.format: unknown format 'x'"),
    (
        "gw.yaml",
        "routes: 3\nupstreams: {u: {format: gemini, base_url: y}}\n",
        "$.routes: expected list, got int",
    ),
]


@pytest.mark.parametrize(("name", "text", "words"), FILE_ERRORS)
def test_a_bad_file_is_one_line_naming_the_file_and_the_path(
    tmp_path: Path, name: str, text: str, words: str
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path, env=ENV)
    message = str(info.value)
    assert message.startswith(f"{path}: ") and words in message, message
    assert "\n" not in message


def test_a_missing_or_binary_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read the config"):
        load_config(tmp_path / "none.toml")
    (tmp_path / "bin.toml").write_bytes(b"\xff\xfe")
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_config(tmp_path / "bin.toml")


@pytest.mark.parametrize(
    ("text", "route"),
    [
        ("gpt-*=claude-sonnet-4-5", Route("gpt-*", "upstream", "claude-sonnet-4-5")),
        (" a = b ", Route("a", "upstream", "b")),
    ],
)
def test_a_model_map(text: str, route: Route) -> None:
    assert parse_model_map(text) == route


@pytest.mark.parametrize("text", ["gpt-*", "=x", "x=", "  =  "])
def test_a_bad_model_map(text: str) -> None:
    with pytest.raises(ConfigError, match="expected PATTERN=MODEL"):
        parse_model_map(text)
