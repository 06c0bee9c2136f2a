"""Which wire format a payload is in: ``--from auto``, and a check of a declared ``--from``.

Each format has a few *signs*, things only (or mostly) its payloads carry. A payload's score
for a format is the number of that format's signs it shows. ``auto`` takes the format with
the highest score and refuses a tie; a declared format is refused only when the payload shows
none of its signs but some of another format's (an Anthropic request given as ``gemini``).

=================  =========================================  ===================================
format             request signs                              response signs
=================  =========================================  ===================================
openai-chat        ``messages`` without ``max_tokens``;       ``choices``;
                   chat-only keys (``response_format``...);   ``object: chat.completion``
                   a system/developer/tool message;
                   a message with ``tool_calls``;
                   a tool with a ``function`` object
openai-responses   ``input``, ``instructions``,               ``object: response``; ``output``
                   ``previous_response_id``...;
                   a flat function tool (``type`` + ``name``)
anthropic          ``messages``, ``max_tokens``, no chat key;        ``type: message``;
                   ``system``, ``stop_sequences``...;         ``stop_reason``
                   a ``tool_use``/``tool_result`` block;
                   a tool with ``input_schema``
gemini             ``contents``, ``systemInstruction``,       ``candidates``, ``usageMetadata``,
                   ``generationConfig``...;                   ``promptFeedback``
                   a tool with ``functionDeclarations``
bedrock-converse   ``inferenceConfig``,                       ``stopReason``, ``metrics``;
                   ``additionalModelRequestFields``...;       ``output.message``
                   a content block keyed by its kind
                   (``{"text": ...}``, ``{"toolUse": ...}``);
                   a ``toolConfig.tools`` item with ``toolSpec``;
                   a ``system`` block keyed by its kind
=================  =========================================  ===================================

Tool arrays (``tools convert``) are scored by their items' shapes alone; recorded streams
(``replay``) by their events: ``chat.completion.chunk`` objects, ``response.*`` types, Anthropic's
``message_start``... types, Gemini ``candidates``, Bedrock ``contentBlockDelta``... (wrapped, or as
event-stream payloads: ``contentBlockIndex``, ``stopReason``). Chat's "``messages`` without
``max_tokens``" sign does not count a conversation of Bedrock-shaped blocks. A bare request with
``messages`` and ``max_tokens`` and nothing else telling reads as Anthropic, which requires
``max_tokens`` (Chat does not); the two read the same anyway.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from toolwire.errors import PayloadError
from toolwire.formats._wire import json_type
from toolwire.ir import FORMATS, Format
from toolwire.translate import resolve_format

__all__ = ["SIGNS", "Kind", "detect", "resolve_source"]

Kind = Literal["request", "response", "tools", "stream"]
Sign = Callable[[Any], bool]


def _keys(*names: str) -> Sign:
    return lambda p: isinstance(p, dict) and any(n in p for n in names)


def _value(key: str, value: str) -> Sign:
    return lambda p: isinstance(p, dict) and p.get(key) == value


def _items(key: str | None, test: Callable[[dict[str, Any]], bool]) -> Sign:
    """Some dict item of the list ``payload[key]`` (the payload itself when ``key`` is None) passes."""

    def sign(payload: Any) -> bool:
        items = payload if key is None else payload.get(key) if isinstance(payload, dict) else None
        return isinstance(items, list) and any(isinstance(i, dict) and test(i) for i in items)

    return sign


def _is_one_of(value: Any, names: frozenset[str]) -> bool:
    """``value`` is a string in ``names`` (a list or object in a hostile payload is not)."""
    return type(value) is str and value in names


def _blocks(types: frozenset[str]) -> Sign:
    """Some message's content list has a block of one of ``types``."""
    return _items("messages", lambda m: _items("content", lambda b: _is_one_of(b.get("type"), types))(m))


def _chat_tool(tool: dict[str, Any]) -> bool:
    return isinstance(tool.get("function"), dict)


def _flat_tool(tool: dict[str, Any]) -> bool:
    kind = tool.get("type")
    if kind == "custom":  # Responses custom tool; Anthropic's "custom" carries an input_schema
        return "input_schema" not in tool
    return (kind == "function" and "name" in tool) or _is_one_of(kind, _RESPONSES_BUILTINS)


