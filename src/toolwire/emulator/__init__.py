"""A stand-in for the OpenAI, Anthropic and Gemini HTTP APIs, with a deterministic model.

One ASGI app (:func:`create_app`) speaks OpenAI Chat Completions, OpenAI Responses, Anthropic
Messages and Gemini ``generateContent``, streaming and not. It decodes each request with the
format's codec, answers bad requests with the provider's own error body, checks API keys in
each provider's header style, and answers with a scripted model (:class:`ScriptedModel`) that
calls tools with schema-built arguments, quotes tool results, and signs its reasoning state.
Faults (latency, error statuses, broken streams) are injected per request with the
``x-toolwire-fault`` header or for all requests by :class:`EmulatorConfig`, whose
``rules="provider"`` enforces the replay rules real providers enforce on history
(:mod:`toolwire.emulator.rules`). Responses are kept for ``previous_response_id`` in a
:mod:`toolwire.store` (bounded memory by default, ``EmulatorConfig.store`` for SQLite or Redis;
records built by :mod:`toolwire.store.responses`); token counts share the usage estimate.

Example:
    >>> from toolwire.emulator import serve
    >>> with serve() as url:                                                # doctest: +SKIP
    ...     client = openai.OpenAI(base_url=f"{url}/v1", api_key="test")
"""

from toolwire._extras import require

try:  # a missing server extra is reported by its name, not by the first module missing
    import starlette  # noqa: F401
except ImportError:
    require("toolwire.emulator", "starlette")
    raise

from toolwire.emulator.app import create_app
from toolwire.emulator.arguments import example_arguments, example_value, text_hints
from toolwire.emulator.config import DEFAULT_MODELS, EmulatorConfig
from toolwire.emulator.events import response_events
from toolwire.emulator.faults import FAULT_HEADER, Faults, parse_faults
from toolwire.emulator.model import PARALLEL_TRIGGERS, Plan, ScriptedModel
from toolwire.emulator.script import Script, ScriptedCall, Turn, load_script, parse_script
from toolwire.emulator.server import serve
from toolwire.emulator.service import Emulator

__all__ = [
    "DEFAULT_MODELS",
    "FAULT_HEADER",
    "PARALLEL_TRIGGERS",
    "Emulator",
    "EmulatorConfig",
    "Faults",
    "Plan",
    "Script",
    "ScriptedCall",
    "ScriptedModel",
    "Turn",
    "create_app",
    "example_arguments",
    "example_value",
    "load_script",
    "parse_faults",
    "parse_script",
    "response_events",
    "serve",
    "text_hints",
]
