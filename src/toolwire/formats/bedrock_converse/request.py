"""Bedrock ``Converse`` request bodies <-> IR :class:`~toolwire.ir.Request`.

Named in the IR: ``messages``, ``system``, ``toolConfig``, ``inferenceConfig`` (``maxTokens``,
``temperature``, ``topP``, ``stopSequences``), ``requestMetadata`` (IR ``metadata``),
``outputConfig.textFormat`` (a JSON schema; its ``schema`` is a JSON *string* on the wire) and
``outputConfig.effort``, and from the model-specific ``additionalModelRequestFields`` the
Anthropic ``thinking`` object and ``top_k``. Everything else (``guardrailConfig``,
``promptVariables``, ``performanceConfig``, ``serviceTier``, the rest of
``additionalModelRequestFields``) is kept in ``Request.extra``.

The model and the stream flag live in the URL (``/model/{modelId}/converse`` or
``converse-stream``): :func:`decode_request` takes the model from the caller and
:func:`encode_request` does not emit it (see :func:`endpoint_path`).

For another format's request: Bedrock has no ``tool_choice: none`` (the tools are left out, an
exact equivalent, unless the history holds tool blocks, which need ``toolConfig``: then the
choice is dropped, noted), no parallel switch, no end-user id (each noted). ``thinking`` and
``top_k`` go into ``additionalModelRequestFields`` only for Anthropic models (``anthropic.`` or
``claude`` in the model id): other models' fields differ, so they are dropped, noted.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import quote

from toolwire._json import dumps_str, loads
from toolwire.errors import PayloadError
from toolwire.formats._choice import fit_tool_choice
from toolwire.formats._history import refuse_unsendable_history
from toolwire.formats._ranges import fit_request
from toolwire.formats._wire import as_dict, child, emit_extra, fail, opt_dict, split_extra
from toolwire.formats.bedrock_converse._keys import FORMAT
from toolwire.formats.bedrock_converse._messages import (
    decode_messages,
    decode_system,
    encode_messages,
    has_tool_blocks,
)
from toolwire.formats.bedrock_converse.tools import (
    decode_tool_choice,
    decode_tools,
    encode_tool_choice,
    encode_tools,
)
from toolwire.ir.base import Extra
from toolwire.ir.content import Message
from toolwire.ir.notes import Notes
from toolwire.ir.request import ReasoningConfig, Request, ResponseFormat

__all__ = ["decode_request", "encode_request", "endpoint_path", "placeholder_tools"]

_KNOWN = frozenset(
    {
        "messages",
        "system",
        "inferenceConfig",
        "toolConfig",
        "additionalModelRequestFields",
        "requestMetadata",
        "outputConfig",
    }
)
_INFERENCE = {
    "maxTokens": "max_tokens",
    "temperature": "temperature",
    "topP": "top_p",
    "stopSequences": "stop",
}


def endpoint_path(model: str, stream: bool = False) -> str:
    """The URL path of ``Converse`` (or ``ConverseStream``) for ``model`` (percent-encoded)."""
    return f"/model/{quote(model, safe='')}/{'converse-stream' if stream else 'converse'}"


# ---------------------------------------------------------------- decode


def _inference(raw: Any, extra: Extra) -> dict[str, Any]:
    body = as_dict(raw, "$.inferenceConfig")
    out: dict[str, Any] = {}
    for wire, name in _INFERENCE.items():
        value = body.get(wire)
        if value is None:
            continue
        if name == "stop":
            if type(value) is not list or not all(type(s) is str for s in value):
                fail("$.inferenceConfig.stopSequences", "expected an array of strings")
            value = tuple(value)
        elif type(value) not in (int, float) or (name == "max_tokens" and type(value) is not int):
            fail(f"$.inferenceConfig.{wire}", "expected a number")
        out[name] = value
    extra["~inference"] = split_extra(body, frozenset(w for w in _INFERENCE if body.get(w) is not None))
    return out


def _additional(raw: Any, fields: dict[str, Any], extra: Extra) -> None:
    """Lift the Anthropic ``thinking`` object and ``top_k`` out of ``additionalModelRequestFields``."""
    if type(raw) is not dict:
        extra["additionalModelRequestFields"] = raw
        return
    rest = dict(raw)
    thinking = rest.get("thinking")
    if (
        type(thinking) is dict
        and thinking.get("type") == "enabled"
        and thinking.keys() == {"type", "budget_tokens"}
    ):
        if type(thinking["budget_tokens"]) is int:
            fields["reasoning"] = ReasoningConfig(
                enabled=True, budget_tokens=rest.pop("thinking")["budget_tokens"]
            )
    elif thinking == {"type": "disabled"}:
        fields["reasoning"] = ReasoningConfig(enabled=False)
        del rest["thinking"]
    if type(rest.get("top_k")) is int:
        fields["top_k"] = rest.pop("top_k")
    if rest:
        extra["additionalModelRequestFields"] = rest
    else:
        extra["~additional"] = True  # present, and all of it named in the IR


def _output(raw: Any, fields: dict[str, Any], extra: Extra) -> None:
    body = as_dict(raw, "$.outputConfig")
    rest = dict(body)
    fmt = rest.get("textFormat")
    if type(fmt) is dict and fmt.get("type") == "json_schema" and fmt.keys() == {"type", "structure"}:
        box = fmt["structure"].get("jsonSchema") if type(fmt["structure"]) is dict else None
        schema = _schema(box)
        if schema is not None and type(box) is dict:
            fields["response_format"] = ResponseFormat(
                type="json_schema",
                name=box.get("name"),
                description=box.get("description"),
                schema=schema,
                extra={
                    "~schema": box["schema"],
                    **split_extra(box, frozenset({"schema", "name", "description"})),
                },
            )
            del rest["textFormat"]
    effort = rest.get("effort")
    if type(effort) is str:
        prior = fields.get("reasoning") or ReasoningConfig()
        fields["reasoning"] = ReasoningConfig(
            enabled=prior.enabled, budget_tokens=prior.budget_tokens, effort=rest.pop("effort")
        )
    extra["~output"] = rest


def _schema(box: Any) -> dict[str, Any] | None:
    if type(box) is not dict or type(box.get("schema")) is not str:
        return None
    if any(type(box.get(k)) not in (str, type(None)) for k in ("name", "description")):
        return None
    try:
        value = loads(box["schema"])
    except PayloadError:
        return None
    return value if type(value) is dict else None


def decode_request(payload: Any, notes: Notes, *, model: str | None = None) -> Request:
    """Decode a ``Converse`` body; ``model`` comes from the URL (or a ``modelId`` in the body)."""
    body = as_dict(payload, "$")
    extra: Extra = split_extra(body, _KNOWN)
    if model is None and type(extra.get("modelId")) is str:
        model = extra.pop("modelId")
        extra["~model"] = True
    messages: list[Message] = []
    if "system" in body:
        messages.append(decode_system(body["system"]))
        extra["~system"] = True
    if "messages" in body:
        messages.extend(decode_messages(body["messages"]))
    else:
        extra["~messages"] = False
    fields: dict[str, Any] = {}
    if "inferenceConfig" in body:
        fields.update(_inference(body["inferenceConfig"], extra))
    if "additionalModelRequestFields" in body:
        _additional(body["additionalModelRequestFields"], fields, extra)
    if "outputConfig" in body:
        _output(body["outputConfig"], fields, extra)
    config = opt_dict(body, "toolConfig", "$")
    if config is not None:
        extra["~tools"] = split_extra(config, frozenset({"tools", "toolChoice"}))
        if "tools" in config:
            fields["tools"] = decode_tools(config["tools"], notes, "$.toolConfig.tools")
        else:
            extra["~tools"]["~no_tools"] = True
        if config.get("toolChoice") is not None:
            fields["tool_choice"] = decode_tool_choice(config["toolChoice"])
    metadata = opt_dict(body, "requestMetadata", "$")
    return Request(
        messages=tuple(messages), model=model, metadata=metadata, origin=FORMAT, extra=extra, **fields
    )


# ---------------------------------------------------------------- encode


def _is_anthropic(model: str | None) -> bool:
    return model is not None and ("anthropic." in model or "claude" in model)


def _encode_inference(req: Request, same: bool) -> dict[str, Any] | None:
    out: dict[str, Any] = {}
    for wire, name in _INFERENCE.items():
        value = getattr(req, name)
        if value is not None:
            out[wire] = list(value) if name == "stop" else value
    if same:
        hint = req.extra.get("~inference")
        if hint is None:
            return out or None
        out.update(hint)
        return out
    return out or None


def _thinking(req: Request, notes: Notes) -> dict[str, Any] | None:
    reasoning = req.reasoning
    if reasoning is None or reasoning.enabled is False:
        return None
    budget = reasoning.budget_tokens
    if budget is None:
        if reasoning.enabled or reasoning.effort is not None:
            notes.add("$.reasoning", "dropped", "reasoning without a token budget has no Bedrock field")
        return None
    if not _is_anthropic(req.model):
        notes.add(
            "$.reasoning",
            "dropped",
            f"thinking budget: model {req.model!r} is not an Anthropic model on Bedrock",
        )
        return None
    return {"type": "enabled", "budget_tokens": budget}


def _additional_out(req: Request, same: bool, notes: Notes) -> Any:
    if same:
        rest = req.extra.get("additionalModelRequestFields", {} if req.extra.get("~additional") else None)
        if type(rest) is not dict:
            return rest
        out = dict(rest)
        if req.reasoning is not None and req.reasoning.enabled is not None:
            out["thinking"] = (
                {"type": "enabled", "budget_tokens": req.reasoning.budget_tokens}
                if req.reasoning.enabled
                else {"type": "disabled"}
            )
        if req.top_k is not None:
            out["top_k"] = req.top_k
        return out
    out = {}
    thinking = _thinking(req, notes)
    if thinking is not None:
        out["thinking"] = thinking
    if req.top_k is not None:
        if _is_anthropic(req.model):
            out["top_k"] = req.top_k
        else:
            notes.add(
                "$.top_k", "dropped", f"top_k: model {req.model!r} is not an Anthropic model on Bedrock"
            )
    return out or None


def _output_out(req: Request, same: bool, notes: Notes) -> dict[str, Any] | None:
    out: dict[str, Any] = dict(req.extra.get("~output", {})) if same else {}
    fmt = req.response_format
    if fmt is not None and fmt.type == "json_schema" and fmt.schema is not None:
        box: dict[str, Any] = {"schema": fmt.extra.get("~schema") if same else dumps_str(fmt.schema)}
        if fmt.name is not None:
            box["name"] = fmt.name
        if fmt.description is not None:
            box["description"] = fmt.description
        if same:
            emit_extra(box, fmt.extra, True, notes, "$.response_format")
        elif fmt.strict is not None:
            notes.info(
                "$.response_format.strict",
                "dropped",
                "the strict flag (Bedrock's structured output always holds to the schema)",
            )
        out["textFormat"] = {"type": "json_schema", "structure": {"jsonSchema": box}}
    elif fmt is not None and fmt.type != "text":
        notes.add("$.response_format", "dropped", f"response format {fmt.type!r} has no Bedrock equivalent")
    if same and req.reasoning is not None and req.reasoning.effort is not None:
        out["effort"] = req.reasoning.effort
    return out or (out if same and "~output" in req.extra else None)


def _tool_config(
    req: Request, messages: list[dict[str, Any]], same: bool, notes: Notes
) -> dict[str, Any] | None:
    hint = req.extra.get("~tools") if same else None
    if not req.tools and hint is None:
        return None
    choice = req.tool_choice
    if not same and choice is not None and choice.mode == "none":
        if not has_tool_blocks(messages):
            notes.info("$.tool_choice", "approximated", "tool_choice none sent as a request without tools")
            return None
        notes.add("$.tool_choice", "dropped", "Bedrock has no tool_choice none (the history needs the tools)")
        choice = None
    out: dict[str, Any] = {}
    if not (hint or {}).get("~no_tools"):
        out["tools"] = encode_tools(req.tools, notes, "$.tools", same=same)
    if choice is not None:
        wire = encode_tool_choice(choice, req.parallel_tool_calls, notes, same=same)
        if wire is not None:
            out["toolChoice"] = wire
    elif req.parallel_tool_calls is not None and not same:
        notes.add("$.parallel_tool_calls", "dropped", "Bedrock has no switch for parallel tool calls")
    if hint:
        out.update((k, v) for k, v in hint.items() if k[:1] != "~")
    if not same and not out["tools"]:
        return None
    return out


def encode_request(req: Request, notes: Notes) -> dict[str, Any]:
    """Encode an IR request as a ``Converse`` body (no ``modelId``: it belongs in the URL)."""
    same = req.origin == FORMAT
    if not same:
        refuse_unsendable_history(req, FORMAT)
        req = fit_request(req, FORMAT, notes)
        req = fit_tool_choice(req, notes)
    system, messages = encode_messages(req.messages, same, notes)
    out: dict[str, Any] = {}
    if messages or req.extra.get("~messages", True) or not same:
        out["messages"] = messages
    if (same and req.extra.get("~system")) or (not same and system):
        out["system"] = system or []
    inference = _encode_inference(req, same)
    if inference is not None:
        out["inferenceConfig"] = inference
    tools = _tool_config(req, messages, same, notes)
    if tools is not None:
        out["toolConfig"] = tools
    elif not same and has_tool_blocks(messages):
        out["toolConfig"] = {"tools": _placeholder_tools(messages)}
        notes.add(
            "$.tools",
            "synthesized",
            "tool definitions for the history's tool calls (Bedrock requires toolConfig)",
            target="$.toolConfig.tools",
        )
    additional = _additional_out(req, same, notes)
    if additional is not None or (same and "additionalModelRequestFields" in req.extra):  # null kept
        out["additionalModelRequestFields"] = additional
    output = _output_out(req, same, notes)
    if output is not None:
        out["outputConfig"] = output
    metadata = req.metadata if same or req.metadata is None else _metadata(req.metadata, notes)
    if metadata is not None and (same or metadata):  # Bedrock: at least one entry
        out["requestMetadata"] = metadata
    if same:
        if req.extra.get("~model") and req.model is not None:
            out["modelId"] = req.model
        emit_extra(
            out, {k: v for k, v in req.extra.items() if k != "additionalModelRequestFields"}, True, notes, "$"
        )
    else:
        if req.user is not None:
            notes.add("$.user", "dropped", "end-user id")
        emit_extra(out, req.extra, False, notes, "$")
    return out


def _metadata(metadata: dict[str, Any], notes: Notes) -> dict[str, str]:
    """``requestMetadata`` takes string values only: others are dropped, noted."""
    out: dict[str, str] = {}
    for key, value in metadata.items():
        if type(value) is str:
            out[key] = value
        else:
            notes.add(child("$.metadata", key), "dropped", "a metadata value that is not a string")
    return out


def _placeholder_tools(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A minimal tool definition per tool name the history calls (Bedrock refuses tool blocks without
    ``toolConfig``); the model is told nothing new: each takes any object."""
    names: dict[str, None] = {}
    for message in messages:
        for block in message["content"]:
            if "toolUse" in block:
                names[block["toolUse"]["name"]] = None
    return placeholder_tools(names or ("tool",))


def placeholder_tools(names: Iterable[str]) -> list[dict[str, Any]]:
    """The stand-in ``toolSpec`` of each of ``names``, in order: any object as input (the
    encoder's, and the pair lane writer's for the calls it wrote)."""
    return [{"toolSpec": {"name": n, "inputSchema": {"json": {"type": "object"}}}} for n in names]
