"""Small helpers of the Anthropic codec: extras, argument JSON, opaque blocks.

Layout hints (``"~..."`` keys in ``extra``) used by this package, read back only when
encoding to ``anthropic`` again:

================  =====================================================================
``~content``      a message or tool-result ``content`` was a ``string`` (or ``absent``)
``~system``       the top-level ``system`` was a ``string`` (on the leading system message)
``~inline``       a ``role: "system"`` message stood inside ``messages`` (not hoisted)
``~type``         a client tool had an explicit ``type`` (``"custom"`` or ``null``)
``~thinking``     ``thinking.type`` was ``adaptive`` (on :class:`~toolwire.ir.ReasoningConfig`)
``~field``        structured output came from the deprecated top-level ``output_format``
``~null``         fields of ``usage`` present as ``null``
``~absent``       spec-required fields the payload did not have (response, error body)
``~error``        unnamed fields of an error body's ``error`` object (``~no_message``: it had none)
================  =====================================================================

Known fields present as ``null`` are kept in ``extra`` under their own name (they carry
nothing, so other formats may report them as dropped without loss).

Blocks the IR cannot hold (``compaction``, ``container_upload``, ``search_result``,
``tool_reference``, unknown types...) are kept with their position under the NON-hint
key ``opaque_blocks`` (``[[index, block], ...]``) of the message, response or tool
result, so that other formats report them as dropped.
"""

from __future__ import annotations

from typing import Any

from toolwire._json import dumps_str, loads
from toolwire.errors import PayloadError
from toolwire.ir.base import Extra

__all__ = ["OPAQUE", "compact", "parse_object", "rest_fields", "with_opaque"]

OPAQUE = "opaque_blocks"


def rest_fields(obj: dict[str, Any], known: frozenset[str]) -> Extra:
    """Fields of ``obj`` to keep as ``extra``: unknown ones, and known ones present as ``null``."""
    if obj.keys() <= known and None not in obj.values():
        return {}
    return {k: v for k, v in obj.items() if k not in known or v is None}


def compact(value: dict[str, Any], path: str) -> str:
    """A tool ``input`` object as compact JSON text (the IR's raw argument string)."""
    return dumps_str(value, path=path)  # too deep: LimitError at path


def parse_object(text: str) -> dict[str, Any] | str:
    """The JSON object in ``text`` (``""`` is ``{}``), or a sentence saying why it is not one."""
    if not text:
        return {}
    try:
        value = loads(text)
    except PayloadError as exc:
        return exc.message
    if type(value) is not dict:
        return "not a JSON object"
    return value


def with_opaque(blocks: list[Any], opaque: Any) -> list[Any]:
    """``blocks`` with the opaque ``[[index, block], ...]`` entries put back at their positions."""
    if not opaque:
        return blocks
    out = list(blocks)
    for index, block in opaque:
        out.insert(min(index, len(out)), block)
    return out
