"""``open_store(url)``: the backend a store URL names, from the :data:`STORES` table.

=====================================  ===========================================================
URL                                    store
=====================================  ===========================================================
``sqlite://`` (or ``sqlite:``)         SQLite at :func:`default_sqlite_path` (the default)
``sqlite:///abs/path.db``              SQLite at ``/abs/path.db``; ``sqlite:rel.db`` is relative
                                       to the working directory; ``~`` is expanded
``redis://[:password@]host:port/db``   Redis (the ``redis`` extra); ``rediss://`` for TLS;
                                       ``?prefix=name:`` sets the key prefix
``memory://``                          memory, this process only, gone at exit
=====================================  ===========================================================

A URL that names no backend raises :class:`~toolwire.store.StoreURLError` listing the choices;
messages show a Redis URL without its password.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import SplitResult, urlsplit

from toolwire._extras import require
from toolwire.store.base import Store, StoreLimits, StoreNotFoundError, StoreURLError
from toolwire.store.memory import MemoryStore

__all__ = [
    "DEFAULT_STORE",
    "STORES",
    "StoreSpec",
    "default_sqlite_path",
    "open_store",
    "redact",
    "store_spec",
]

DEFAULT_STORE = "sqlite://"
"""The store to use when given none (the gateway's default, per issue 15): SQLite in the user's
data directory."""


@dataclass(frozen=True, slots=True)
class StoreSpec:
    """One backend: its URL form (for messages) and how it opens."""

    example: str
    open: Callable[[SplitResult, StoreLimits, bool], Awaitable[Store]]


def default_sqlite_path() -> Path:
    """``$XDG_DATA_HOME/toolwire/store.db``, else ``~/.local/share/toolwire/store.db``."""
    base = os.environ.get("XDG_DATA_HOME") or ""
    root = Path(base) if os.path.isabs(base) else Path.home() / ".local" / "share"
    return root / "toolwire" / "store.db"


async def _memory(url: SplitResult, limits: StoreLimits, create: bool) -> Store:
    if url.netloc or url.path.strip("/") or url.query:
        raise StoreURLError(f"memory:// takes no host, path or options, got {redact(url)!r}")
    return MemoryStore(limits)


async def _sqlite(url: SplitResult, limits: StoreLimits, create: bool) -> Store:
    from toolwire.store.sqlite import SQLiteStore

    if url.netloc or url.query:
        raise StoreURLError(f"a sqlite URL names a file (sqlite:///path/to/store.db), got {redact(url)!r}")
    path = Path(os.path.expanduser(url.path)) if url.path else default_sqlite_path()
    if not create and not path.is_file():
        raise StoreNotFoundError(f"no store at {path}")
    return await SQLiteStore.open(path, limits)


async def _redis(url: SplitResult, limits: StoreLimits, create: bool) -> Store:
    require("the redis store", "redis")
    from toolwire.store.redis import RedisStore

    if url.path.strip("/") and not url.path.strip("/").isdigit():
        raise StoreURLError(
            f"a redis URL ends with a database number (redis://host:6379/0), got {redact(url)!r}"
        )
    return await RedisStore.open(url, limits)


STORES: dict[str, StoreSpec] = {
    "sqlite": StoreSpec("sqlite:///path/to/store.db", _sqlite),
    "redis": StoreSpec("redis://host:6379/0", _redis),
    "rediss": StoreSpec("rediss://host:6380/0", _redis),
    "memory": StoreSpec("memory://", _memory),
}
"""URL scheme -> backend."""


def redact(url: SplitResult | str) -> str:
    """``url`` without its user name and password (``redis://***@host:6379/0``)."""
    try:
        parts = urlsplit(url) if isinstance(url, str) else url
    except ValueError:
        return "(a URL that cannot be parsed)"
    if "@" not in parts.netloc:
        return parts.geturl()
    return parts._replace(netloc="***@" + parts.netloc.rpartition("@")[2]).geturl()


async def open_store(
    url: str = DEFAULT_STORE, limits: StoreLimits | None = None, *, create: bool = True
) -> Store:
    """Open the store ``url`` names (see the module docstring).

    Args:
        url: ``sqlite:///path.db``, ``sqlite://`` (the default file), ``redis://host:port/db``
            or ``memory://``.
        limits: size limit and clock for every backend.
        create: create a SQLite file that does not exist (``False``: raise
            :class:`~toolwire.store.StoreNotFoundError`, for commands that only inspect).

    Raises:
        StoreURLError: the URL names no backend, or one that cannot use it.
        StoreError: the backend cannot be opened (file not writable, server unreachable).
        MissingDependencyError: a Redis URL without the ``redis`` extra.
    """
    spec, parts = store_spec(url)
    return await spec.open(parts, limits or StoreLimits(), create)


def store_spec(url: str) -> tuple[StoreSpec, SplitResult]:
    """The backend ``url`` names and the parsed URL (no I/O: for checking a URL early).

    Raises:
        StoreURLError: the URL names no backend.
    """
    try:
        parts = urlsplit(url.strip())
        scheme = parts.scheme.lower()
        parts.port  # noqa: B018 -- a bad port raises ValueError here
    except ValueError:
        scheme, parts = "", urlsplit("")
    spec = STORES.get(scheme)
    if spec is None:
        choices = ", ".join(s.example for s in STORES.values())
        raise StoreURLError(f"unknown store URL {redact(url)!r}; choose one of: {choices}")
    return spec, parts
