"""The embedded default upstream: the built-in emulator, served on loopback in a thread.

``toolwire serve`` with no config, and :class:`~toolwire.gateway.Transport` with none, front it,
so both work offline out of the box.
"""

from __future__ import annotations

import contextlib
from typing import Any

from toolwire.hop._config import HopConfig
from toolwire.hop.core import BASE_HOLDS_VERSION
from toolwire.ir.base import FORMAT_ALIASES

__all__ = ["DEFAULT_UPSTREAM_FORMAT", "EmbeddedEmulator"]

DEFAULT_UPSTREAM_FORMAT = "anthropic"
"""The format the embedded emulator is called in: a cross-format hop for OpenAI and Gemini clients."""


class EmbeddedEmulator:
    """A running emulator and the one-upstream config that routes every model to it.

    Args:
        upstream_format: the format the gateway calls the emulator in.
        emulator_config: the emulator's :class:`~toolwire.emulator.EmulatorConfig` (default: its own).
    """

    def __init__(self, upstream_format: str = DEFAULT_UPSTREAM_FORMAT, emulator_config: Any = None) -> None:
        from toolwire.emulator import serve

        self._stack = contextlib.ExitStack()
        self.url: str = self._stack.enter_context(serve(config=emulator_config))
        fmt = FORMAT_ALIASES.get(upstream_format, upstream_format)
        base = self.url + ("/v1" if fmt in BASE_HOLDS_VERSION else "")  # as that format's SDK takes it
        self.config = HopConfig.single(fmt, base)

    def close(self) -> None:
        """Stop the emulator."""
        self._stack.close()

    def __enter__(self) -> EmbeddedEmulator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
