"""Golden cases stored hub-and-spoke: ``<case>/<kind>/ir.json`` holds the canonical model once
(msgspec JSON of a :class:`~toolwire.ir.Request` or :class:`~toolwire.ir.Response`), and
``<case>/<kind>/<format>.json`` its expected rendering in each wire format."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from toolwire.ir import Notes, Request, Response
from toolwire.translate import format_module

__all__ = ["ROOT", "Case", "cases", "encode", "decode"]

ROOT = Path(__file__).parent
_TYPES: dict[str, type[Request] | type[Response]] = {"request": Request, "response": Response}


@dataclass(frozen=True)
class Case:
    """One golden case of one kind (``request`` or ``response``)."""

    name: str
    kind: str
    directory: Path

    @property
    def id(self) -> str:
        return f"{self.name}/{self.kind}"

    def ir(self) -> Request | Response:
        """The canonical model of this case."""
        return msgspec.json.decode((self.directory / "ir.json").read_bytes(), type=_TYPES[self.kind])

    def golden_path(self, fmt: str) -> Path:
        return self.directory / f"{fmt}.json"

    def golden(self, fmt: str) -> dict[str, Any]:
        """The expected wire payload of this case in ``fmt``."""
        payload: dict[str, Any] = json.loads(self.golden_path(fmt).read_text(encoding="utf-8"))
        return payload


def cases() -> list[Case]:
    """Every golden case, sorted by name and kind."""
    return [
        Case(path.parent.parent.name, path.parent.name, path.parent)
        for path in sorted(ROOT.glob("*/*/ir.json"))
    ]


def encode(ir: Request | Response, fmt: str, notes: Notes) -> dict[str, Any]:
    """``ir`` encoded as a ``fmt`` request or response payload."""
    module = format_module(fmt)
    out: dict[str, Any] = (
        module.encode_request(ir, notes) if isinstance(ir, Request) else module.encode_response(ir, notes)
    )
    return out


def decode(
    payload: dict[str, Any], fmt: str, kind: str, notes: Notes, model: str | None
) -> Request | Response:
    """A ``fmt`` request or response payload decoded to the canonical model."""
    module = format_module(fmt)
    if kind == "request":
        request: Request = module.decode_request(payload, notes, model=model)
        return request
    response: Response = module.decode_response(payload, notes)
    return response
