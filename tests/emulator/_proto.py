"""Check Gemini JSON against the official ``.proto`` message definitions (tests/data/specs).

Google publishes the Gemini API as protobuf IDL, not OpenAPI; REST bodies follow the proto3
JSON mapping (lowerCamelCase names, enums as their names, 64-bit integers and ``bytes`` as
strings, ``google.protobuf.Struct``/``Value`` as free JSON). This reads the messages, enums,
``oneof``s and ``map``s of every ``.proto`` in the folder and reports each key the definitions
do not have and each value of the wrong JSON kind, with its path. A test helper: strict enough
for the answers the emulator writes, not a general protobuf parser (no ``extend``, no
services beyond skipping them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from tests import data

__all__ = ["problems"]

_TOKEN = re.compile(r'"[^"]*"|[A-Za-z_][\w.]*|-?\d+|[{}\[\]<>=;,()]')
_SCALARS: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "bytes": (str,),
    "bool": (bool,),
    "int32": (int,),
    "uint32": (int,),
    "sint32": (int,),
    "fixed32": (int,),
    "int64": (str, int),
    "uint64": (str, int),
    "sint64": (str, int),
    "fixed64": (str, int),
    "float": (int, float),
    "double": (int, float),
    "google.protobuf.Struct": (dict,),
    "google.protobuf.Value": (object,),
    "google.protobuf.ListValue": (list,),
    "google.protobuf.Timestamp": (str,),
    "google.protobuf.Duration": (str,),
    "google.protobuf.FieldMask": (str,),
    "google.protobuf.Empty": (dict,),
}


@dataclass
class _Field:
    name: str
    kind: str
    repeated: bool = False
    map_value: str | None = None


@dataclass
class _Message:
    name: str
    fields: dict[str, _Field] = field(default_factory=dict)


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


class _Parser:
    def __init__(self, text: str) -> None:
        text = re.sub(r"//[^\n]*", "", text)
        self.tokens = _TOKEN.findall(text)
        self.at = 0
        self.messages: dict[str, _Message] = {}
        self.enums: dict[str, set[str]] = {}

    def next(self) -> str:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def skip_statement(self) -> None:
        depth = 0
        while True:
            token = self.next()
            if token in "{[(":
                depth += 1
            elif token in "}])":
                depth -= 1
                if depth == 0 and token == "}":
                    return
            elif token == ";" and depth == 0:
                return

    def file(self) -> None:
        while self.at < len(self.tokens):
            token = self.next()
            if token == "message":
                self.message("")
            elif token == "enum":
                self.enum("")
            else:
                self.at -= 1
                self.skip_statement()

    def enum(self, scope: str) -> None:
        name = scope + self.next()
        values: set[str] = set()
        assert self.next() == "{"
        while (token := self.next()) != "}":
            if token in ("option", "reserved"):
                self.at -= 1
                self.skip_statement()
                continue
            values.add(token)
            self.at -= 1
            self.skip_statement()
        self.enums[name] = values

    def message(self, scope: str) -> None:
        name = scope + self.next()
        message = self.messages.setdefault(name, _Message(name))
        assert self.next() == "{"
        self.body(message, name + ".")

    def body(self, message: _Message, scope: str) -> None:
        while (token := self.next()) != "}":
            if token == "message":
                self.message(scope)
            elif token == "enum":
                self.enum(scope)
            elif token == "oneof":
                self.next()
                assert self.next() == "{"
                self.body(message, scope)
            elif token in ("option", "reserved", "extensions"):
                self.at -= 1
                self.skip_statement()
            else:
                self.at -= 1
                self.field(message)

    def field(self, message: _Message) -> None:
        token = self.next()
        repeated = token == "repeated"
        if token in ("repeated", "optional"):
            token = self.next()
        map_value = None
        if token == "map":
            assert self.next() == "<"
            self.next()
            assert self.next() == ","
            map_value = self.next()
            assert self.next() == ">"
        name = self.next()
        message.fields[_camel(name)] = _Field(name, token, repeated, map_value)
        message.fields.setdefault(name, message.fields[_camel(name)])
        self.at -= 1
        self.skip_statement()


@cache
def _definitions() -> tuple[dict[str, _Message], dict[str, set[str]]]:
    messages: dict[str, _Message] = {}
    enums: dict[str, set[str]] = {}
    for path in sorted((data.SPECS / "gemini-generativelanguage-v1beta").glob("*.proto")):
        parser = _Parser(path.read_text(encoding="utf-8"))
        parser.file()
        messages.update(parser.messages)
        enums.update(parser.enums)
    return messages, enums


def _resolve(kind: str, scope: str) -> str:
    """The qualified name of ``kind`` seen from message ``scope`` (innermost scope first)."""
    messages, enums = _definitions()
    kind = kind.removeprefix("google.ai.generativelanguage.v1beta.")
    parts = scope.split(".")
    for depth in range(len(parts), -1, -1):
        candidate = ".".join([*parts[:depth], kind]) if depth else kind
        if candidate in messages or candidate in enums:
            return candidate
    return kind


def _value(value: Any, kind: str, scope: str, path: str, out: list[str]) -> None:
    messages, enums = _definitions()
    if kind in _SCALARS:
        if not isinstance(value, _SCALARS[kind]) or (isinstance(value, bool) and bool not in _SCALARS[kind]):
            out.append(f"{path}: {type(value).__name__} is not a {kind}")
        return
    name = _resolve(kind, scope)
    if name in enums:
        if value not in enums[name]:
            out.append(f"{path}: {value!r} is not a {name} value")
        return
    if name not in messages:
        out.append(f"{path}: unknown type {kind}")
    elif not isinstance(value, dict):
        out.append(f"{path}: {type(value).__name__} is not a {name} object")
    else:
        _message(value, name, path, out)


def _message(body: dict[str, Any], name: str, path: str, out: list[str]) -> None:
    fields = _definitions()[0][name].fields
    for key, value in body.items():
        spot = f"{path}.{key}"
        found = fields.get(key)
        if found is None:
            out.append(f"{spot}: {name} has no field {key!r}")
        elif found.map_value is not None:
            if not isinstance(value, dict):
                out.append(f"{spot}: not a map")
                continue
            for k, v in value.items():
                _value(v, found.map_value, name, f"{spot}.{k}", out)
        elif found.repeated:
            if not isinstance(value, list):
                out.append(f"{spot}: not a list")
                continue
            for i, v in enumerate(value):
                _value(v, found.kind, name, f"{spot}[{i}]", out)
        else:
            _value(value, found.kind, name, spot, out)


def problems(body: Any, message: str) -> list[str]:
    """Each key of ``body`` that ``message`` (a v1beta message name) does not define, and each
    value of the wrong JSON kind, as ``"$.path: reason"``; ``[]`` when the body conforms."""
    out: list[str] = []
    _value(body, message, "", "$", out)
    return out
