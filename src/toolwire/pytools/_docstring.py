"""Docstring parsing: the summary and the parameter descriptions, in Google, NumPy or Sphinx style.

Only what a tool definition needs is extracted: the prose before the first section
(its first paragraph is the summary) and one description per parameter. The three
styles may even be mixed in one docstring; each line is classified on its own:

* Google: a known section name alone on an unindented line (``Args:``), entries
  ``name (type): text`` indented below it, continuation lines indented further; the
  section ends at the next header or at an unindented paragraph after a blank line.
* NumPy: a section name underlined with dashes (``Parameters`` / ``----------``),
  entries ``name : type`` (or ``a, b : type``) with the text indented below.
* Sphinx: fields ``:param name: text`` or ``:param type name: text``, continuation
  lines indented.

Wrapped lines are joined with a space; blank lines separate paragraphs; lines that
start a list item (``-``, ``*``, ``1.``) keep their line break.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field

__all__ = ["Docstring", "parse_docstring"]

_PARAM_SECTIONS = frozenset(
    {
        "args",
        "arguments",
        "parameters",
        "params",
        "keyword args",
        "keyword arguments",
        "kwargs",
        "other parameters",
        "other arguments",
        "attributes",
    }
)
_OTHER_SECTIONS = frozenset(
    {
        "returns",
        "return",
        "yields",
        "yield",
        "receives",
        "raises",
        "raise",
        "warns",
        "except",
        "exceptions",
        "examples",
        "example",
        "note",
        "notes",
        "warning",
        "warnings",
        "see also",
        "references",
        "todo",
        "methods",
        "attention",
        "caution",
        "danger",
        "error",
        "hint",
        "important",
        "tip",
    }
)
_SECTIONS = _PARAM_SECTIONS | _OTHER_SECTIONS

_GOOGLE_HEADER = re.compile(r"([A-Za-z][A-Za-z ]*?)\s*:\s*")
_NUMPY_RULE = re.compile(r"-{3,}\s*")
_GOOGLE_ENTRY = re.compile(r"\*{0,2}([A-Za-z_]\w*)\s*(?:\(.*?\))?\s*:(.*)")
_NUMPY_ENTRY = re.compile(r"(\*{0,2}[A-Za-z_]\w*(?:\s*,\s*\*{0,2}[A-Za-z_]\w*)*)\s*(?::.*)?")
_SPHINX_PARAM = re.compile(r":(?:param|parameter|arg|argument|key|keyword)\s+(?:.+?\s+)?\*{0,2}(\w+)\s*:(.*)")
_SPHINX_FIELD = re.compile(r":[A-Za-z][^:]*:")
_LIST_ITEM = re.compile(r"(?:[-*+]|\d+[.)])\s")


@dataclass(frozen=True, slots=True)
class Docstring:
    """What a docstring says about a callable.

    Attributes:
        summary: the first paragraph of the prose, wrapped lines joined; ``None`` when empty.
        description: all the prose before the first section (summary included), or ``None``.
        params: parameter name -> description, in the order the docstring lists them.
    """

    summary: str | None = None
    description: str | None = None
    params: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True)
class _Block:
    """A run of lines: the prose, one section body, or one Sphinx field."""

    kind: str  # "prose" | "google" | "numpy" | "sphinx" | "skip"
    name: str = ""
    lines: list[str] = field(default_factory=list)


def parse_docstring(doc: str | None) -> Docstring:
    """Parse a docstring (Google, NumPy or Sphinx style) into summary, description and parameters."""
    if not doc or not doc.strip():
        return Docstring()
    blocks = _split(inspect.cleandoc(doc).splitlines())
    prose = _reflow(blocks[0].lines)
    params: dict[str, str] = {}
    for block in blocks[1:]:
        for name, text in _entries(block):
            if text and name not in params:
                params[name] = text
    summary = prose.split("\n\n", 1)[0] if prose else None
    return Docstring(summary=summary, description=prose or None, params=params)


def _header(lines: list[str], i: int) -> _Block | None:
    """The block a section header at ``lines[i]`` opens, or ``None`` when it is no header."""
    line = lines[i]
    if not line or line[0].isspace():
        return None
    nxt = lines[i + 1] if i + 1 < len(lines) else ""
    if _NUMPY_RULE.fullmatch(nxt) and not _NUMPY_RULE.fullmatch(line):
        return _Block("numpy", line.strip().lower())
    match = _GOOGLE_HEADER.fullmatch(line)
    if match and match.group(1).lower() in _SECTIONS:
        return _Block("google", match.group(1).lower())
    if _SPHINX_FIELD.match(line):
        return _Block("sphinx", "field", [line])
    return None


def _split(lines: list[str]) -> list[_Block]:
    """Cut the lines into blocks; the first block is always the prose."""
    blocks = [_Block("prose")]
    i = 0
    while i < len(lines):
        opened = _header(lines, i)
        if opened is not None:
            blocks.append(opened)
            i += 2 if opened.kind == "numpy" else 1
            continue
        line, current = lines[i], blocks[-1]
        after_blank = i > 0 and not lines[i - 1].strip()
        if current.kind in ("google", "sphinx") and after_blank and line and not line[0].isspace():
            blocks.append(_Block("skip"))  # a new unindented paragraph ends the section
        blocks[-1].lines.append(line)
        i += 1
    return blocks


def _entries(block: _Block) -> list[tuple[str, str]]:
    """The ``(name, description)`` pairs a block documents."""
    if block.kind == "sphinx":
        match = _SPHINX_PARAM.fullmatch(block.lines[0])
        if match is None:
            return []
        return [(match.group(1), _reflow([match.group(2).strip(), *_dedent(block.lines[1:])]))]
    if block.name not in _PARAM_SECTIONS:
        return []
    if block.kind == "google":
        return _google_entries(_dedent(block.lines))
    if block.kind == "numpy":
        return _numpy_entries(block.lines)
    return []


def _google_entries(lines: list[str]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for head, body in _items(lines):
        match = _GOOGLE_ENTRY.fullmatch(head)
        if match is not None:
            out.append((match.group(1), _reflow([match.group(2).strip(), *_dedent(body)])))
    return out


def _numpy_entries(lines: list[str]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for head, body in _items(lines):
        match = _NUMPY_ENTRY.fullmatch(head.strip())
        if match is not None:
            text = _reflow(_dedent(body))
            out.extend((name.strip().lstrip("*"), text) for name in match.group(1).split(","))
    return out


def _items(lines: list[str]) -> list[tuple[str, list[str]]]:
    """Group lines into entries: an unindented head line and the indented lines under it."""
    items: list[tuple[str, list[str]]] = []
    for line in lines:
        if line and not line[0].isspace():
            items.append((line, []))
        elif items:
            items[-1][1].append(line)
    return items


def _dedent(lines: list[str]) -> list[str]:
    """Remove the indentation common to the non-blank lines."""
    widths = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    cut = min(widths, default=0)
    return [line[cut:].rstrip() for line in lines]


def _reflow(lines: list[str]) -> str:
    """Join wrapped lines with spaces; keep paragraph breaks and list-item line breaks."""
    paragraphs: list[str] = []
    current = ""
    for raw in lines:
        line = raw.strip()
        if not line:
            if current:
                paragraphs.append(current)
            current = ""
        elif not current:
            current = line
        else:
            current += ("\n" if _LIST_ITEM.match(line) else " ") + line
    if current:
        paragraphs.append(current)
    return "\n\n".join(paragraphs)
