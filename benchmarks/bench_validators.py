"""JSON Schema validators for tool arguments: what each costs, and which 2020-12 keywords it honors.

Tools registered by schema (``Toolbox.register_schema``) validate every call's arguments, so the
validator is compiled once per tool at registration and then runs once per tool call. Candidates:

* ``jsonschema``: the reference implementation, pure Python (plus ``referencing`` and ``rpds-py``);
* ``fastjsonschema``: generates and compiles Python code per schema; drafts 4, 6 and 7 only;
* ``jsonschema-rs``: Rust, one wheel with no dependencies; drafts 4 to 2020-12.

Also timed: the Toolbox before issue 17, which built a ``jsonschema`` validator on every call.
The schemas are the 128 realistic tools of ``_payloads.py``; the arguments are the emulator's
schema-built ones (valid), and the same with the first required property of the wrong type
(invalid, so the cost includes building the error). The floor is ``orjson.loads`` of the
arguments, which every call pays anyway. Formats are asserted where the candidate can.

**Target: validating a typical call costs less than parsing its arguments (ratio below 1x),
and compiling a tool's validator costs less than a millisecond.**
"""

from __future__ import annotations

import copy
import importlib
import importlib.metadata
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

from benchmarks._payloads import chat_tools
from benchmarks._timing import median_seconds_each
from toolwire.emulator.arguments import example_arguments
from toolwire.runner import Toolbox

