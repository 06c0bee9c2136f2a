"""The public API is pinned: adding or removing a name is a deliberate change to this test."""

from __future__ import annotations

import importlib

import pytest

import toolwire

PINNED: dict[str, set[str]] = {
    "toolwire": {
        "FORMATS", "AnyTool", "AuthenticationError", "BuiltinTool", "ConversionError", "CustomTool",
        "Exchange", "Format", "InvalidRequestError", "LimitError", "Message", "NameMap", "Note", "Notes",
        "OverloadedError", "PayloadError", "PermissionDeniedError", "Policy", "ProviderError",
        "RateLimitError", "Request", "Response", "SchemaError", "ServerError", "StreamError", "Tool",
        "ToolCall", "ToolChoice", "ToolDefinitionError", "ToolNameError", "ToolResult", "ToolwireError",
        "Translation", "UnsupportedError", "__version__", "sanitize_name", "translate_request",
        "translate_response",
    },
    "toolwire.ir": {
        "FORMATS", "AnyTool", "AudioPart", "BuiltinTool", "ContentPart", "CustomTool", "ErrorInfo",
        "Extra", "FilePart", "Format", "IRStruct", "ImagePart", "Message", "Note", "NoteKind", "Notes",
        "Part", "PartEnd", "PartStart", "Policy", "ReasoningConfig", "ReasoningDelta", "ReasoningPart",
        "RefusalPart", "Request", "Response", "ResponseEnd", "ResponseFormat", "ResponseStart", "Role",
        "StopReason", "StreamErrorEvent", "StreamEvent", "TextDelta", "TextPart", "Tool", "ToolCall",
        "ToolCallDelta", "ToolCallKind", "ToolChoice", "ToolChoiceMode", "ToolResult", "Usage",
        "UsageUpdate",
    },
    "toolwire.errors": {
        "AuthenticationError", "ConversionError", "InvalidRequestError", "LimitError", "OverloadedError",
        "PayloadError", "PermissionDeniedError", "ProviderError", "RateLimitError", "SchemaError",
        "ServerError", "StreamError", "ToolDefinitionError", "ToolNameError", "ToolwireError",
        "UnsupportedError",
    },
    "toolwire.names": {"NAME_RULES", "NameMap", "NameRule", "is_valid_name", "sanitize_name"},
    "toolwire.translate": {
        "FORMAT_CHOICES", "Exchange", "Translation", "format_module", "rename_tools", "resolve_format",
        "translate_request", "translate_response",
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