def _anthropic_tool(tool: dict[str, Any]) -> bool:
    kind = str(tool.get("type", ""))
    return "input_schema" in tool or (kind[-8:].isdigit() and "_" in kind)  # web_search_20250305


def _bedrock_tool(tool: dict[str, Any]) -> bool:
    return isinstance(tool.get("toolSpec"), dict)


def _bedrock_block(block: dict[str, Any]) -> bool:
    """A content block keyed by its kind (``{"text": ...}``), with no ``type``."""
    return "type" not in block and len(block) == 1 and next(iter(block)) in _BEDROCK_BLOCKS


_BEDROCK_BLOCKS = frozenset(
    {"text", "image", "document", "toolUse", "toolResult", "reasoningContent", "cachePoint", "guardContent"}
    | {"video", "citationsContent"}
)


def _bedrock_messages(payload: Any) -> bool:
    return _items("messages", lambda m: _items("content", _bedrock_block)(m))(payload)


def _bedrock_config_tools(payload: Any) -> bool:
    config = payload.get("toolConfig") if isinstance(payload, dict) else None
    return _items("tools", _bedrock_tool)(config) if isinstance(config, dict) else False


def _bedrock_event(event: dict[str, Any]) -> bool:
    return any(k in event for k in _BEDROCK_EVENTS)


_BEDROCK_EVENTS = frozenset(
    {"messageStart", "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStop"}
    | {"contentBlockIndex", "stopReason"}
)
_BEDROCK_KEYS: tuple[str, ...] = (
    "inferenceConfig",
    "additionalModelRequestFields",
    "guardrailConfig",
    "requestMetadata",
)
_BEDROCK_KEYS += ("promptVariables", "additionalModelResponseFieldPaths", "performanceConfig")


def _gemini_tool(tool: dict[str, Any]) -> bool:
    return any(k in tool for k in _GEMINI_TOOL_KEYS)


_GEMINI_TOOL_KEYS = frozenset(
    {"functionDeclarations", "function_declarations", "googleSearch", "google_search", "codeExecution"}
    | {"code_execution", "urlContext", "url_context", "googleSearchRetrieval", "retrieval"}
    | {"fileSearch", "file_search"}
)
_RESPONSES_BUILTINS = frozenset(
    {"web_search", "web_search_preview", "file_search", "mcp", "code_interpreter", "image_generation"}
    | {"computer_use_preview", "local_shell", "shell", "apply_patch"}
)
_CHAT_KEYS: tuple[str, ...] = ("max_completion_tokens", "response_format", "stream_options")
_CHAT_KEYS += (
    "frequency_penalty",
    "presence_penalty",
    "logit_bias",
    "logprobs",
    "n",
    "functions",
    "function_call",
    "seed",
)
_ANTHROPIC_EVENTS = frozenset(
    {"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta"}
    | {"message_stop", "ping"}
)
_GEMINI_RESPONSE_KEYS = ("candidates", "usageMetadata", "promptFeedback", "modelVersion")
_RESPONSES_KEYS = ("input", "instructions", "previous_response_id", "max_output_tokens", "conversation")
_ANTHROPIC_KEYS = ("system", "stop_sequences", "top_k", "thinking", "mcp_servers", "container")
_GEMINI_KEYS: tuple[str, ...] = ("contents", "systemInstruction", "system_instruction", "generationConfig")
_GEMINI_KEYS += ("generation_config", "toolConfig", "tool_config", "safetySettings", "cachedContent")

