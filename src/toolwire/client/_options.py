"""Per-provider request options, re-exported: they live in :mod:`toolwire.hop._options`."""

from toolwire.hop._options import (
    DEFAULT_OPTIONS,
    AnthropicOptions,
    ChatOptions,
    GeminiOptions,
    Options,
    ResponsesOptions,
    Timeouts,
)

__all__ = [
    "DEFAULT_OPTIONS",
    "AnthropicOptions",
    "ChatOptions",
    "GeminiOptions",
    "Options",
    "ResponsesOptions",
    "Timeouts",
]