Check = Callable[[Any], "str | None"]
"""Validates one instance: ``None`` when valid, else the first error's message."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """One validator library: its distribution name and how to compile a schema into a check."""

    label: str
    distribution: str
    compile: Callable[[dict[str, Any]], Check]


def _jsonschema(schema: dict[str, Any]) -> Check:
    import jsonschema
    from referencing import Registry

    cls = jsonschema.Draft202012Validator
    validator = cls(schema, format_checker=cls.FORMAT_CHECKER, registry=Registry())

    def check(instance: Any) -> str | None:
        error = jsonschema.exceptions.best_match(validator.iter_errors(instance))
        return None if error is None else error.message

    return check


def _jsonschema_per_call(schema: dict[str, Any]) -> Check:
    import jsonschema

    def check(instance: Any) -> str | None:
        validator = jsonschema.Draft202012Validator(schema)
        error = jsonschema.exceptions.best_match(validator.iter_errors(instance))
        return None if error is None else error.message

    return check


def _fastjsonschema(schema: dict[str, Any]) -> Check:
    import fastjsonschema

    validate = fastjsonschema.compile(schema)

    def check(instance: Any) -> str | None:
        try:
            validate(instance)
        except fastjsonschema.JsonSchemaValueException as exc:
            return str(exc.message)
        return None

    return check


def _jsonschema_rs(schema: dict[str, Any]) -> Check:
    import jsonschema_rs

    validator = jsonschema_rs.Draft202012Validator(schema, offline=True, validate_formats=True)

    def check(instance: Any) -> str | None:
        for error in validator.iter_errors(instance):
            return str(error.message)
        return None

    return check


CANDIDATES = (
    Candidate("jsonschema, built per call (old Toolbox)", "jsonschema", _jsonschema_per_call),
    Candidate("jsonschema", "jsonschema", _jsonschema),
    Candidate("fastjsonschema", "fastjsonschema", _fastjsonschema),
    Candidate("jsonschema-rs", "jsonschema-rs", _jsonschema_rs),
)
"""The validators compared, in table order."""

_ITEM = {"type": "object", "properties": {"lat": {"type": "number"}}, "required": ["lat"]}
_TREE = {
    "$defs": {"node": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#"}}}}},
    "$ref": "#/$defs/node",
}

FEATURES: dict[str, tuple[dict[str, Any], Any, Any]] = {
    "$defs+$ref": (
        {"$defs": {"P": _ITEM}, "type": "object", "properties": {"p": {"$ref": "#/$defs/P"}}},
        {"p": {"lat": 1.5}},
        {"p": {"lat": "north"}},
    ),
    "recursive $ref": (_TREE, {"kids": [{"kids": []}]}, {"kids": [{"kids": 3}]}),
    "anyOf": ({"anyOf": [{"type": "string"}, {"type": "null"}]}, None, 5),
    "const": ({"const": "celsius"}, "celsius", "kelvin"),
    "format date-time": ({"type": "string", "format": "date-time"}, "2024-01-15T12:00:00Z", "tomorrow"),
    "format email": ({"type": "string", "format": "email"}, "a@example.com", "not an address"),
    "prefixItems": ({"prefixItems": [{"type": "number"}, {"type": "string"}]}, [1, "a"], ["a", 1]),
    "unevaluatedProps": (
        {"allOf": [{"properties": {"a": {}}}], "unevaluatedProperties": False},
        {"a": 1},
        {"a": 1, "b": 2},
    ),
    "dependentRequired": ({"dependentRequired": {"a": ["b"]}}, {"a": 1, "b": 2}, {"a": 1}),
}
"""Keyword checks: ``name -> (2020-12 schema, a valid instance, an invalid instance)``."""


def _broken(arguments: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """``arguments`` with the first required property given a value of the wrong type."""
    key = schema["required"][0]
    wrong: Any = 7 if schema["properties"][key].get("type") == "array" else [7]
    return {**arguments, key: wrong}


def _cases() -> list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """``(schema, valid arguments, invalid arguments)`` for each realistic tool."""
    out = []
    for tool in chat_tools(128):
        schema = tool["function"]["parameters"]
        arguments = example_arguments(schema)
        out.append((schema, arguments, _broken(arguments, schema)))
    return out


def _supports(candidate: Candidate, schema: dict[str, Any], good: Any, bad: Any) -> bool:
    try:
        check = candidate.compile({"$schema": "https://json-schema.org/draft/2020-12/schema", **schema})
        return check(good) is None and check(bad) is not None
    except Exception:
        return False


def _compile_seconds(candidate: Candidate, cases: list[Any]) -> tuple[float, float]:
    """Median seconds per tool to compile, and to compile plus validate once (fresh copies)."""
    compiles, firsts = [], []
    for _ in range(3):
        fresh = copy.deepcopy(cases)
        start = time.perf_counter()
        for schema, _, _ in fresh:
            candidate.compile(schema)
        compiles.append((time.perf_counter() - start) / len(fresh))
        fresh = copy.deepcopy(cases)
        start = time.perf_counter()
        for schema, valid, _ in fresh:
            candidate.compile(schema)(valid)
        firsts.append((time.perf_counter() - start) / len(fresh))
    return sorted(compiles)[1], sorted(firsts)[1]


def _installed(candidate: Candidate) -> str | None:
    try:
        importlib.import_module(candidate.distribution.replace("-", "_"))
        return importlib.metadata.version(candidate.distribution)
    except (ImportError, importlib.metadata.PackageNotFoundError):
        return None


def _per_call(candidates: list[Candidate], cases: list[Any]) -> dict[str, float]:
    """Median seconds per validation: valid and invalid arguments, and the floor, interleaved."""
    raws = [orjson.dumps(valid) for _, valid, _ in cases]
    fns: dict[str, Callable[[], object]] = {"floor": lambda: [orjson.loads(raw) for raw in raws]}
    box = Toolbox()
    for index, (schema, _, _) in enumerate(cases):
        box.register_schema(f"t{index}", schema, dict)
    entries = [(entry.validate, raw.decode()) for entry, raw in zip(box, raws, strict=True)]
    fns["toolbox"] = lambda: [validate(text) for validate, text in entries]
    for candidate in candidates:
        checks = [candidate.compile(schema) for schema, _, _ in cases]
        pairs = list(zip(checks, cases, strict=True))
        if any(check(valid) is not None or check(invalid) is None for check, (_, valid, invalid) in pairs):
            raise AssertionError(f"{candidate.label} disagrees with the emulator's arguments")
        fns[f"{candidate.label}/valid"] = lambda p=pairs: [check(c[1]) for check, c in p]
        fns[f"{candidate.label}/invalid"] = lambda p=pairs: [check(c[2]) for check, c in p]
    return {label: seconds / len(cases) for label, seconds in median_seconds_each(fns).items()}


def run() -> dict[str, float]:
    """Print the cost table and the keyword table; return µs per valid call (and ``toolbox``)."""
    cases = _cases()
    candidates = [c for c in CANDIDATES if _installed(c)]
    missing = sorted({c.distribution for c in CANDIDATES} - {c.distribution for c in candidates})
    size = sum(len(orjson.dumps(valid)) for _, valid, _ in cases) // len(cases)
    print(f"validators: {len(cases)} realistic tool schemas, arguments of {size} bytes on average")
    if missing:
        print(f"  not installed, skipped: {', '.join(missing)}")
    times = _per_call(candidates, cases)
    floor = times["floor"]
    print(f"  floor: orjson.loads of the arguments {floor * 1e6:.2f} µs/call")
    toolbox = times["toolbox"]
    print(f"  toolwire Toolbox, parse + validate: {toolbox * 1e6:.2f} µs/call, {toolbox / floor:.2f}x floor")
    header = ("candidate", "version", "compile µs", "1st call µs", "valid µs", "ratio", "invalid µs")
    print("  {:<42} {:>8} {:>11} {:>12} {:>9} {:>7} {:>11}".format(*header))
    out: dict[str, float] = {"toolbox": toolbox * 1e6}
    for candidate in candidates:
        compile_s, first_s = _compile_seconds(candidate, cases)
        valid, invalid = times[f"{candidate.label}/valid"], times[f"{candidate.label}/invalid"]
        out[candidate.label] = valid * 1e6
        print(
            f"  {candidate.label:<42} {_installed(candidate):>8} {compile_s * 1e6:>11.1f} "
            f"{first_s * 1e6:>12.1f} {valid * 1e6:>9.2f} {valid / floor:>6.2f}x {invalid * 1e6:>11.2f}"
        )
    print("  2020-12 keywords honored (schema compiles, valid passes, invalid fails):")
    libraries = [c for c in candidates if c.compile is not _jsonschema_per_call]
    for name, (schema, good, bad) in FEATURES.items():
        marks = [("yes" if _supports(c, schema, good, bad) else "NO") for c in libraries]
        print(f"    {name:<20} " + "  ".join(f"{c.label}={m}" for c, m in zip(libraries, marks, strict=True)))
    return out


if __name__ == "__main__":
    run()
