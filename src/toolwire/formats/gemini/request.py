"""Gemini ``GenerateContentRequest`` bodies <-> IR :class:`~toolwire.ir.Request`.

Named in the IR: ``contents`` and ``systemInstruction`` (messages), ``tools`` /
``toolConfig``, and ``generationConfig``'s token limit, sampling, stop sequences, structured
output and thinking fields (see ``_generation``). Everything else (``safetySettings``,
``cachedContent``, ``labels``, other ``generationConfig`` fields) is kept in
``Request.extra``. The model is not in the body: :func:`decode_request` takes it from the
caller (the URL), :func:`encode_request` does not emit it (see :func:`endpoint_path`).
Both camelCase and snake_case field names are accepted; the spelling is remembered.
"""

from __future__ import annotations

from typing import Any

from toolwire.errors import ConversionError
from toolwire.formats import ToolConfig
from toolwire.formats._choice import fit_tool_choice
from toolwire.formats._history import refuse_unsendable_history
from toolwire.formats._ranges import fit_request
from toolwire.formats._wire import as_dict
from toolwire.formats.gemini._encode_parts import Ctx
from toolwire.formats.gemini._generation import decode_generation, encode_generation
from toolwire.formats.gemini._keys import camel, emit, split
from toolwire.formats.gemini._messages import decode_contents, decode_system, encode_messages
from toolwire.formats.gemini.tools import SchemaMode, decode_tool_choice, decode_tools, encode_config
from toolwire.ir.content import Message
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request

__all__ = ["decode_request", "encode_request", "endpoint_path", "model_path"]

_KNOWN = frozenset({"contents", "systemInstruction", "tools", "toolConfig", "generationConfig"})


def model_path(model: str) -> str:
    """The resource name of a model: ``models/<model>`` (kept when already prefixed)."""
    return model if model.startswith(("models/", "tunedModels/")) else f"models/{model}"


def endpoint_path(model: str, stream: bool = False) -> str:
    """The URL path (after the API version) of ``generateContent`` or its SSE stream."""
    if stream:
        return f"{model_path(model)}:streamGenerateContent?alt=sse"
    return f"{model_path(model)}:generateContent"


def decode_request(payload: Any, notes: Notes, *, model: str | None = None) -> Request:
    """Decode a ``generateContent`` body; ``model`` comes from the URL."""
    body, snake = camel(as_dict(payload, "$"))
    extra = split(body, _KNOWN)
    if snake:
        extra["~snake"] = snake
    if model is None and type(extra.get("model")) is str:
        model = extra.pop("model")
        extra["~model"] = True
    messages: list[Message] = []
    system = body.get("systemInstruction")
    if system is not None:
        messages.append(decode_system(system))
    contents = body.get("contents")
    if contents is not None:
        decoded, single = decode_contents(contents)
        messages.extend(decoded)
        if single:
            extra["~single.contents"] = True
    else:
        extra["~contents"] = False
    tools = body.get("tools")
    if tools == []:
        extra["~tools"] = True
    elif type(tools) is dict:
        extra["~single.tools"] = True
    config = body.get("toolConfig")
    generation = body.get("generationConfig")
    fields = decode_generation(generation, extra) if generation is not None else {}
    return Request(
        messages=tuple(messages),
        model=model,
        tools=decode_tools(tools, notes, "$.tools") if tools is not None else (),
        tool_choice=decode_tool_choice(config) if config is not None else None,
        origin="gemini",
        extra=extra,
        **fields,
    )


def _note_unsupported(req: Request, notes: Notes) -> None:
    if req.user is not None:
        notes.add("$.user", "dropped", "end-user id")
    if req.metadata:
        notes.add("$.metadata", "dropped", "request metadata")


def _check_turn_order(contents: list[dict[str, Any]]) -> None:
    """Gemini answers 400 to a request without any turn."""
    if not contents:
        raise ConversionError(
            "Gemini needs at least one user or model turn in 'contents'; the request has only "
            "system instructions",
            path="$.messages",
        )


def encode_request(req: Request, notes: Notes, *, schema_mode: SchemaMode = "json") -> dict[str, Any]:
    """Encode an IR request as a ``generateContent`` body (no ``model``: it belongs in the URL).

    ``schema_mode`` decides how tool and response schemas of other formats are sent:
    ``"json"`` (default) as ``parametersJsonSchema`` / ``responseJsonSchema`` unchanged,
    ``"openapi"`` as ``parameters`` / ``responseSchema`` converted to Gemini's OpenAPI subset.
    """
    same = req.origin == "gemini"
    if not same:
        refuse_unsendable_history(req, "gemini")
        req = fit_request(req, "gemini", notes)
        req = fit_tool_choice(req, notes)
    extra = req.extra if same else {}
    system, contents = encode_messages(req.messages, Ctx(same, notes))
    if not same:
        _check_turn_order(contents)
    out: dict[str, Any] = {}
    if contents or extra.get("~contents", True):
        out["contents"] = contents[0] if extra.get("~single.contents") and len(contents) == 1 else contents
    if system is not None:
        out["systemInstruction"] = system
    cfg = ToolConfig(
        tools=req.tools, tool_choice=req.tool_choice, parallel_tool_calls=req.parallel_tool_calls
    )
    out.update(encode_config(cfg, notes, same=same, schema_mode=schema_mode))
    if extra.get("~tools"):
        out.setdefault("tools", [])
    elif extra.get("~single.tools") and type(out.get("tools")) is list and len(out["tools"]) == 1:
        out["tools"] = out["tools"][0]
    generation = encode_generation(req, same, notes, schema_mode == "openapi")
    if generation is not None:
        out["generationConfig"] = generation
    if same:
        if extra.get("~model") and req.model is not None:
            out["model"] = req.model
    else:
        _note_unsupported(req, notes)
    return emit(out, req.extra, same, notes, "$")
