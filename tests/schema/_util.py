"""Helpers shared by the schema tests: lossy-note tracking, the null projection, OpenAPI -> JSON Schema."""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator

from toolwire.ir.notes import Note, NoteKind, Notes, Policy
from toolwire.schema import render_path, resolve_ref


class Tracker(Notes):
    """Notes that remember which ones were lossy (``add``) rather than ``info``."""

    def __init__(self, policy: Policy = "drop") -> None:
        super().__init__(policy)
        self.lossy: list[Note] = []

    def add(self, path: str, kind: NoteKind, message: str) -> None:
        super().add(path, kind, message)
        self.lossy.append(self.items[-1])

    def kinds(self) -> set[str]:
        return {note.kind for note in self.lossy}


def project(instance: Any, schema: Any, root: Any, validator: Draft202012Validator) -> Any:
    """The null projection onto an OpenAI strict schema: absent properties become ``None`` and
    undeclared keys are removed (branches of ``anyOf`` are tried in order)."""
    if type(schema) is not dict:
        return instance
    if "$ref" in schema:
        return project(instance, resolve_ref(root, schema["$ref"], "$")[0], root, validator)
    if "anyOf" in schema:
        for branch in schema["anyOf"]:
            candidate = project(instance, branch, root, validator)
            if validator.evolve(schema=branch).is_valid(candidate):
                return candidate
        return instance
    if type(instance) is dict and "properties" in schema:
        props = schema["properties"]
        return {key: project(instance[key], sub, root, validator) if key in instance else None
                for key, sub in props.items()}  # fmt: skip
    if type(instance) is list and isinstance(schema.get("items"), dict):
        return [project(item, schema["items"], root, validator) for item in instance]
    return instance


def openapi_to_json_schema(node: Any) -> Any:
    """A Gemini OpenAPI-subset schema as JSON Schema (``nullable`` -> a null type)."""
    if type(node) is not dict:
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "properties":
            out[key] = {name: openapi_to_json_schema(sub) for name, sub in value.items()}
        elif key == "items":
            out[key] = openapi_to_json_schema(value)
        elif key == "anyOf":
            out[key] = [openapi_to_json_schema(sub) for sub in value]
        elif key not in ("nullable", "propertyOrdering", "example"):
            out[key] = value
    if node.get("nullable") is True:
        if "type" in out:
            out["type"] = [out["type"], "null"]
            if "enum" in out:
                out["enum"] = [*out["enum"], None]
        else:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


def assert_gemini_shape(schema: Any) -> None:
    """Every node of a converted schema uses only fields of Gemini's proto Schema message."""
    from toolwire.schema import GEMINI_KEYWORDS, walk

    for node, loc in walk(schema):
        assert type(node) is dict, render_path(loc)
        assert set(node) <= GEMINI_KEYWORDS, (render_path(loc), set(node) - GEMINI_KEYWORDS)
        assert type(node.get("type", "")) is str, render_path(loc)
        assert all(type(value) is str for value in node.get("enum", ())), render_path(loc)


def assert_openai_strict_shape(schema: Any) -> None:
    """Every node of a converted schema is in the strict subset; every object is closed and complete."""
    from toolwire.schema import OPENAI_STRICT_FORMATS, OPENAI_STRICT_KEYWORDS, walk

    for node, loc in walk(schema):
        if type(node) is bool:
            assert node is False and render_path(loc).endswith("additionalProperties"), render_path(loc)
            continue
        assert set(node) <= OPENAI_STRICT_KEYWORDS, (render_path(loc), set(node) - OPENAI_STRICT_KEYWORDS)
        kinds = node.get("type")
        if kinds == "object" or (type(kinds) is list and "object" in kinds):
            assert node["additionalProperties"] is False, render_path(loc)
            assert sorted(node["required"]) == sorted(node["properties"]), render_path(loc)
        assert node.get("format", "date") in OPENAI_STRICT_FORMATS, render_path(loc)
        if "$ref" in node:
            assert len(node) == 1, render_path(loc)
