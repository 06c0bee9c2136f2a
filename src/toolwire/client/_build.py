"""Request builders, re-exported: they live in :mod:`toolwire.hop._build` (pure, shared with the hop)."""

from toolwire.hop._build import BuildContext, HTTPRequest, auth_headers, build_http_request

__all__ = ["BuildContext", "HTTPRequest", "auth_headers", "build_http_request"]
