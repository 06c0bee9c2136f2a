"""toolwire: LLM tool calling across provider wire formats.

OpenAI Chat Completions, OpenAI Responses, Anthropic Messages and Google Gemini,
any to any, through one canonical model (:mod:`toolwire.ir`). Conversions report
what they dropped or approximated; ``policy="strict"`` refuses instead.
"""

from toolwire.errors import (
    AuthenticationError,
    ConversionError,
    InvalidRequestError,
    LimitError,
    OverloadedError,
    PayloadError,
    PermissionDeniedError,
    ProviderError,
    RateLimitError,
    SchemaError,
    ServerError,
    StreamError,
    ToolDefinitionError,
    ToolNameError,
    ToolwireError,
    UnsupportedError,
)
from toolwire.ir import (
    FORMATS,
    AnyTool,
    BuiltinTool,
    CustomTool,
    Format,
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

__version__ = "0.1.0"

__all__ = [
    "FORMATS",
    "AnyTool",
    "AuthenticationError",
    "BuiltinTool",
    "ConversionError",
    "CustomTool",
    "Exchange",
    "Format",
    "InvalidRequestError",
    "LimitError",
    "Message",
    "NameMap",
    "Note",
    "Notes",
    "OverloadedError",
    "PayloadError",
    "PermissionDeniedError",
    "Policy",
    "ProviderError",
    "RateLimitError",
    "Request",
    "Response",
    "SchemaError",
    "ServerError",
    "StreamError",
    "Tool",
    "ToolCall",
    "ToolChoice",
    "ToolDefinitionError",
    "ToolNameError",
    "ToolResult",
    "ToolwireError",
    "Translation",
    "UnsupportedError",
    "__version__",
    "sanitize_name",
    "translate_request",
    "translate_response",
]
