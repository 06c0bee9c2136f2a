"""JSON Schema generation from pydantic with the noise removed (imports pydantic: load lazily).

pydantic titles every property (``"title": "City"``) and every model, dataclass,
TypedDict and enum (``"title": "Address"``). Those automatic titles repeat the name
and cost tokens, so they are left out; titles written explicitly (``Field(title=...)``,
``model_config["title"]``) are kept. Keys stay in generation order (``type`` first)
instead of pydantic's alphabetical sort.
"""

from __future__ import annotations

from typing import Any

from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode, JsonSchemaValue
from pydantic_core import CoreSchema, core_schema

__all__ = ["MinimalJsonSchema", "tidy_root"]

_ROOT_ORDER = ("type", "properties", "required")


class MinimalJsonSchema(GenerateJsonSchema):
    """A :class:`GenerateJsonSchema` without automatic titles and without key sorting."""

    _enum_names: frozenset[str] = frozenset()

    def generate(self, schema: CoreSchema, mode: JsonSchemaMode = "validation") -> JsonSchemaValue:
        """Generate, then drop the class-name titles pydantic forces onto enum definitions."""
        result = super().generate(schema, mode)
        for definition in result.get("$defs", {}).values():
            if "enum" in definition and definition.get("title") in self._enum_names:
                del definition["title"]
        return result

    def sort(self, value: JsonSchemaValue, parent_key: str | None = None) -> JsonSchemaValue:
        """Keep generation order (``type`` before its constraints)."""
        return value

    def field_title_should_be_set(self, schema: Any) -> bool:
        """Never derive a title from a field name."""
        return False

    def model_schema(self, schema: core_schema.ModelSchema) -> JsonSchemaValue:
        """A model's schema without the title pydantic derives from the class name."""
        return _untitled(super().model_schema(schema), schema)

    def dataclass_schema(self, schema: core_schema.DataclassSchema) -> JsonSchemaValue:
        """A dataclass's schema without the class-name title."""
        return _untitled(super().dataclass_schema(schema), schema)

    def typed_dict_schema(self, schema: core_schema.TypedDictSchema) -> JsonSchemaValue:
        """A TypedDict's schema without the class-name title."""
        return _untitled(super().typed_dict_schema(schema), schema)

    def enum_schema(self, schema: core_schema.EnumSchema) -> JsonSchemaValue:
        """An enum's schema (pydantic adds the class-name title later; :meth:`generate` removes it)."""
        self._enum_names = self._enum_names | {schema["cls"].__name__}
        return _untitled(super().enum_schema(schema), schema)


def _untitled(json_schema: JsonSchemaValue, schema: CoreSchema) -> JsonSchemaValue:
    cls = schema.get("cls")
    if cls is not None and json_schema.get("title") == getattr(cls, "__name__", None):
        del json_schema["title"]
    return json_schema


def tidy_root(schema: dict[str, Any]) -> dict[str, Any]:
    """The root object schema in a stable order: type, properties, required, the rest, ``$defs`` last.

    An empty ``required`` is left out (as pydantic does); ``properties`` is always present.
    """
    out: dict[str, Any] = {"type": "object", "properties": schema.get("properties", {})}
    if schema.get("required"):
        out["required"] = schema["required"]
    for key, value in schema.items():
        if key not in _ROOT_ORDER and key != "$defs":
            out[key] = value
    if "$defs" in schema:
        out["$defs"] = schema["$defs"]
    return out
