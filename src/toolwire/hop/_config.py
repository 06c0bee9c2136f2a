"""The gateway's routing config as data: upstreams, model routes, gateway keys, limits (no I/O).

A config is a mapping (a TOML or YAML file's content, see :func:`decode_config`) checked once
into frozen rows; every mistake is a :class:`ConfigError` naming its path in the file::

    [upstreams.claude]
    format = "anthropic"
    base_url = "https://api.anthropic.com"      # as the provider's official SDK takes it
    key_env = "ANTHROPIC_API_KEY"               # the key is read from this variable, never stored
    headers = { "anthropic-beta" = "..." }      # optional extra headers
    timeout = 600                               # seconds (connect, read)

    [upstreams.vertex]                          # a provider row instead of a format: its
    provider = "vertex-gemini"                  # format, address and credentials (Google ADC
    project = "my-project"                      # unless key_env names a token), see
    location = "us-central1"                    # toolwire.hop._providers

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

Routes are tried in file order; the first whose ``match`` fits the client's model wins. A
model no route matches that is a model string (``vertex/gemini-2.5-pro``, prefixes in
:data:`~toolwire.hop._prefixes.MODEL_PREFIXES`) goes to the first upstream of the prefix's
provider row (a ``format`` upstream is its format's row: ``anthropic``, ``gemini``...), with the
model after the prefix; then the default route. A model string whose prefix is unknown, with no
default route, gets a 404 naming the known prefixes.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from toolwire._choices import unknown_choice
from toolwire.errors import ToolwireError
from toolwire.hop._prefixes import split_model
from toolwire.hop._providers import PROVIDERS, ProviderSpec, check_key
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
        provider: the provider row it is reached as (``None``: its format's own API, with
            ``base_url`` as that format's SDK takes it); with a row, ``base_url`` is the server
            root as :class:`toolwire.Client` takes it.
        params: the row's layout parameters (Vertex ``project``, ``location``; Azure
            ``api_version``).
        tokens: where bearer tokens come from when the row takes Google credentials and no
            ``key_env`` is set (read without I/O: the shells refresh it, see
            :meth:`HopConfig.token_sources`).
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
    provider: str | None = None
    params: Mapping[str, str] = field(default_factory=dict)
    tokens: Any = field(default=None, compare=False, repr=False)
    region: str | None = None
    access_key_env: str | None = None
    secret_key_env: str | None = None
    session_token_env: str | None = None

    @property
    def spec(self) -> ProviderSpec:
        """The provider row: :attr:`provider`, else the format's own."""
        return PROVIDERS[self.provider or FORMAT_PROVIDER[self.format]]

    def key(self, env: Mapping[str, str] | None = None) -> str | None:
        """The upstream key from :attr:`key_env` (``None`` when unset or empty), else the token
        source's current token."""
        if self.key_env is None:
            current = self.tokens.current() if self.tokens is not None else None
            return check_key(current, "the access token") if current else None
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
        """The route of ``model``: the first that fits, else its model-string prefix's upstream,
        else the default.

        Raises:
            ToolwireError: ``model`` is a model string of an unknown prefix (or a prefix without
                a provider) and there is no default route.
        """
        if model is not None:
            for route in self.routes:
                if route.fits(model):
                    return route
            try:
                prefixed = self._prefixed(model)
            except ToolwireError:
                if self.default is None:
                    raise
                prefixed = None
            if prefixed is not None:
                return prefixed
        return self.default

    def _prefixed(self, model: str) -> Route | None:
        """The route of a model string ``prefix/model``: the first upstream of the prefix's
        provider row, the model after the prefix (``None``: not a model string, or no such
        upstream)."""
        split = split_model(model)
        if split is None:
            return None
        row, rest = split
        provider = row.provider_for(rest)
        for upstream in self.upstreams.values():
            if upstream.spec.name == provider:
                return Route(f"{row.name}/*", upstream.name, rest)
        return None

    def token_sources(self) -> list[Any]:
        """The upstreams' token sources (each to refresh, off the request path, when its
        ``current()`` is ``None``)."""
        return [u.tokens for u in self.upstreams.values() if u.tokens is not None and u.key_env is None]

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


from toolwire.hop._config_decode import decode_config  # noqa: E402  (it builds the rows above)
