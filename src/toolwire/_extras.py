"""Optional dependencies: which extra provides each import, and one check that names it.

The core needs only msgspec and jsonschema-rs (tool-argument validation). Everything else comes
from an extra of the ``toolwire`` distribution; these tables must match
``[project.optional-dependencies]`` in pyproject.toml.

=========  ======================================  ==========================================
extra      provides (import names)                 used by
=========  ======================================  ==========================================
client     httpx, anyio, tenacity                  ``toolwire.client``, ``toolwire run``
server     starlette, uvicorn, yaml                ``toolwire.emulator``, ``toolwire emulate``
models     pydantic                                tools from Python functions and models
otel       opentelemetry                           tracing
redis      redis                                   the Redis store (``redis://`` store URLs)
vertex     google.auth, requests                   Vertex AI credentials (Google ADC)
bedrock    botocore                                AWS credentials beyond the environment
                                                   (profiles, SSO, roles) for ``bedrock``
cli        client + server + models                every ``toolwire`` command
all        everything above                        everything
=========  ======================================  ==========================================

A feature that needs imports from one extra names that extra; one that needs several
(``toolwire demo``: client, server and models) names the smallest bundle holding them all
(``cli``).

Example:
    >>> require("toolwire.client", "httpx")   # returns quietly when httpx is installed
"""

from __future__ import annotations

import importlib

from toolwire.errors import MissingDependencyError

__all__ = ["BUNDLES", "EXTRAS", "extra_for", "require"]

EXTRAS: dict[str, str] = {
    "httpx": "client",
    "anyio": "client",
    "tenacity": "client",
    "starlette": "server",
    "uvicorn": "server",
    "yaml": "server",
    "pydantic": "models",
    "opentelemetry": "otel",
    "redis": "redis",
    "google": "vertex",
    "requests": "vertex",
    "botocore": "bedrock",
}
"""Import name -> the extra that installs it."""

BUNDLES: dict[str, frozenset[str]] = {
    "cli": frozenset({"client", "server", "models"}),
    "all": frozenset({"client", "server", "models", "otel", "redis", "vertex", "bedrock"}),
}
"""Extras that install other extras, smallest first: name -> the extras it includes."""


def extra_for(modules: tuple[str, ...]) -> str:
    """The one extra to install for all of ``modules`` (import names listed in :data:`EXTRAS`).

    Raises:
        KeyError: a module is not in :data:`EXTRAS`.
    """
    needed = {EXTRAS[module.partition(".")[0]] for module in modules}
    if len(needed) == 1:
        return needed.pop()
    return next(name for name, extras in BUNDLES.items() if needed <= extras)


def require(
    feature: str, *modules: str, error: type[MissingDependencyError] = MissingDependencyError
) -> None:
    """Import ``modules``; if any is missing, raise an error naming the extra to install.

    Every module is checked even when the first one is missing, and the extra named covers
    all of ``modules`` (not only the missing ones): installing it makes ``feature`` work.

    Args:
        feature: what needs the modules, for the message (``"'toolwire run'"``).
        modules: import names, each listed in :data:`EXTRAS` (a dotted name uses its top package).
        error: the exception class to raise, a :class:`MissingDependencyError` subclass.

    Raises:
        MissingDependencyError: (or ``error``) when a module cannot be imported.
    """
    missing = []
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append(module)
    if missing:
        raise error(feature, extra_for(modules), missing)
