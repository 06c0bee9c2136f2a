"""The gateway: any client format in front of any provider (shells over :mod:`toolwire.hop`).

- :func:`create_app` / :class:`GatewayApp`: the ASGI app ``toolwire serve`` runs with uvicorn.
- :class:`Transport`: the same hop as an httpx transport, so an official SDK calls another
  provider in-process: ``openai.OpenAI(http_client=httpx.Client(transport=Transport(config)))``.
- :class:`HopConfig` and :func:`load_config`: the routing config (TOML or YAML).

Example:
    >>> config = load_config("gateway.toml")                                  # doctest: +SKIP
    >>> uvicorn.run(create_app(config), port=8080)                            # doctest: +SKIP
"""

from toolwire._extras import require

try:  # a missing extra is reported by its name, not by the first module missing
    import httpx  # noqa: F401
except ImportError:
    require("toolwire.gateway", "httpx")
    raise

from toolwire.gateway._files import load_config
from toolwire.gateway.app import GatewayApp, create_app
from toolwire.gateway.transport import Transport
from toolwire.hop._config import ConfigError, GatewayKey, HopConfig, Limits, Route, TraceConfig, Upstream

__all__ = [
    "ConfigError",
    "GatewayApp",
    "GatewayKey",
    "HopConfig",
    "Limits",
    "Route",
    "TraceConfig",
    "Transport",
    "Upstream",
    "create_app",
    "load_config",
]
