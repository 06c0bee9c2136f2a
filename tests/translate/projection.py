"""The documented projection of the canonical model onto each wire format.

``decode(encode(x)) ~ project(x, fmt)``: encoding an IR request or response to a format and
decoding it again gives back ``x`` minus what the format cannot carry, plus what it
synthesizes. Both sides are compared in :func:`semantic` form, which removes what is
representation rather than meaning.

Semantic form (every format):

* ``extra`` (codec hints and unknown source fields), ``origin`` of requests/responses and
  ``raw_stop_reason`` are dropped;
* turns are canonical: ``tool`` messages count as ``user`` turns, empty turns are left out
  and consecutive turns of the same role are merged;
* call ids are renamed ``call0``, ``call1``... in order of appearance; calls without an id get
  the next name and results without a call id answer the oldest open call of their name (so
  a format that drops ids, or synthesizes them, keeps the pairing);
* ``ToolResult.name`` is dropped (the pairing says which call a result answers);
* an image given as a ``data:`` URL equals the same image given as base64 data, and OpenAI's
  default ``detail: "auto"`` equals no detail;
* a usage detail (cached, cache creation, reasoning tokens) of 0 equals an unreported one;
* ids a format synthesizes when the source had none (Responses item ids, output reasoning
  ids) are dropped where they are not the only copy of opaque state; the response id a
  Bedrock body decodes to (``bedrock_`` + a hash of the body) reads ``bedrock_*``;
* a response model ``""`` or ``unknown`` (what formats that require one write when the source
  has none) equals no model.

What each format cannot carry or adds is listed in :data:`PROJECTIONS` (the ``_project_*``
functions say what they do in their docstrings). A request that reaches a format from another
one first gets that format's fallback for missing opaque reasoning state (:data:`FALLBACKS`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import msgspec

from toolwire.ir import Request, Response

__all__ = ["PROJECTIONS", "compact_arguments", "project", "semantic"]

Data = dict[str, Any]

_MOVED = "The content returned by tool call {id} follows:"
_MOVED_RE = re.compile(r"^The content returned by tool call (\S+) follows:$")
_PLACEHOLDER = "(non-text content of this result follows in the next user message)"
_WRAPPED_INPUT = {"type": "object", "properties": {"input": {"type": "string"}}, "required": ["input"]}
_ANTHROPIC_DEFAULT_MAX_TOKENS = 4096
_NO_MODEL = ("", "unknown")
"""What formats that require a response model write when the source has none."""
_BEDROCK_ID = re.compile(r"bedrock_[0-9a-f]{32}|bedrock_\*")


# ---------------------------------------------------------------- helpers on builtins


def _builtins(value: Request | Response) -> Data:
    data: Data = json.loads(msgspec.json.encode(value))
    return data


def _strip(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k != "extra"}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def _all_parts(data: Data) -> list[Data]:
    if "messages" in data:
        return [part for message in data["messages"] for part in message.get("parts", [])]
    return list(data.get("parts", []))


def _map_parts(data: Data, fn: Callable[[Data], list[Data]]) -> None:
    """Replace every part (messages' or response's) by ``fn(part)`` (a list: 0, 1 or more parts)."""
    holders = data.get("messages", [data])
    for holder in holders:
        holder["parts"] = [new for part in holder.get("parts", []) for new in fn(part)]


def _merge_turns(messages: list[Data]) -> list[Data]:
    out: list[Data] = []
    for message in messages:
        if not message.get("parts"):  # an empty turn says nothing
            continue
        role = "user" if message["role"] == "tool" else message["role"]
        message = {**message, "role": role}
        if out and out[-1]["role"] == role:
            out[-1] = {**out[-1], "parts": [*out[-1].get("parts", []), *message.get("parts", [])]}
            for key in ("name", "id"):
                if key in message:
                    out[-1].setdefault(key, message[key])
        else:
            out.append(message)
    return out


def _image(part: Data) -> Data:
    url = part.get("url")
    if isinstance(url, str) and url.startswith("data:") and ";base64," in url:
        head, data = url[5:].split(";base64,", 1)
        part = {k: v for k, v in part.items() if k != "url"}
        part.update(data=data, media_type=head)
    if part.get("detail") == "auto":
        part = {k: v for k, v in part.items() if k != "detail"}
    return part


def _normalize_content(part: Data) -> Data:
    if part.get("type") == "image":
        return _image(part)
    if part.get("type") == "tool_result":
        part = {k: v for k, v in part.items() if k != "name"}
        part["content"] = [_normalize_content(p) for p in part.get("content", [])]
    return part


def _rename_ids(data: Data) -> None:
    names: dict[str, str] = {}
    open_calls: list[tuple[str, str]] = []
    counter = iter(range(10_000))
    for part in _all_parts(data):
        if part.get("type") == "tool_call":
            new = f"call{next(counter)}"
            if part.get("id") is not None:
                names[part["id"]] = new
            part["id"] = new
            open_calls.append((part["name"], new))
        elif part.get("type") == "tool_result":
            old = part.get("call_id")
            if old is not None and old in names:
                new = names[old]
            else:
                same = [c for c in open_calls if c[0] == part.get("name")] or open_calls
                new = same[0][1] if same else f"orphan{next(counter)}"
            open_calls = [c for c in open_calls if c[1] != new]
            part["call_id"] = new
    for part in _all_parts(data):  # Chat's lead text of moved tool result media: id left out
        if part.get("type") == "text" and _MOVED_RE.match(part["text"]):
            part["text"] = _MOVED.format(id="...")


def semantic(value: Request | Response | Data, *, exact_ids: bool = False) -> Data:
    """The semantic form of an IR request or response (see the module docstring).

    ``exact_ids`` keeps call ids as they are instead of renaming them in order.
    """
    data = _strip(_builtins(value) if not isinstance(value, dict) else json.loads(json.dumps(value)))
    data.pop("origin", None)
    data.pop("raw_stop_reason", None)
    if "parts" in data and _BEDROCK_ID.fullmatch(str(data.get("id"))):
        data["id"] = "bedrock_*"
    if "parts" in data and data.get("model") in _NO_MODEL:
        del data["model"]
    if not exact_ids:
        _rename_ids(data)  # before names are dropped: results without ids pair by name
    if "messages" in data:
        data["messages"] = _merge_turns(data["messages"])
    _map_parts(data, lambda p: [_normalize_content(p)])
    usage = data.get("usage")
    if isinstance(usage, dict):
        for key in ("cached_tokens", "cache_creation_tokens", "reasoning_tokens"):
            if usage.get(key) == 0:
                del usage[key]
    for part in _all_parts(data):
        if part.get("type") == "tool_call":
            part.pop("item_id", None)
        if part.get("kind") == "function":  # the default, whether spelled out or not
            del part["kind"]
    return data


# ---------------------------------------------------------------- per-format projections


def _drop_reasoning_of_other_origins(data: Data, fmt: str) -> None:
    _map_parts(data, lambda p: [] if p.get("type") == "reasoning" and p.get("origin") != fmt else [p])


def _drop_fields(data: Data, kind: str, fields: tuple[str, ...]) -> None:
    for part in _all_parts(data):
        if part.get("type") == kind:
            for name in fields:
                part.pop(name, None)


def _drop_message_ids(data: Data) -> None:
    """Message ids exist only as Responses message item ids."""
    for message in data.get("messages", []):
        message.pop("id", None)


def _custom_as_function(data: Data) -> None:
    """Custom (free-text) tools become function tools taking one string ``input``."""
    tools = []
    for tool in data.get("tools", []):
        if tool.get("type") == "custom":
            tool = {"type": "function", "name": tool["name"], "parameters": _WRAPPED_INPUT} | (
                {"description": tool["description"]} if "description" in tool else {}
            )
        tools.append(tool)
    if "tools" in data:
        data["tools"] = tools
    for part in _all_parts(data):
        if part.get("kind") == "custom":
            del part["kind"]
            if part.get("type") == "tool_call":
                part["arguments"] = json.dumps({"input": part.get("arguments", "")}, separators=(",", ":"))


def compact_arguments(data: Data) -> None:
    """Arguments carried as a JSON object come back as compact JSON text (``""`` as ``{}``)."""
    for part in _all_parts(data):
        if part.get("type") == "tool_call" and part.get("kind") != "builtin":
            text = part.get("arguments", "") or "{}"
            try:
                value = json.loads(text)
            except ValueError:
                continue
            if isinstance(value, dict):
                part["arguments"] = json.dumps(value, separators=(",", ":"), ensure_ascii=False)


_EFFORT_BUDGETS = {"minimal": 1024, "low": 2048, "medium": 8192, "high": 16384, "xhigh": 32768, "max": 32768}
_MIN_BUDGET = 1024


def _effort(budget: int) -> str:
    if budget == 0:
        return "none"
    if budget < 0:
        return "medium"
    return "low" if budget <= 2048 else "medium" if budget <= 8192 else "high"


def _reasoning_as_effort(data: Data, keep: tuple[str, ...]) -> None:
    """OpenAI formats take an effort: a thinking budget becomes the effort that covers it."""
    config = data.get("reasoning")
    if config is None:
        return
    if "effort" not in config and "budget_tokens" in config:
        config["effort"] = _effort(config["budget_tokens"])
    data["reasoning"] = {k: v for k, v in config.items() if k in keep}


def _thinking_budget(config: Data) -> int | None:
    """Anthropic's budget for a reasoning config: at least 1024, an effort's table value, 0 when
    disabled, ``None`` when the config asks for nothing."""
    budget = config.get("budget_tokens")
    if config.get("enabled") is False or config.get("effort") == "none":
        return 0
    if budget is not None and budget >= 0:
        return max(budget, _MIN_BUDGET) if budget else 0
    if config.get("enabled") is None and config.get("effort") is None:
        return None
    return _EFFORT_BUDGETS.get(config.get("effort") or "medium", _EFFORT_BUDGETS["medium"])


def _anthropic_generation(data: Data) -> None:
    """Anthropic: thinking is an enabled budget (>= 1024, below ``max_tokens``, which is
    required: 4096 plus the budget when missing) or disabled, and no thinking when a tool
    choice forces a tool; with thinking on, ``temperature``
    other than 1, ``top_p`` below 0.95 and ``top_k`` are not sent."""
    config = data.pop("reasoning", None)
    budget = _thinking_budget(config) if config is not None else None
    if budget and (data.get("tool_choice") or {}).get("mode") in ("required", "named"):
        budget = None  # Anthropic cannot think while a tool is forced: the forced tool wins
    max_tokens = data.get("max_tokens")
    if max_tokens is None:
        data["max_tokens"] = _ANTHROPIC_DEFAULT_MAX_TOKENS + (budget or 0)
    elif budget and budget >= max_tokens:
        fitted = max(_MIN_BUDGET, max_tokens // 2)
        budget = fitted if fitted < max_tokens else None
    if budget == 0:
        data["reasoning"] = {"enabled": False}
    elif budget is not None:
        data["reasoning"] = {"enabled": True, "budget_tokens": budget}
        if data.get("temperature", 1) != 1:
            del data["temperature"]
        if data.get("top_p", 1) < 0.95:
            del data["top_p"]
        data.pop("top_k", None)


def _openai_schema_name(data: Data) -> None:
    """OpenAI formats require a name for a JSON schema output: ``response`` when there is none."""
    fmt = data.get("response_format")
    if fmt is not None and fmt.get("type") == "json_schema":
        fmt.setdefault("name", "response")


def _total_tokens(data: Data) -> None:
    """A reported total: input plus output when the source had none."""
    usage = data.get("usage")
    if usage is not None and "input_tokens" in usage and "output_tokens" in usage:
        usage.setdefault("total_tokens", usage["input_tokens"] + usage["output_tokens"])


def _reasoning_for_gemini(data: Data) -> None:
    """Gemini's thinkingConfig: a budget (0 = disabled) or a level, and includeThoughts (asked
    for by an enabled switch or a summary mode)."""
    config = data.get("reasoning")
    if config is None:
        return
    enabled, summary = config.pop("enabled", None), config.pop("summary", None)
    if enabled is False and "budget_tokens" not in config:
        config["budget_tokens"] = 0
    if config.get("budget_tokens") == 0:
        config["enabled"] = False
    if "budget_tokens" in config:
        config.pop("effort", None)
    if "include_thoughts" not in config and (enabled or summary is not None):
        config["include_thoughts"] = True


def _no_schema_name(data: Data) -> None:
    fmt = data.get("response_format")
    if fmt is not None:
        for key in ("name", "strict", "description"):
            fmt.pop(key, None)


def _system_turns(data: Data) -> None:
    """``developer`` instructions become ``system`` (one top-level system slot)."""
    for message in data.get("messages", []):
        if message["role"] == "developer":
            message["role"] = "system"


def _move_media_out_of_results(data: Data) -> None:
    """Chat tool messages take text only: other result content follows in a user message."""
    messages: list[Data] = []
    moved: list[Data] = []
    for message in data.get("messages", []):
        parts = message.get("parts", [])
        results = [p for p in parts if p.get("type") == "tool_result"]
        if not results and moved:
            messages.append({"role": "user", "parts": moved})
            moved = []
        for result in results:
            media = [p for p in result.get("content", []) if p.get("type") != "text"]
            if media:
                result["content"] = [p for p in result["content"] if p.get("type") == "text"] or [
                    {"type": "text", "text": _PLACEHOLDER}
                ]
                moved += [{"type": "text", "text": _MOVED.format(id=result["call_id"])}, *media]
        messages.append(message)
    if moved:
        messages.append({"role": "user", "parts": moved})
    if "messages" in data:
        data["messages"] = _merge_turns(messages)


def _project_chat(data: Data) -> None:
    """Chat: no reasoning, no is_error, no Gemini signatures; media of tool results move to a
    user message after the tool messages; a thinking budget becomes an effort; a JSON schema
    output gets a name; responses get ``created`` 0 and a total when unknown."""
    _drop_reasoning_of_other_origins(data, "openai-chat")
    _drop_fields(data, "tool_result", ("is_error",))
    _drop_fields(data, "tool_call", ("thought_signature",))
    _drop_fields(data, "text", ("thought_signature",))
    _drop_message_ids(data)
    _move_media_out_of_results(data)
    _reasoning_as_effort(data, ("effort",))
    _openai_schema_name(data)
    if "parts" in data:
        data.setdefault("created", 0)
        data.pop("status", None)
        _total_tokens(data)


_STATUS = {"max_tokens": "incomplete", "content_filter": "incomplete", "error": "failed"}
"""Responses ``status`` by stop reason (``completed`` otherwise)."""


def _project_responses(data: Data) -> None:
    """Responses: no is_error, no Gemini signatures; function tools always say ``strict``; a
    thinking budget becomes an effort; a JSON schema output gets a name.
    Requests replay only Responses reasoning. Responses keep readable reasoning of any origin
    as reasoning items (synthesized ids) and report ``created_at``, ``status`` and all usage
    details."""
    _drop_fields(data, "tool_result", ("is_error",))
    _drop_fields(data, "tool_call", ("thought_signature",))
    _drop_fields(data, "text", ("thought_signature",))
    for tool in data.get("tools", []):
        if tool.get("type") == "function":
            tool.setdefault("strict", False)
    _openai_schema_name(data)
    if "messages" in data:
        _drop_reasoning_of_other_origins(data, "openai-responses")
        _reasoning_as_effort(data, ("effort", "summary"))
        return
    data.setdefault("created", 0)
    stop = data.get("stop_reason")
    data.setdefault("status", _STATUS.get(stop, "completed"))
    _total_tokens(data)
    for part in _all_parts(data):
        if part.get("type") == "reasoning" and part.get("origin") != "openai-responses":
            kept = {k: part[k] for k in ("type", "text", "summary") if k in part}
            part.clear()
            part.update(kept, origin="openai-responses")
        if part.get("type") == "reasoning" and "encrypted" not in part:
            part.pop("id", None)


def _project_anthropic(data: Data) -> None:
    """Anthropic: only Anthropic reasoning, no Gemini signatures, custom tools as function
    tools with one ``input`` string, structured output without a name, arguments as compact JSON
    objects; generation controls as :func:`_anthropic_generation` says; responses carry no
    ``created`` and no ``total_tokens``."""
    _drop_reasoning_of_other_origins(data, "anthropic")
    _drop_fields(data, "tool_call", ("thought_signature",))
    _drop_fields(data, "text", ("thought_signature",))
    _drop_message_ids(data)
    _custom_as_function(data)
    _no_schema_name(data)
    _system_turns(data)
    compact_arguments(data)
    if "messages" in data:
        _anthropic_generation(data)
        return
    data.pop("created", None)
    data.pop("status", None)
    if data.get("usage") is not None:
        data["usage"].pop("total_tokens", None)


def _project_gemini(data: Data) -> None:
    """Gemini: only Gemini reasoning, call ids kept (``functionCall.id``), custom
    tools as function tools with one ``input`` string, structured output without a name,
    several text parts of one tool result joined by newlines, arguments as compact JSON objects;
    no parallel-call switch; responses report a total, a model and usage (zeros when unknown),
    and no creation time (``createTime`` is Vertex's)."""
    _drop_reasoning_of_other_origins(data, "gemini")
    _drop_message_ids(data)
    _custom_as_function(data)
    _no_schema_name(data)
    _system_turns(data)
    compact_arguments(data)
    _reasoning_for_gemini(data)
    if "parts" in data:
        data.pop("created", None)
        data.setdefault("model", "unknown")
        data.setdefault("usage", {"input_tokens": 0, "total_tokens": 0})
    _total_tokens(data)
    data.pop("status", None)
    data.pop("parallel_tool_calls", None)
    for tool in data.get("tools", []):
        tool.pop("strict", None)
    for part in _all_parts(data):
        if part.get("type") == "tool_result":
            texts = [p["text"] for p in part.get("content", []) if p.get("type") == "text"]
            media = [p for p in part.get("content", []) if p.get("type") != "text"]
            part["content"] = ([{"type": "text", "text": "\n".join(texts)}] if texts else []) + media


def _project_bedrock(data: Data) -> None:
    """Bedrock Converse: only Bedrock reasoning, no Gemini signatures, custom tools as function
    tools with one ``input`` string, arguments as compact JSON objects, structured output keeps
    its name and description but not ``strict``; no parallel-call switch; ``tool_choice: none``
    leaves the tools out (or, when the history holds tool parts, is dropped); thinking reaches
    only Anthropic models (not the model ``m`` of these tests) and is dropped; responses carry
    no model, creation time or status, an id derived from the body, usage without reasoning
    tokens and with a total."""
    _drop_reasoning_of_other_origins(data, "bedrock-converse")
    _drop_fields(data, "tool_call", ("thought_signature",))
    _drop_fields(data, "text", ("thought_signature",))
    _drop_message_ids(data)
    _custom_as_function(data)
    _system_turns(data)
    compact_arguments(data)
    fmt = data.get("response_format")
    if fmt is not None:
        fmt.pop("strict", None)
    data.pop("parallel_tool_calls", None)
    if "messages" in data:
        data.pop("reasoning", None)
        choice = data.get("tool_choice")
        if choice is not None and choice.get("mode") == "none":
            del data["tool_choice"]
            if not any(p.get("type") in ("tool_call", "tool_result") for p in _all_parts(data)):
                data.pop("tools", None)
        return
    for key in ("created", "status"):
        data.pop(key, None)
    data["id"] = "bedrock_*"  # derived from the body on decoding
    data.pop("model", None)
    if data.get("usage") is not None:
        data["usage"].pop("reasoning_tokens", None)
    _total_tokens(data)


def _last_tool_turn(data: Data) -> Data | None:
    """The last assistant message when tool calls were made there and something answers it."""
    turns = [m for m in data.get("messages", []) if m.get("role") not in ("system", "developer")]
    last = max((i for i, m in enumerate(turns) if m.get("role") == "assistant"), default=None)
    if last is None or last == len(turns) - 1:
        return None
    parts = turns[last].get("parts", [])
    return turns[last] if any(p.get("type") == "tool_call" for p in parts) else None


def _thinking_fallback(data: Data) -> None:
    """Anthropic from another format: no thinking when the last tool turn has no Anthropic
    thinking to replay (``toolwire.opaque``: the API refuses it otherwise)."""
    config = data.get("reasoning")
    turn = _last_tool_turn(data)
    if config is None or turn is None or not _thinking_budget(config):
        return
    if not any(p.get("type") == "reasoning" and p.get("origin") == "anthropic" for p in turn["parts"]):
        del data["reasoning"]


def _placeholder_signatures(data: Data) -> None:
    """Gemini from another format, thinking on: the first call of a model turn without a
    signature gets Google's placeholder (``toolwire.opaque``)."""
    thinking = bool(_thinking_budget(data.get("reasoning") or {}))
    if "messages" not in data or (not thinking and "gemini-3" not in (data.get("model") or "")):
        return
    for message in data["messages"]:
        calls = [p for p in message.get("parts", []) if p.get("type") == "tool_call"]
        if message.get("role") == "assistant" and calls and "thought_signature" not in calls[0]:
            calls[0]["thought_signature"] = "skip_thought_signature_validator"


FALLBACKS: dict[str, Callable[[Data], None]] = {
    "anthropic": _thinking_fallback,
    "gemini": _placeholder_signatures,
}
"""Format name -> what a request from another format gets where opaque state is missing."""


PROJECTIONS: dict[str, Callable[[Data], None]] = {
    "openai-chat": _project_chat,
    "openai-responses": _project_responses,
    "anthropic": _project_anthropic,
    "gemini": _project_gemini,
    "bedrock-converse": _project_bedrock,
}
"""Format name -> the in-place projection of a semantic form onto that format."""


def project(value: Request | Response | Data, *formats: str, exact_ids: bool = False) -> Data:
    """The semantic form of ``value`` as it survives the given formats, in order."""
    data = semantic(value, exact_ids=exact_ids)
    for i, fmt in enumerate(formats):
        if i and formats[i - 1] != fmt and fmt in FALLBACKS:
            FALLBACKS[fmt](data)
        PROJECTIONS[fmt](data)
        data = semantic(data, exact_ids=exact_ids)
    return data
