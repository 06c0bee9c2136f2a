"""The providers table, re-exported: it lives in :mod:`toolwire.hop._providers`."""

from toolwire.hop._providers import (
    PROVIDERS,
    ProviderName,
    ProviderSpec,
    check_key,
    get_spec,
    resolve_base_url,
    resolve_key,
)

__all__ = [
    "PROVIDERS",
    "ProviderName",
    "ProviderSpec",
    "check_key",
    "get_spec",
    "resolve_base_url",
    "resolve_key",
]
