"""toolwire: LLM tool calling across provider wire formats.

OpenAI Chat Completions, OpenAI Responses, Anthropic Messages and Google Gemini,
any to any, through one canonical model (:mod:`toolwire.ir`). Conversions report
what they dropped or approximated; ``policy="strict"`` refuses instead.
"""

from typing import TYPE_CHECKING, Any

from toolwire import _logging
from toolwire._translate_bytes import translate_request_bytes, translate_response_bytes
from toolwire.errors import (
    AuthenticationError,
    ConnectionFailedError,
    ConversionError,
    InvalidRequestError,
    LimitError,
    MissingDependencyError,
    OverloadedError,
    PayloadError,
    PermissionDeniedError,
    ProviderError,
    RateLimitError,
    RequestRejectedError,
    RequestTimeoutError,
    SchemaError,
    ServerError,
    StreamError,
    StreamIdleTimeoutError,
    ToolDefinitionError,
    ToolNameError,
    ToolwireError,
    TransportError,
    UnsupportedError,
)
from toolwire.ir import (
    FORMATS,
    AnyTool,
    BuiltinTool,
    CustomTool,
    Format,
    FormatName,
    Message,
    Note,
    Notes,
    Policy,
    Request,
    Response,
    Tool,
    ToolCall,
    ToolChoice,
    ToolResult,
)
from toolwire.names import NameMap, sanitize_name
from toolwire.translate import Exchange, Translation, translate_request, translate_response

_logging.setup()  # a NullHandler on "toolwire"; TOOLWIRE_LOG=debug|info|... adds a stderr handler

if TYPE_CHECKING:  # what _LAZY serves at run time, so that type checkers see the real objects
    from toolwire.client import AsyncClient, Client
    from toolwire.decorator import tool
    from toolwire.hooks import Observer
    from toolwire.runner import Toolbox, arun, arun_stream, run, run_stream
    from toolwire.streaming import StreamTranslator, translate_stream
    from toolwire.usage import Price, Prices
    from toolwire.validate.validator import validate as validate

__version__ = "0.1.0"

# Shells and helpers loaded on first use, so that ``import toolwire`` stays free of httpx,
# pydantic and asyncio (the core does no I/O): name -> module that defines it.
_LAZY: dict[str, str] = {
    "AsyncClient": "toolwire.client",
    "Client": "toolwire.client",
    "Observer": "toolwire.hooks",
    "Price": "toolwire.usage",
    "Prices": "toolwire.usage",
    "StreamTranslator": "toolwire.streaming",
    "Toolbox": "toolwire.runner",
    "arun": "toolwire.runner",
    "arun_stream": "toolwire.runner",
    "run": "toolwire.runner",
    "run_stream": "toolwire.runner",
    "tool": "toolwire.decorator",
    "translate_stream": "toolwire.streaming",
}


def __getattr__(name: str) -> Any:
    import importlib

    if name == "validate":  # the validator package, callable: toolwire.validate(payload, format=...)
        return importlib.import_module("toolwire.validate")
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'toolwire' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "FORMATS",
    "AnyTool",
    "AsyncClient",
    "AuthenticationError",
    "BuiltinTool",
    "Client",
    "ConnectionFailedError",
    "ConversionError",
    "CustomTool",
    "Exchange",
    "Format",
    "FormatName",
    "InvalidRequestError",
    "LimitError",
    "Message",
    "MissingDependencyError",
    "NameMap",
    "Note",
    "Notes",
    "Observer",
    "OverloadedError",
    "PayloadError",
    "PermissionDeniedError",
    "Policy",
    "Price",
    "Prices",
    "ProviderError",
    "RateLimitError",
    "Request",
    "RequestRejectedError",
    "RequestTimeoutError",
    "Response",
    "SchemaError",
    "ServerError",
    "StreamError",
    "StreamIdleTimeoutError",
    "StreamTranslator",
    "Tool",
    "ToolCall",
    "ToolChoice",
    "ToolDefinitionError",
    "ToolNameError",
    "ToolResult",
    "Toolbox",
    "ToolwireError",
    "Translation",
    "TransportError",
    "UnsupportedError",
    "__version__",
    "arun",
    "arun_stream",
    "run",
    "run_stream",
    "sanitize_name",
    "tool",
    "translate_request",
    "translate_request_bytes",
    "translate_response",
    "translate_response_bytes",
    "translate_stream",
]
