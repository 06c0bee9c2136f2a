"""``generationConfig`` <-> IR request fields.

=========================================  ==================================================
wire                                       IR
=========================================  ==================================================
``maxOutputTokens``                        ``max_tokens``
``temperature`` / ``topP`` / ``topK``      ``temperature`` / ``top_p`` / ``top_k``
``stopSequences``                          ``stop``
``responseMimeType`` + ``responseSchema``  ``response_format`` (``json_schema``; the schema
or ``responseJsonSchema``                  field and MIME type remembered; a bare JSON MIME
                                           type is ``json_object``, another one ``text``)
``thinkingConfig``                         ``reasoning`` (``thinkingBudget`` ->
                                           ``budget_tokens``, 0 also ``enabled=False``;
                                           ``thinkingLevel`` -> lower-case ``effort``;
                                           an effort of another format goes to a Gemini
                                           2.5 model as a budget (:data:`EFFORT_BUDGETS`);
                                           ``includeThoughts`` -> ``include_thoughts``)
anything else (``candidateCount``,         ``Request.extra["generationConfig"]`` (merged back
``seed``, ``responseModalities``...)       into the object for Gemini, noted elsewhere)
=========================================  ==================================================
"""

from __future__ import annotations

import importlib
import re
from typing import Any

import msgspec

from toolwire.formats._wire import as_dict, child, fail, json_type, opt_bool, opt_float, opt_int, opt_str
from toolwire.formats.gemini._keys import camel, emit, respell, split
from toolwire.ir.notes import Notes
from toolwire.ir.request import ReasoningConfig, Request, ResponseFormat

__all__ = ["decode_generation", "encode_generation"]

GC = "generationConfig"
_PATH = "$.generationConfig"
_THINKING_PATH = "$.generationConfig.thinkingConfig"
_KNOWN = frozenset(
    {
        "maxOutputTokens",
        "temperature",
        "topP",
        "topK",
        "stopSequences",
        "responseMimeType",
        "responseSchema",
        "responseJsonSchema",
        "thinkingConfig",
    }
)
_SCHEMA_FIELDS = frozenset({"responseSchema", "responseJsonSchema"})
_THINKING_KNOWN = frozenset({"includeThoughts", "thinkingBudget", "thinkingLevel"})
_JSON = "application/json"
_LEVELS = {"minimal": "MINIMAL", "low": "LOW", "medium": "MEDIUM", "high": "HIGH"}

BUDGET_ONLY_MODELS = re.compile(r"gemini-(?:1|2)\.")
"""Models that take ``thinkingBudget`` but not ``thinkingLevel`` (Gemini 2.5 and earlier;
``thinkingLevel`` came with Gemini 3, which still accepts a budget)."""

EFFORT_BUDGETS = {"minimal": 512, "low": 1024, "medium": -1, "high": 24576}
"""``thinkingBudget`` standing in for an OpenAI effort on :data:`BUDGET_ONLY_MODELS` (medium:
the dynamic budget; 24576 is the largest budget every 2.5 model takes)."""


def _stop(gc: dict[str, Any]) -> tuple[str, ...] | None:
    value = gc.get("stopSequences")
    if value is None:
        return None
    if type(value) is not list:
        fail(child(_PATH, "stopSequences"), f"expected an array, got {json_type(value)}")
    for index, item in enumerate(value):
        if type(item) is not str:
            fail(f"{_PATH}.stopSequences[{index}]", f"expected a string, got {json_type(item)}")
    return tuple(value)


def _response_format(gc: dict[str, Any]) -> tuple[ResponseFormat | None, str | None]:
    """The structured-output request and the schema field it used (an OpenAPI-subset
    ``responseSchema`` as JSON Schema, the original kept as ``~openapi``)."""
    mime = opt_str(gc, "responseMimeType", _PATH)
    field = next((k for k in ("responseJsonSchema", "responseSchema") if type(gc.get(k)) is dict), None)
    if field is not None:
        extra: dict[str, Any] = {"~field": field}
        if mime != _JSON:
            extra["~mime"] = mime
        schema = gc[field]
        if field == "responseSchema":
            converted = _from_gemini(schema, child(_PATH, field))
            if converted is not schema:
                extra["~openapi"] = schema
                schema = converted
        return ResponseFormat(type="json_schema", schema=schema, extra=extra), field
    if mime == _JSON:
        return ResponseFormat(type="json_object"), None
    if mime is not None:
        return ResponseFormat(type="text", extra={"~mime": mime}), None
    return None, None


def _reasoning(raw: Any) -> ReasoningConfig:
    path = _THINKING_PATH
    config, snake = camel(as_dict(raw, path))
    extra = split(config, _THINKING_KNOWN)
    if snake:
        extra["~snake"] = snake
    budget = opt_int(config, "thinkingBudget", path)
    level = opt_str(config, "thinkingLevel", path)
    effort = level.lower() if level is not None else None
    if level is not None and level != level.upper():
        extra["~level"] = level
    return ReasoningConfig(
        enabled=False if budget == 0 else None,
        effort=effort,
        budget_tokens=budget,
        include_thoughts=opt_bool(config, "includeThoughts", path),
        extra=extra,
    )


