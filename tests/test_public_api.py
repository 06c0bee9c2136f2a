"""The public API is pinned: adding or removing a name is a deliberate change to this test."""

from __future__ import annotations

import importlib

import pytest

import toolwire

PINNED: dict[str, set[str]] = {
    "toolwire": {
        "AnyTool", "AsyncClient", "AuthenticationError", "BuiltinTool", "Client", "ConnectionFailedError",
        "ConversionError", "CustomTool", "Exchange", "FORMATS", "Format", "FormatName", "InvalidRequestError",
        "LimitError", "Message", "MissingDependencyError", "NameMap", "Note", "Notes", "Observer",
        "OverloadedError", "PayloadError", "PermissionDeniedError", "Policy", "Price", "Prices",
        "ProviderError", "RateLimitError", "Request",
        "RequestRejectedError", "RequestTimeoutError", "Response", "SchemaError", "ServerError",
        "StreamError", "StreamIdleTimeoutError", "StreamTranslator", "Tool", "ToolCall", "ToolChoice",
        "ToolDefinitionError", "ToolNameError", "ToolResult", "Toolbox", "ToolwireError", "Translation",
        "TransportError", "UnsupportedError", "__version__", "arun", "arun_stream", "run", "run_stream",
        "sanitize_name", "tool", "translate_request", "translate_request_bytes", "translate_response",
        "translate_response_bytes", "translate_stream",
    },
    "toolwire.ir": {
        "AnyTool", "AudioPart", "BuiltinTool", "ContentPart", "CustomTool", "ErrorInfo", "Extra", "FORMATS",
        "FilePart", "Format", "FormatName", "IRStruct", "ImagePart", "Message", "Note", "NoteKind", "Notes",
        "Part", "PartEnd", "PartStart", "Policy", "ReasoningConfig", "ReasoningDelta", "ReasoningPart",
        "RefusalPart", "Request", "Response", "ResponseEnd", "ResponseFormat", "ResponseStart", "Role",
        "StopReason", "StreamErrorEvent", "StreamEvent", "TextDelta", "TextPart", "Tool", "ToolCall",
        "ToolCallDelta", "ToolCallKind", "ToolChoice", "ToolChoiceMode", "ToolResult", "Usage",
        "UsageUpdate",
    },
    "toolwire.errors": {
        "AuthenticationError", "ConnectionFailedError", "ConversionError", "InvalidRequestError",
        "LimitError", "MissingDependencyError", "OverloadedError", "PayloadError", "PermissionDeniedError",
        "ProviderError", "RateLimitError", "RequestRejectedError", "RequestTimeoutError", "SchemaError",
        "ServerError", "StreamError", "StreamIdleTimeoutError", "ToolDefinitionError", "ToolNameError",
        "ToolwireError", "TransportError", "UnsupportedError", "WorkerLimitError",
    },
    "toolwire.names": {
        "NAME_RULES", "NameMap", "NameRule", "is_valid_name", "sanitize_name",
    },
    "toolwire.translate": {
        "Exchange", "FORMAT_CHOICES", "Translation", "format_module", "rename_tools", "resolve_format",
        "translate_request", "translate_response",
    },
    "toolwire.streaming": {
        "KEEPALIVE", "ArgumentsView", "StreamTranslator", "WireReader", "check_stream", "encode_wire_event",
        "encode_wire_events", "stream_decoder", "stream_encoder", "translate_stream",
    },
    "toolwire.hop": {
        "ClientCall", "HOP_OPTIONS", "InboundRequest", "KEEPALIVES", "StreamRelay", "UpstreamCall",
        "decode_http_error", "read_inbound", "relay_stream", "translate_error", "upstream_call",
    },
    "toolwire.opaque": {
        "ENCRYPTED_INCLUDE", "ENVELOPE_PREFIX", "FALLBACKS", "GEMINI_PLACEHOLDER", "ORIGIN_CODES",
        "apply_fallbacks", "ask_for_state", "carrier", "has_state", "open_envelope", "open_request",
        "ordinal_kind", "seal", "seal_parts", "seal_response", "sealed_reasoning", "signed_envelope",
        "slotted",
    },
    "toolwire.partial_json": {
        "complete_json", "parse_partial",
    },
    "toolwire.validate": {
        "FORMATS", "KINDS", "Problem", "lint_history", "validate",
    },
    "toolwire.client": {
        "AnthropicOptions", "AsyncClient", "AsyncStream", "ChatOptions", "Client", "ConnectionFailedError",
        "GeminiOptions", "HTTPRequest", "Options", "PROVIDERS", "ProviderName", "ProviderSpec",
        "RETRY_STATUSES", "RequestRejectedError", "RequestTimeoutError", "ResponsesOptions", "Result",
        "RetryPolicy", "Stream", "StreamIdleTimeoutError", "TRACE", "Timeouts", "TransportError",
        "check_request", "parse_retry_after",
        "GoogleCredentials", "MODEL_PREFIXES", "ModelPrefix", "StaticToken", "TokenSource",
    },
    "toolwire.runner": {
        "DEFAULT_ABANDONED_LIMIT", "abandoned_threads", "set_abandoned_limit",
        "Approver", "Hooks", "RegisteredTool", "RunEnd", "RunEvent", "RunResult", "RunState", "RunUsageError",
        "StopKind", "ToolResultEvent", "Toolbox", "TurnEnd", "arun", "arun_stream", "execute_async",
        "execute_sync", "result_from_value", "run", "run_stream",
    },
    "toolwire.emulator": {
        "DEFAULT_MODELS", "Emulator", "EmulatorConfig", "FAULT_HEADER", "Faults", "PARALLEL_TRIGGERS",
        "Plan", "Script", "ScriptedCall", "ScriptedModel", "Turn", "create_app", "example_arguments",
        "example_value", "load_script", "parse_faults", "parse_script", "response_events", "serve",
        "text_hints",
    },
    "toolwire.formats.openai_chat": {
        "CODEC", "StreamDecoder", "StreamEncoder", "check_stream", "decode_error", "decode_request",
        "decode_response", "decode_tool_choice", "decode_tool_config", "decode_tools", "encode_error",
        "encode_request", "encode_response", "encode_tool_choice", "encode_tool_config", "encode_tools",
        "error_to_exception", "mistral_call_id",
    },
    "toolwire.formats.openai_responses": {
        "CODEC", "StreamDecoder", "StreamEncoder", "check_stream", "decode_error", "decode_request",
        "decode_response", "decode_tool_choice", "decode_tool_config", "decode_tools", "encode_error",
        "encode_request", "encode_response", "encode_tool_choice", "encode_tool_config", "encode_tools",
        "error_to_exception",
    },
    "toolwire.formats.anthropic": {
        "CODEC", "StreamDecoder", "StreamEncoder", "check_stream", "decode_error", "decode_request",
        "decode_response", "decode_tool_choice", "decode_tool_config", "decode_tools", "encode_error",
        "encode_request", "encode_response", "encode_tool_choice", "encode_tool_config", "encode_tools",
        "error_to_exception",
    },
    "toolwire.formats.gemini": {
        "CODEC", "SchemaMode", "StreamDecoder", "StreamEncoder", "check_stream", "decode_error",
        "decode_request", "decode_response", "decode_tool_choice", "decode_tool_config", "decode_tools",
        "encode_error", "encode_request", "encode_response", "encode_tool_choice", "encode_tool_config",
        "encode_tools", "endpoint_path", "error_to_exception", "model_path",
    },
    "toolwire.ir.accumulate": {
        "Accumulator", "accumulate",
    },
    "toolwire.framing": {
        "DEFAULT_MAX_SIZE", "DONE", "EventMessage", "EventStreamDecoder", "HeaderValue", "JSONArrayDecoder",
        "JSONArrayEncoder", "NDJSONDecoder", "SSEDecoder", "SSEEncoder", "SSEEvent", "encode_comment",
        "encode_message", "encode_ndjson", "encode_sse", "is_done",
    },
    "toolwire.ir.problem": {
        "Problem",
    },
    "toolwire.usage": {
        "Price", "Prices", "total_usage",
    },
    "toolwire.hooks": {
        "CallInfo", "ConversionInfo", "EVENTS", "EventName", "Observer", "Observers", "emit",
    },
    "toolwire.otel": {
        "OpenTelemetryObserver", "SYSTEMS",
    },
    "toolwire.store": {
        "ConversationRecord", "DEFAULT_MAX_RECORD_BYTES", "DEFAULT_STORE", "ItemPage", "MAX_LIMIT",
        "MemoryStore", "Order", "PageQuery", "RECORD_VERSION", "ResponseRecord", "STATUSES", "STORES",
        "Status", "Store", "StoreError", "StoreLimitError", "StoreLimits", "StoreNotFoundError", "StoreSpec",
        "StoreURLError", "default_sqlite_path", "list_object", "list_page", "open_store", "page_query",
        "redact", "store_spec",
    },
}  # fmt: skip