SIGNS: dict[Kind, dict[Format, tuple[Sign, ...]]] = {
    "request": {
        "openai-chat": (
            lambda p: _keys("messages")(p) and "max_tokens" not in p and not _bedrock_messages(p),
            _keys(*_CHAT_KEYS),
            _items("messages", lambda m: m.get("role") in ("system", "developer", "tool", "function")),
            _items("messages", lambda m: "tool_calls" in m or "function_call" in m),
            _items("tools", _chat_tool),
        ),
        "openai-responses": (_keys(*_RESPONSES_KEYS), _items("tools", _flat_tool)),
        "anthropic": (
            lambda p: _keys("messages")(p) and "max_tokens" in p and not _keys(*_CHAT_KEYS)(p),
            _keys(*_ANTHROPIC_KEYS),
            _blocks(frozenset({"tool_use", "tool_result", "thinking", "redacted_thinking", "document"})),
            _items("tools", _anthropic_tool),
        ),
        "gemini": (_keys(*_GEMINI_KEYS), _items("tools", _gemini_tool)),
        "bedrock-converse": (
            _keys(*_BEDROCK_KEYS),
            _bedrock_messages,
            _bedrock_config_tools,
            _items("system", _bedrock_block),
        ),
    },
    "response": {
        "openai-chat": (_keys("choices"), _value("object", "chat.completion")),
        "openai-responses": (
            _value("object", "response"),
            lambda p: isinstance(p, dict) and isinstance(p.get("output"), list),
        ),
        "anthropic": (_value("type", "message"), _keys("stop_reason")),
        "gemini": (_keys(*_GEMINI_RESPONSE_KEYS),),
        "bedrock-converse": (
            _keys("stopReason", "metrics"),
            lambda p: isinstance(p, dict) and isinstance(p.get("output"), dict),
        ),
    },
    "stream": {
        "openai-chat": (
            _items(None, lambda e: e.get("object") == "chat.completion.chunk" or "choices" in e),
        ),
        "openai-responses": (_items(None, lambda e: str(e.get("type", "")).startswith("response.")),),
        "anthropic": (_items(None, lambda e: _is_one_of(e.get("type"), _ANTHROPIC_EVENTS)),),
        "gemini": (_items(None, lambda e: any(k in e for k in _GEMINI_RESPONSE_KEYS)),),
        "bedrock-converse": (_items(None, _bedrock_event),),
    },
    "tools": {
        "openai-chat": (_items(None, _chat_tool),),
        "openai-responses": (_items(None, _flat_tool),),
        "anthropic": (_items(None, _anthropic_tool),),
        "gemini": (_items(None, _gemini_tool),),
        "bedrock-converse": (_items(None, _bedrock_tool),),
    },
}
"""Kind -> format -> its signs (a sign takes the payload and says whether it shows)."""


def detect(payload: Any, kind: Kind) -> dict[Format, int]:
    """Each format's score for ``payload``: how many of its signs it shows."""
    return {fmt: sum(1 for sign in SIGNS[kind][fmt] if sign(payload)) for fmt in FORMATS}


def resolve_source(declared: str, payload: Any, kind: Kind) -> tuple[Format, bool]:
    """The format to read ``payload`` as, and whether it was detected (``declared == "auto"``).

    Raises:
        PayloadError: ``auto`` and no format (or more than one) fits best; or the payload shows
            none of the declared format's signs but some of another's (named in the message).
    """
    if kind == "tools" and isinstance(payload, dict):
        payload = [payload]  # one Gemini tool object given alone
    scores = detect(payload, kind)
    noun = _NOUNS[kind]
    best = max(scores.values())
    leaders = [fmt for fmt, score in scores.items() if score == best and best > 0]
    if declared == "auto":
        if len(leaders) == 1:
            return leaders[0], True
        if leaders:
            raise PayloadError(f"this {noun} reads as {' or '.join(leaders)}; choose one with --from")
        raise PayloadError(f"cannot tell the format of this {noun} ({_shape(payload)}); pass --from")
    fmt = resolve_format(declared)
    if scores[fmt] == 0 and leaders:
        raise PayloadError(
            f"this {noun} does not look like {fmt}, it looks like {' or '.join(leaders)}; "
            f"use --from {leaders[0]} (or --from auto)"
        )
    return fmt, False


_NOUNS: dict[Kind, str] = {
    "request": "request",
    "response": "response",
    "tools": "tools array",
    "stream": "recording",
}


def _shape(payload: Any) -> str:
    if isinstance(payload, dict):
        keys = ", ".join(list(payload)[:6])
        return f"an object with keys {keys}" if keys else "an empty object"
    return f"a JSON {json_type(payload)}"
