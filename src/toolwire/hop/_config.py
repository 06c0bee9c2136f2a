"""The gateway's routing config as data: upstreams, model routes, gateway keys, limits (no I/O).

A config is a mapping (a TOML or YAML file's content, see :func:`decode_config`) checked once
into frozen rows; every mistake is a :class:`ConfigError` naming its path in the file::

    [upstreams.claude]
    format = "anthropic"
    base_url = "https://api.anthropic.com"      # as the provider's official SDK takes it
    key_env = "ANTHROPIC_API_KEY"               # the key is read from this variable, never stored
    headers = { "anthropic-beta" = "..." }      # optional extra headers
    timeout = 600                               # seconds (connect, read)

    [upstreams.bedrock]                         # SigV4 when there is no key_env (a Bedrock API key)
    format = "bedrock"
    base_url = "https://bedrock-runtime.us-east-1.amazonaws.com"
    region = "us-east-1"                        # default: $AWS_REGION, $AWS_DEFAULT_REGION, us-east-1
    access_key_env = "BEDROCK_ACCESS_KEY_ID"    # these three default to the standard AWS chain
    secret_key_env = "BEDROCK_SECRET_ACCESS_KEY"
    session_token_env = "BEDROCK_SESSION_TOKEN"

    [[routes]]
    match = "gpt-*"                             # an exact model name or a glob (fnmatch)
    upstream = "claude"
    model = "claude-sonnet-4-5"                 # the model sent upstream (default: the client's)
    max_tokens = 8192                           # used when the client sets no output limit
    reasoning = "medium"                        # effort used when the client sets none

    [default]                                   # the route of models no route matches
    upstream = "claude"

    [[keys]]                                    # gateway keys; none: the gateway is open
    key_env = "TOOLWIRE_KEY_CI"
    models = ["gpt-*"]                          # models this key may use (default: all)

    [limits]
    max_body_bytes = 33554432
    max_concurrency = 256
    stream_idle_timeout = 300
    state_ttl = 86400

    [trace]                                     # keep a trace of each call (``serve --trace``)
    enabled = true
    max_body_bytes = 262144                     # each payload (and each stream side) is cut here
    max_age = 604800                            # seconds a trace is kept (0: no age bound)
    max_count = 10000                           # traces kept, the newest (0: no count bound)

Routes are tried in file order; the first whose ``match`` fits the client's model wins.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from toolwire._choices import unknown_choice
from toolwire.errors import ToolwireError
from toolwire.hop._defaults import EFFORTS
from toolwire.hop._providers import check_key
from toolwire.ir.base import FORMAT_ALIASES, FORMATS, Format

__all__ = [
    "FORMAT_PROVIDER",
    "ConfigError",
    "GatewayKey",
    "HopConfig",
    "Limits",
    "Route",
    "TraceConfig",
    "Upstream",
    "decode_config",
    "parse_model_map",
]

FORMAT_PROVIDER: dict[str, str] = {
    "openai-chat": "openai-chat",
    "openai-responses": "openai-responses",
    "anthropic": "anthropic",
    "gemini": "gemini",
    "bedrock-converse": "bedrock",  # Bearer with key_env, else SigV4 (toolwire.hop._aws)
}
"""An upstream's wire format -> the provider row (auth header, version prefix) it is reached with."""


class ConfigError(ToolwireError):
    """The gateway config is not valid (the message names the path in the file)."""


@dataclass(frozen=True, slots=True)
class Upstream:
    """One provider the gateway calls.

    Attributes:
        name: the config's name for it.
        format: the wire format it speaks.
        base_url: its base URL as the provider's official SDK takes it (``.../v1`` for OpenAI).
        key_env: the environment variable holding its key (``None``: no key is sent).
        headers: extra headers sent with every call.
        timeout: connect and read timeout, seconds.
        region: a SigV4 upstream's region (``None``: the standard variables').
        access_key_env: the variable holding a SigV4 upstream's access key id (``None``, and the
            next two too: the standard AWS chain).
        secret_key_env: the variable holding its secret access key.
        session_token_env: the variable holding its session token (temporary credentials).
    """

    name: str
    format: Format
    base_url: str
    key_env: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    timeout: float = 600.0
    region: str | None = None
    access_key_env: str | None = None
    secret_key_env: str | None = None
    session_token_env: str | None = None

    def key(self, env: Mapping[str, str] | None = None) -> str | None:
        """The upstream key from :attr:`key_env` (``None`` when unset or empty)."""
        if self.key_env is None:
            return None
        value = (os.environ if env is None else env).get(self.key_env)
        return check_key(value, f"the key in ${self.key_env}")


