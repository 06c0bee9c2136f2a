"""The OpenAI Responses request builder, re-exported: it lives in :mod:`toolwire.hop._responses`."""

from toolwire.hop._responses import (
    ENCRYPTED_REASONING,
    build_responses_body,
    responses_headers,
    supports_verbosity,
)

__all__ = ["ENCRYPTED_REASONING", "build_responses_body", "responses_headers", "supports_verbosity"]
