"""Hypothesis strategies: random JSON Schemas from a small grammar, and instances valid under them.

The grammar covers what tool schemas use: typed leaves with constraints, enums and consts,
nullable type arrays, arrays (also tuples), objects with optional properties and every kind of
``additionalProperties``, ``anyOf``/``oneOf``/``allOf``, ``$ref`` to ``$defs`` (acyclic ones, a
recursive tree, and the root itself). Instances are built by interpreting the schema; callers
still filter them with ``jsonschema`` (the generator aims at valid, the validator decides).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from toolwire.schema import resolve_ref

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.sampled_from(["p", "q", "r s"]))
NAMES = ["a", "b", "c", "d", "x y"]
_FORMATS = {"date": "2024-05-06", "email": "a@b.co", "uri": "https://x.example/y"}
_TREE = {
    "type": "object",
    "properties": {
        "value": {"type": "integer"},
        "children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}},
    },
    "required": ["value"],
}


def validator(schema: Any) -> Draft202012Validator:
    """A 2020-12 validator (formats not asserted)."""
    return Draft202012Validator(schema)


def _annotate(draw: st.DrawFn, node: dict[str, Any]) -> dict[str, Any]:
    if draw(st.integers(0, 4)) == 0:
        node["description"] = "described"
    if draw(st.integers(0, 6)) == 0:
        node["title"] = "Titled"
    return node


def _string(draw: st.DrawFn) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "string"}
    style = draw(st.sampled_from(["plain", "length", "pattern", "format"]))
    if style == "length":
        node["minLength"] = draw(st.integers(0, 2))
        node["maxLength"] = node["minLength"] + draw(st.integers(0, 4))
    elif style == "pattern":
        node["pattern"] = draw(st.sampled_from(["^[a-c]*$", "(?=a)a*"]))
    elif style == "format":
        node["format"] = draw(st.sampled_from(sorted(_FORMATS)))
    return node


def _integer(draw: st.DrawFn) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "integer"}
    if draw(st.booleans()):
        node["minimum"] = draw(st.integers(-3, 0))
    if draw(st.booleans()):
        node["maximum"] = draw(st.integers(1, 6))
    if draw(st.integers(0, 3)) == 0:
        node["exclusiveMinimum"] = -5
    if draw(st.integers(0, 3)) == 0:
        node["multipleOf"] = 2
    return node


def _leaf(draw: st.DrawFn) -> Any:
    kind = draw(
        st.sampled_from(
            [
                "string",
                "integer",
                "number",
                "boolean",
                "null",
                "enum",
                "senum",
                "const",
                "nullable",
                "multi",
                "any",
            ]
        )
    )
    if kind == "string":
        return _string(draw)
    if kind == "integer":
        return _integer(draw)
    if kind == "number":
        return {"type": "number", "minimum": -1.5, "exclusiveMaximum": 9.5}
    if kind in ("boolean", "null"):
        return {"type": kind}
    if kind == "enum":
        return {"enum": draw(st.lists(SCALARS, min_size=1, max_size=4, unique_by=repr))}
    if kind == "senum":
        return {
            "type": "string",
            "enum": draw(st.lists(st.sampled_from(["u", "v", "w"]), min_size=1, unique=True)),
        }
    if kind == "const":
        return {"const": draw(SCALARS)}
    if kind == "nullable":
        return {"type": [draw(st.sampled_from(["string", "integer"])), "null"]}
    if kind == "multi":
        return {"type": ["string", "integer"], "minLength": 1, "minimum": 0}
    return draw(st.sampled_from([{}, True]))


@st.composite
def nodes(draw: st.DrawFn, depth: int, defs: tuple[str, ...]) -> Any:
    """One subschema, at most ``depth`` levels of containers deep, possibly referencing ``defs``."""
    kinds = ["leaf", "leaf", "leaf"]
    if depth > 0:
        kinds += ["array", "tuple", "object", "object", "anyOf", "oneOf", "allOf"]
    if defs:
        kinds += ["ref", "ref"]
    kind = draw(st.sampled_from(kinds))
    if kind == "leaf":
        node = _leaf(draw)
        return _annotate(draw, node) if type(node) is dict and node else node
    if kind == "ref":
        node = {"$ref": f"#/$defs/{draw(st.sampled_from(defs))}"}
        return _annotate(draw, node)
    if kind in ("anyOf", "oneOf"):
        branches = draw(st.lists(nodes(depth - 1, defs), min_size=1, max_size=3))
        return _annotate(draw, {kind: branches})
    if kind == "allOf":
        return draw(_all_of(depth, defs))
    if kind == "object":
        return draw(objects(depth - 1, defs))
    return _annotate(draw, draw(_array(depth - 1, defs, kind == "tuple")))


@st.composite
def _array(draw: st.DrawFn, depth: int, defs: tuple[str, ...], tuple_: bool) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "array"}
    if tuple_:
        node["prefixItems"] = draw(st.lists(nodes(depth, defs), min_size=1, max_size=2))
        rest = draw(st.sampled_from(["absent", "false", "schema"]))
        if rest != "absent":
            node["items"] = False if rest == "false" else draw(nodes(depth, defs))
        return node
    node["items"] = draw(nodes(depth, defs))
    if draw(st.booleans()):
        node["minItems"] = draw(st.integers(0, 1))
    if draw(st.booleans()):
        node["maxItems"] = draw(st.integers(2, 3))
    return node


@st.composite
def objects(draw: st.DrawFn, depth: int, defs: tuple[str, ...], names: list[str] | None = None) -> Any:
    """An object schema with optional and required properties."""
    pool = names if names is not None else NAMES
    keys = draw(st.lists(st.sampled_from(pool), min_size=0 if names is None else 1, max_size=3, unique=True))
    props = {key: draw(nodes(depth, defs)) for key in keys}
    node: dict[str, Any] = {"type": "object", "properties": props}
    required = [key for key in keys if draw(st.booleans())]
    if required or draw(st.booleans()):
        node["required"] = required
    extra = draw(st.sampled_from(["absent", "absent", "absent", "false", "true", "schema", "pattern"]))
    if extra == "false":
        node["additionalProperties"] = False
    elif extra == "true":
        node["additionalProperties"] = True
    elif extra == "schema":
        node["additionalProperties"] = {"type": "integer"}
    elif extra == "pattern":
        node["patternProperties"] = {"^z": {"type": "integer"}}
    return _annotate(draw, node)


@st.composite
def _all_of(draw: st.DrawFn, depth: int, defs: tuple[str, ...]) -> dict[str, Any]:
    split = draw(st.integers(1, len(NAMES) - 1))
    left = draw(objects(depth - 1, defs, NAMES[:split]))
    right = draw(objects(depth - 1, defs, NAMES[split:]))
    return {"allOf": [left, right]}


@st.composite
def root_schemas(draw: st.DrawFn, max_depth: int = 2) -> dict[str, Any]:
    """A root object schema, with acyclic ``$defs``, maybe a recursive tree and a root self-reference."""
    defs: dict[str, Any] = {}
    for index in range(draw(st.integers(0, 2))):
        defs[f"D{index}"] = draw(nodes(1, tuple(defs)))
    if draw(st.integers(0, 3)) == 0:
        defs["Tree"] = _TREE
    root: dict[str, Any] = draw(objects(max_depth, tuple(defs)))
    if draw(st.integers(0, 4)) == 0:
        root["properties"] = {**root["properties"], "self": {"anyOf": [{"$ref": "#"}, {"type": "null"}]}}
    if defs:
        root["$defs"] = defs
    return root


# ---------------------------------------------------------------------- instances


@st.composite
def instances(draw: st.DrawFn, schema: Any, root: Any = None, depth: int = 0) -> Any:
    """A value meant to be valid under ``schema`` (whose references resolve in ``root``)."""
    root = schema if root is None else root
    if schema is True or schema == {} or depth > 12:
        return draw(SCALARS)
    if "$ref" in schema:
        target = resolve_ref(root, schema["$ref"], "$")[0]
        return draw(instances(target, root, depth + 1))
    if "allOf" in schema:
        out: dict[str, Any] = {}
        for branch in schema["allOf"]:
            out.update(draw(instances(branch, root, depth + 1)))
        return out
    for key in ("anyOf", "oneOf"):
        if key in schema:
            branches = schema[key]
            if depth > 3 and {"type": "null"} in branches:
                return None
            return draw(instances(draw(st.sampled_from(branches)), root, depth + 1))
    if "enum" in schema:
        return draw(st.sampled_from(schema["enum"]))
    if "const" in schema:
        return schema["const"]
    kind = schema.get("type")
    if type(kind) is list:
        kind = draw(st.sampled_from(kind))
    return _BUILDERS.get(kind, _any)(draw, schema, root, depth)


def _any(draw: st.DrawFn, schema: Any, root: Any, depth: int) -> Any:
    return draw(SCALARS)


def _str(draw: st.DrawFn, schema: Any, root: Any, depth: int) -> Any:
    if schema.get("format") in _FORMATS:
        return _FORMATS[schema["format"]]
    low = schema.get("minLength", 0)
    return draw(st.text(alphabet="abc", min_size=low, max_size=schema.get("maxLength", low + 4)))


def _int(draw: st.DrawFn, schema: Any, root: Any, depth: int) -> Any:
    low = max(schema.get("minimum", -10), schema.get("exclusiveMinimum", -11) + 1)
    value = draw(st.integers(low, schema.get("maximum", low + 10)))
    step = schema.get("multipleOf", 1)
    return value - value % step if value - value % step >= low else value - value % step + step


def _num(draw: st.DrawFn, schema: Any, root: Any, depth: int) -> Any:
    return draw(st.floats(-1.5, 9.0, allow_nan=False))


def _array_value(draw: st.DrawFn, schema: Any, root: Any, depth: int) -> Any:
    if "prefixItems" in schema:
        out = [draw(instances(item, root, depth + 1)) for item in schema["prefixItems"]]
        rest = schema.get("items", True)
        if rest is not False and draw(st.booleans()):
            out.append(draw(instances(rest, root, depth + 1)))
        return out
    low = schema.get("minItems", 0)
    count = low if depth > 3 else draw(st.integers(low, schema.get("maxItems", 3)))
    return [draw(instances(schema["items"], root, depth + 1)) for _ in range(count)]


def _object_value(draw: st.DrawFn, schema: Any, root: Any, depth: int) -> Any:
    required = schema.get("required", [])
    out = {
        key: draw(instances(sub, root, depth + 1))
        for key, sub in schema.get("properties", {}).items()
        if key in required or (depth < 4 and draw(st.booleans()))
    }
    extra = schema.get("additionalProperties", True)
    if extra is not False and draw(st.integers(0, 3)) == 0:
        pattern = schema.get("patternProperties", {}).get("^z")
        sub = pattern if pattern is not None else extra
        out["zz"] = 1 if sub is True else draw(instances(sub, root, depth + 1))
    return out


_BUILDERS = {
    "string": _str,
    "integer": _int,
    "number": _num,
    "boolean": lambda draw, schema, root, depth: draw(st.booleans()),
    "null": lambda draw, schema, root, depth: None,
    "array": _array_value,
    "object": _object_value,
}