@pytest.mark.parametrize("module_name", sorted(PINNED))
def test_all_is_pinned(module_name: str) -> None:
    module = importlib.import_module(module_name)
    assert set(module.__all__) == PINNED[module_name]
    assert len(module.__all__) == len(set(module.__all__)), "duplicate names in __all__"


@pytest.mark.parametrize("module_name", sorted(PINNED))
def test_all_names_exist(module_name: str) -> None:
    module = importlib.import_module(module_name)
    missing = [name for name in module.__all__ if not hasattr(module, name)]
    assert missing == []


def test_error_tree_roots() -> None:
    for name in PINNED["toolwire.errors"]:
        assert issubclass(getattr(toolwire.errors, name), toolwire.ToolwireError)
    assert issubclass(toolwire.RateLimitError, toolwire.ProviderError)
    assert toolwire.RateLimitError("x").status == 429
    assert issubclass(toolwire.LimitError, toolwire.PayloadError)


def test_core_does_no_io_imports() -> None:
    """The pure core must not pull in network or server libraries."""
    import subprocess
    import sys

    code = (
        "import sys, toolwire, toolwire.ir, toolwire.translate, toolwire.names\n"
        "bad = [m for m in ('httpx', 'starlette', 'asyncio', 'uvicorn') if m in sys.modules]\n"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_shells_load_lazily_and_validate_is_callable() -> None:
    """``toolwire.Client`` and friends load on first use; ``toolwire.validate(...)`` validates."""
    import subprocess
    import sys

    code = (
        "import sys, toolwire\n"
        "before = [m for m in ('httpx', 'starlette', 'uvicorn') if m in sys.modules]\n"
        "client = toolwire.Client\n"
        "problems = toolwire.validate({'model': 'm', 'messages': []}, format='anthropic')\n"
        "print(before, client.__module__, [p.code for p in problems], toolwire.validate.validate is not None)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    codes = "['missing_required_parameter', 'empty_messages']"
    assert out.stdout.strip() == f"[] toolwire.client._sync {codes} True"