@dataclass(frozen=True, slots=True)
class Route:
    """Where requests for some models go.

    Attributes:
        match: an exact model name or a glob; ``"*"`` for the default route.
        upstream: the name of the upstream.
        model: the model sent upstream (``None``: the client's).
        max_tokens: the output limit used when the client sets none.
        reasoning: the reasoning effort used when the client sets none (``none``, ``minimal``,
            ``low``, ``medium``, ``high``; see :mod:`toolwire.hop._defaults`).
    """

    match: str
    upstream: str
    model: str | None = None
    max_tokens: int | None = None
    reasoning: str | None = None

    def fits(self, model: str) -> bool:
        """Whether ``model`` is this route's (exact name, or the glob)."""
        return model == self.match or fnmatch.fnmatchcase(model, self.match)


@dataclass(frozen=True, slots=True)
class GatewayKey:
    """A key clients present to the gateway, and the models it may use (globs; empty: all)."""

    key: str
    models: tuple[str, ...] = ()

    def allows(self, model: str | None) -> bool:
        """Whether this key may use ``model``."""
        if not self.models or model is None:
            return True
        return any(model == m or fnmatch.fnmatchcase(model, m) for m in self.models)


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds of the gateway.

    Attributes:
        max_body_bytes: largest request body accepted (413 above).
        max_concurrency: requests handled at once (the rest wait for a slot, then 503 after
            ``queue_timeout``).
        queue_timeout: seconds a request may wait for a slot.
        stream_idle_timeout: seconds a stream may go without an upstream byte before it is
            ended with the client's error event.
        state_ttl: seconds the store keeps a Chat client's opaque reasoning state (see
            :mod:`toolwire.hop._opaque`).
    """

    max_body_bytes: int = 32 * 1024 * 1024
    max_concurrency: int = 256
    queue_timeout: float = 30.0
    stream_idle_timeout: float = 300.0
    state_ttl: float = 86400.0


@dataclass(frozen=True, slots=True)
class TraceConfig:
    """Whether and how the gateway keeps traces of its calls (see :mod:`toolwire.trace`).

    Attributes:
        enabled: keep a trace of each call.
        max_body_bytes: each payload (and each stream side's events) is cut at this size.
        max_age: seconds a trace is kept (``None``: no age bound).
        max_count: the most traces kept, the newest (``None``: no count bound).
        queue: traces waiting to be written; past it new ones are dropped (and counted).
    """

    enabled: bool = False
    max_body_bytes: int = 256 * 1024
    max_age: float | None = 7 * 24 * 3600.0
    max_count: int | None = 10_000
    queue: int = 1000


@dataclass(frozen=True, slots=True)
class HopConfig:
    """The whole routing config.

    Attributes:
        upstreams: upstreams by name.
        routes: model routes, tried in order.
        default: the route of models no route matches (``None``: those get a 404).
        keys: gateway keys (empty: no gateway auth).
        limits: the gateway's bounds.
        policy: the conversion policy (``warn``, ``strict`` or ``drop``).
        store: the store URL for stateful Responses and traces (``None``: the shell's default).
        trace: whether and how calls are traced.
    """

    upstreams: Mapping[str, Upstream]
    routes: tuple[Route, ...] = ()
    default: Route | None = None
    keys: tuple[GatewayKey, ...] = ()
    limits: Limits = field(default_factory=Limits)
    policy: str = "warn"
    store: str | None = None
    trace: TraceConfig = field(default_factory=TraceConfig)

    def route(self, model: str | None) -> Route | None:
        """The route of ``model``: the first that fits, else the default."""
        if model is not None:
            for route in self.routes:
                if route.fits(model):
                    return route
        return self.default

    def upstream(self, route: Route) -> Upstream:
        """The upstream a route names (checked when the config was built)."""
        return self.upstreams[route.upstream]

    def models(self) -> list[str]:
        """The model names the routes advertise (globs left out), in config order."""
        names = [r.match for r in self.routes if not _is_glob(r.match)]
        return list(dict.fromkeys(names))

    @classmethod
    def single(
        cls,
        fmt: str,
        base_url: str,
        *,
        key_env: str | None = None,
        model_map: tuple[Route, ...] = (),
        **kwargs: Any,
    ) -> HopConfig:
        """A config with one upstream (named ``upstream``) that every model goes to.

        Args:
            fmt: the upstream's wire format.
            base_url: its base URL as the provider's SDK takes it.
            key_env: the variable holding its key.
            model_map: routes with model rewrites (see :func:`parse_model_map`).
            kwargs: other :class:`HopConfig` fields.
        """
        upstream = Upstream("upstream", _format(fmt, "upstream-format"), base_url, key_env)
        return cls(
            upstreams={"upstream": upstream},
            routes=model_map,
            default=Route("*", "upstream"),
            **kwargs,
        )


def _is_glob(text: str) -> bool:
    return any(c in text for c in "*?[")


def _format(value: Any, path: str) -> Format:
    name = FORMAT_ALIASES.get(value, value) if isinstance(value, str) else value
    if name not in FORMAT_PROVIDER:
        choices = (*FORMATS, *FORMAT_ALIASES)
        raise ConfigError(f"{path}: " + unknown_choice("format", str(value), choices, FORMATS))
    return name  # type: ignore[return-value]


def parse_model_map(text: str, upstream: str = "upstream") -> Route:
    """A ``--model-map`` value, ``PATTERN=MODEL`` (``gpt-*=claude-sonnet-4-5``), as a route.

    Raises:
        ConfigError: no ``=``, or an empty side.
    """
    pattern, sep, model = text.partition("=")
    if not sep or not pattern.strip() or not model.strip():
        raise ConfigError(f"--model-map {text!r}: expected PATTERN=MODEL, e.g. 'gpt-*=claude-sonnet-4-5'")
    return Route(pattern.strip(), upstream, model.strip())


# -- decoding a config file's content -----------------------------------------------------------


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
_UPSTREAM_KEYS = ("format", "base_url", "key_env", "headers", "timeout", *_AWS_KEYS)


def _decode_upstream(name: str, data: Any, path: str) -> Upstream:
    if not isinstance(data, Mapping):
        raise ConfigError(f"{path}: expected a table, got {type(data).__name__}")
    _unknown(data, _UPSTREAM_KEYS, path)
    if "format" not in data or "base_url" not in data:
        raise ConfigError(f"{path}: an upstream needs 'format' and 'base_url'")
    headers = _table(data, "headers", path)
    for key, value in headers.items():
        if not isinstance(value, str):
            raise ConfigError(f"{path}.headers.{key}: expected a string")
    timeout = _typed(data, "timeout", (int, float), path, 600.0)
    if timeout <= 0:
        raise ConfigError(f"{path}.timeout: must be positive")
    return Upstream(
        name,
        _format(data["format"], f"{path}.format"),
        _typed(data, "base_url", str, path, ""),
        _typed(data, "key_env", str, path, None),
        dict(headers),
        float(timeout),
        **_aws_settings(data, path),
    )


def _aws_settings(data: Mapping[str, Any], path: str) -> dict[str, str | None]:
    found = {key: _typed(data, key, str, path, None) for key in _AWS_KEYS}
    given = [key for key, value in found.items() if value is not None]
    if given and FORMAT_ALIASES.get(data["format"], data["format"]) != "bedrock-converse":
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
        env: where ``key_env`` variables of gateway keys are read (default: the environment).

    Raises:
        ConfigError: the first mistake, with its path (``routes[1].upstream``).
    """
    if not isinstance(data, Mapping):
        raise ConfigError(f"$: expected a table, got {type(data).__name__}")
    _unknown(data, _TOP_KEYS, "$")
    upstreams = {
        str(name): _decode_upstream(str(name), value, f"upstreams.{name}")
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
    environ = os.environ if env is None else env
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
