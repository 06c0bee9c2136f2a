"""Decoding a gateway config file's content into a :class:`~toolwire.hop._config.HopConfig`
(the file format is in that module's docstring). Every mistake is a
:class:`~toolwire.hop._config.ConfigError` naming its path in the file. No I/O.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from toolwire._choices import unknown_choice
from toolwire.errors import ToolwireError
from toolwire.hop._config import (
    ConfigError,
    GatewayKey,
    HopConfig,
    Limits,
    Route,
    TraceConfig,
    Upstream,
    _format,
)
from toolwire.hop._defaults import EFFORTS
from toolwire.hop._layouts import PARAMS, layout_params
from toolwire.hop._prefixes import MODEL_PREFIXES
from toolwire.hop._providers import PROVIDERS, check_key, resolve_base_url

__all__ = ["decode_config"]


def _table(data: Mapping[str, Any], key: str, path: str) -> Mapping[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        raise ConfigError(f"{path}.{key}: expected a table, got {type(value).__name__}")
    return value


def _typed(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], path: str, default: Any) -> Any:
    value = data.get(key, default)
    if value is default:
        return value
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise ConfigError(f"{path}.{key}: expected {names}, got {type(value).__name__}")
    return value


def _unknown(data: Mapping[str, Any], allowed: tuple[str, ...], path: str) -> None:
    for key in data:
        if key not in allowed:
            raise ConfigError(f"{path}: " + unknown_choice("key", str(key), allowed, allowed))


_AWS_KEYS = ("region", "access_key_env", "secret_key_env", "session_token_env")
"""A Bedrock upstream's SigV4 settings (strings; refused on other formats)."""

_UPSTREAM_KEYS = (
    "format",
    "provider",
    "base_url",
    "key_env",
    "headers",
    "timeout",
    "project",
    "location",
    "api_version",
    *_AWS_KEYS,
)
_PARAM_KEYS = sorted({name for params in PARAMS.values() for name in params})


def _decode_provider(name: str, data: Mapping[str, Any], path: str, env: Mapping[str, str]) -> Upstream:
    """An upstream given as a provider row (``provider = "vertex-gemini"``)."""
    value = _typed(data, "provider", str, path, None)
    prefix = MODEL_PREFIXES.get(value) if value not in PROVIDERS else None
    if prefix is not None:  # ``vertex``: the rows its models go to
        rows = [p for p in (*(p for _, p in prefix.by_model), prefix.provider) if p]
        raise ConfigError(f"{path}.provider: {value!r} is a model prefix; its providers: {', '.join(rows)}")
    if value not in PROVIDERS:
        raise ConfigError(f"{path}.provider: " + unknown_choice("provider", str(value), PROVIDERS, PROVIDERS))
    if "format" in data:
        raise ConfigError(f"{path}: give 'provider' or 'format', not both (the provider has its format)")
    spec = PROVIDERS[value]
    given = {key: _typed(data, key, str, path, None) for key in _PARAM_KEYS}
    try:
        params = layout_params(spec.layout, given, env, source=f"provider {value!r}")
        base_url = resolve_base_url(spec, _typed(data, "base_url", str, path, None), env, params)
    except ToolwireError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    key_env = _typed(data, "key_env", str, path, None)
    if key_env is None and spec.key_env:
        key_env = next((v for v in spec.key_env if env.get(v)), spec.key_env[0])
    tokens = None
    if spec.credentials == "google" and key_env is None:
        from toolwire._google_auth import GoogleCredentials

        tokens = GoogleCredentials()  # MissingDependencyError names the vertex extra
    headers, timeout = _headers_timeout(data, path)
    aws = _aws_settings(data, path, spec.format)
    return Upstream(name, spec.format, base_url, key_env, headers, timeout, value, params, tokens, **aws)


def _headers_timeout(data: Mapping[str, Any], path: str) -> tuple[dict[str, str], float]:
    headers = _table(data, "headers", path)
    for key, value in headers.items():
        if not isinstance(value, str):
            raise ConfigError(f"{path}.headers.{key}: expected a string")
    timeout = _typed(data, "timeout", (int, float), path, 600.0)
    if timeout <= 0:
        raise ConfigError(f"{path}.timeout: must be positive")
    return dict(headers), float(timeout)


def _decode_upstream(name: str, data: Any, path: str, env: Mapping[str, str]) -> Upstream:
    if not isinstance(data, Mapping):
        raise ConfigError(f"{path}: expected a table, got {type(data).__name__}")
    _unknown(data, _UPSTREAM_KEYS, path)
    if "provider" in data:
        return _decode_provider(name, data, path, env)
    for key in _PARAM_KEYS:
        if key in data:
            raise ConfigError(f"{path}.{key}: only a 'provider' upstream takes it")
    if "format" not in data or "base_url" not in data:
        raise ConfigError(f"{path}: an upstream needs 'format' and 'base_url' (or 'provider')")
    headers, timeout = _headers_timeout(data, path)
    fmt = _format(data["format"], f"{path}.format")
    return Upstream(
        name,
        fmt,
        _typed(data, "base_url", str, path, ""),
        _typed(data, "key_env", str, path, None),
        headers,
        timeout,
        **_aws_settings(data, path, fmt),
    )


def _aws_settings(data: Mapping[str, Any], path: str, fmt: str) -> dict[str, Any]:
    found = {key: _typed(data, key, str, path, None) for key in _AWS_KEYS}
    given = [key for key, value in found.items() if value is not None]
    if given and fmt != "bedrock-converse":
        raise ConfigError(f"{path}.{given[0]}: only a Bedrock upstream signs with SigV4")
    return found


_ROUTE_KEYS = ("match", "upstream", "model", "max_tokens", "reasoning")