def decode_generation(raw: Any, extra: dict[str, Any]) -> dict[str, Any]:
    """``Request`` keyword arguments for a ``generationConfig``; the rest goes to ``extra``."""
    gc, snake = camel(as_dict(raw, _PATH))
    response_format, field = _response_format(gc)
    known = _KNOWN - _SCHEMA_FIELDS if field is None else _KNOWN - (_SCHEMA_FIELDS - {field})
    rest = split(gc, known)
    nulls = rest.pop("~null", None)
    if rest:
        extra[GC] = rest
    if nulls:
        extra["~null.generationConfig"] = nulls
    if snake:
        extra["~snake.generationConfig"] = snake
    if not gc:
        extra["~generationConfig"] = True
    thinking = gc.get("thinkingConfig")
    return {
        "max_tokens": opt_int(gc, "maxOutputTokens", _PATH),
        "temperature": opt_float(gc, "temperature", _PATH),
        "top_p": opt_float(gc, "topP", _PATH),
        "top_k": opt_int(gc, "topK", _PATH),
        "stop": _stop(gc),
        "response_format": response_format,
        "reasoning": _reasoning(thinking) if thinking is not None else None,
    }


def _from_gemini(schema: dict[str, Any], path: str) -> dict[str, Any]:
    """An OpenAPI-subset schema as JSON Schema. Every rewrite is lossless and the original is kept
    for a Gemini target, so no note is recorded (a same-format round trip stays note-free)."""
    module: Any = importlib.import_module("toolwire.schema.gemini_openapi")
    converted: dict[str, Any] = module.from_gemini(schema, Notes("drop"), path)
    return converted


def _to_gemini(schema: dict[str, Any], notes: Notes, path: str) -> dict[str, Any]:
    module: Any = importlib.import_module("toolwire.schema")
    converted: dict[str, Any] = module.to_gemini(schema, notes, path)
    return converted


def _encode_format(rf: ResponseFormat, gc: dict[str, Any], same: bool, notes: Notes, openapi: bool) -> None:
    extra = rf.extra if same else {}
    path = "$.generationConfig.responseMimeType"
    if rf.type == "text":
        if extra.get("~mime") is not None:
            gc["responseMimeType"] = extra["~mime"]
        return
    mime = extra.get("~mime", _JSON)
    if mime is not None:
        gc["responseMimeType"] = mime
    if rf.type == "json_schema" and rf.schema is not None:
        field = extra.get("~field")
        if field is not None:
            gc[field] = extra.get("~openapi", rf.schema) if field == "responseSchema" else rf.schema
        elif openapi:
            gc["responseSchema"] = _to_gemini(rf.schema, notes, child(_PATH, "responseSchema"))
        else:
            gc["responseJsonSchema"] = rf.schema
    if not same:
        if rf.name is not None:
            notes.info(path, "dropped", f"response schema name {rf.name!r}")
        if rf.description is not None:
            notes.add(path, "dropped", "response schema description")
        emit({}, rf.extra, False, notes, path)


def _budget_only(r: ReasoningConfig, same: bool, model: str | None) -> bool:
    """Whether an effort of another format must go as a budget (a Gemini 2.5 or older model)."""
    if same or r.budget_tokens is not None or r.effort in (None, "none"):
        return False
    return model is not None and BUDGET_ONLY_MODELS.search(model) is not None


def _effort_budget(effort: str, notes: Notes) -> int:
    budget = EFFORT_BUDGETS.get(effort, EFFORT_BUDGETS["high"])
    notes.add(_THINKING_PATH, "approximated", f"reasoning effort {effort!r} sent as thinkingBudget {budget}")
    return budget


def _encode_thinking(r: ReasoningConfig, same: bool, notes: Notes, model: str | None) -> dict[str, Any]:
    path = _THINKING_PATH
    if _budget_only(r, same, model):
        r = msgspec.structs.replace(r, budget_tokens=_effort_budget(r.effort or "", notes), effort=None)
    config: dict[str, Any] = {}
    if r.budget_tokens is not None:
        config["thinkingBudget"] = r.budget_tokens
    elif r.enabled is False or r.effort == "none":
        config["thinkingBudget"] = 0
    if r.effort is not None and r.effort != "none":
        if same:
            config["thinkingLevel"] = r.extra.get("~level") or r.effort.upper()
        elif "thinkingBudget" in config:
            notes.add(path, "dropped", f"reasoning effort {r.effort!r} (a thinking budget is set)")
        elif r.effort in _LEVELS:
            config["thinkingLevel"] = _LEVELS[r.effort]
        else:
            config["thinkingLevel"] = "HIGH"
            notes.add(path, "approximated", f"reasoning effort {r.effort!r} sent as thinkingLevel HIGH")
    if r.include_thoughts is not None:
        config["includeThoughts"] = r.include_thoughts
    elif not same and (r.summary is not None or r.enabled):
        config["includeThoughts"] = True
        notes.info(path, "approximated", "thought summaries requested with includeThoughts")
    return emit(config, r.extra, same, notes, path)


def encode_generation(req: Request, same: bool, notes: Notes, openapi: bool) -> dict[str, Any] | None:
    """The ``generationConfig`` object for a request, or ``None`` when it has nothing to say."""
    gc: dict[str, Any] = {}
    if req.max_tokens is not None:
        gc["maxOutputTokens"] = req.max_tokens
    if req.temperature is not None:
        gc["temperature"] = req.temperature
    if req.top_p is not None:
        gc["topP"] = req.top_p
    if req.top_k is not None:
        gc["topK"] = req.top_k
    if req.stop is not None:
        gc["stopSequences"] = list(req.stop)
    if req.response_format is not None:
        _encode_format(req.response_format, gc, same, notes, openapi)
    if req.reasoning is not None:
        gc["thinkingConfig"] = _encode_thinking(req.reasoning, same, notes, req.model)
    if not same:
        return gc or None
    extra = req.extra
    for key, value in extra.get(GC, {}).items():
        gc.setdefault(key, value)
    for key in extra.get("~null.generationConfig", ()):
        gc.setdefault(key, None)
    if not gc and not extra.get("~generationConfig"):
        return None
    return respell(gc, extra.get("~snake.generationConfig"))