def _decode_route(data: Any, path: str, upstreams: Mapping[str, Upstream], *, default: bool) -> Route:
    if not isinstance(data, Mapping):
        raise ConfigError(f"{path}: expected a table, got {type(data).__name__}")
    _unknown(data, _ROUTE_KEYS, path)
    match = "*" if default else _typed(data, "match", str, path, None)
    if match is None:
        raise ConfigError(f"{path}: a route needs 'match' (a model name or glob)")
    upstream = _typed(data, "upstream", str, path, None)
    if upstream is None and len(upstreams) == 1:
        upstream = next(iter(upstreams))
    if upstream not in upstreams:
        names = tuple(upstreams)
        raise ConfigError(f"{path}.upstream: " + unknown_choice("upstream", str(upstream), names, names))
    max_tokens = _typed(data, "max_tokens", int, path, None)
    if max_tokens is not None and max_tokens < 1:
        raise ConfigError(f"{path}.max_tokens: must be at least 1")
    reasoning = _typed(data, "reasoning", str, path, None)
    if reasoning is not None and reasoning not in EFFORTS:
        raise ConfigError(f"{path}.reasoning: " + unknown_choice("effort", reasoning, EFFORTS, EFFORTS))
    return Route(match, upstream, _typed(data, "model", str, path, None), max_tokens, reasoning)


def _decode_key(data: Any, path: str, env: Mapping[str, str]) -> GatewayKey:
    if not isinstance(data, Mapping):
        raise ConfigError(f"{path}: expected a table, got {type(data).__name__}")
    _unknown(data, ("key_env", "models"), path)
    name = _typed(data, "key_env", str, path, None)
    if name is None:
        raise ConfigError(f"{path}: a gateway key needs 'key_env' (the variable holding it)")
    key = check_key(env.get(name), f"the gateway key in ${name}")
    if key is None:
        raise ConfigError(f"{path}.key_env: ${name} is not set")
    models = _typed(data, "models", list, path, [])
    if not all(isinstance(m, str) for m in models):
        raise ConfigError(f"{path}.models: expected a list of model names or globs")
    return GatewayKey(key, tuple(models))


_LIMIT_KEYS = ("max_body_bytes", "max_concurrency", "queue_timeout", "stream_idle_timeout", "state_ttl")


def _decode_limits(data: Mapping[str, Any], path: str) -> Limits:
    _unknown(data, _LIMIT_KEYS, path)
    values: dict[str, Any] = {}
    for key in _LIMIT_KEYS:
        value = _typed(data, key, (int, float), path, None)
        if value is not None:
            if value <= 0:
                raise ConfigError(f"{path}.{key}: must be positive")
            values[key] = int(value) if key.startswith("max_") else float(value)
    return Limits(**values)


_TRACE_KEYS = ("enabled", "max_body_bytes", "max_age", "max_count", "queue")


def _decode_trace(data: Mapping[str, Any], path: str) -> TraceConfig:
    _unknown(data, _TRACE_KEYS, path)
    values: dict[str, Any] = {"enabled": _typed(data, "enabled", bool, path, False)}
    for key in _TRACE_KEYS[1:]:
        value = _typed(data, key, (int, float) if key == "max_age" else int, path, None)
        if value is not None and (value < 0 or (value == 0 and key in ("max_body_bytes", "queue"))):
            raise ConfigError(f"{path}.{key}: must be positive")
        if value is not None:
            values[key] = (None if value == 0 else float(value)) if key == "max_age" else value or None
    return TraceConfig(**values)


_TOP_KEYS = ("upstreams", "routes", "default", "keys", "limits", "policy", "store", "trace")


def decode_config(data: Any, env: Mapping[str, str] | None = None) -> HopConfig:
    """A :class:`HopConfig` from a config file's content (see the module docstring).

    Args:
        data: the decoded TOML or YAML document.
        env: where ``key_env`` variables of gateway keys, and a provider upstream's address and
            parameters (``$AZURE_OPENAI_ENDPOINT``, ``$GOOGLE_CLOUD_PROJECT``...), are read
            (default: the environment).

    Raises:
        ConfigError: the first mistake, with its path (``routes[1].upstream``).
    """
    if not isinstance(data, Mapping):
        raise ConfigError(f"$: expected a table, got {type(data).__name__}")
    _unknown(data, _TOP_KEYS, "$")
    environ = os.environ if env is None else env
    upstreams = {
        str(name): _decode_upstream(str(name), value, f"upstreams.{name}", environ)
        for name, value in _table(data, "upstreams", "$").items()
    }
    if not upstreams:
        raise ConfigError("upstreams: the config names no upstream")
    routes_data = _typed(data, "routes", list, "$", [])
    routes = tuple(
        _decode_route(item, f"routes[{i}]", upstreams, default=False) for i, item in enumerate(routes_data)
    )
    default = None
    if "default" in data:
        default = _decode_route(_table(data, "default", "$"), "default", upstreams, default=True)
    elif len(upstreams) == 1:
        default = Route("*", next(iter(upstreams)))
    keys_data = _typed(data, "keys", list, "$", [])
    keys = tuple(_decode_key(item, f"keys[{i}]", environ) for i, item in enumerate(keys_data))
    policy = _typed(data, "policy", str, "$", "warn")
    if policy not in ("warn", "strict", "drop"):
        raise ConfigError("policy: " + unknown_choice("policy", policy, ("warn", "strict", "drop"), ()))
    return HopConfig(
        upstreams,
        routes,
        default,
        keys,
        _decode_limits(_table(data, "limits", "$"), "limits"),
        policy,
        _typed(data, "store", str, "$", None),
        _decode_trace(_table(data, "trace", "$"), "trace"),
    )
