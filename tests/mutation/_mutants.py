"""One-spot mutants of a Python module, as source rewrites (so each has a readable diff).

==============  ===============================================================
operator        change
==============  ===============================================================
``cmp``         one comparison flipped: ``<``/``<=``, ``>``/``>=``, ``==``/``!=``,
                ``is``/``is not``, ``in``/``not in``
``bool``        ``and`` <-> ``or``
``not``         ``not x`` -> ``x``
``int+``        an int constant plus one
``int-``        an int constant minus one
``true``        a boolean constant flipped
``str``         a string constant replaced (non-empty -> ``""``, empty -> ``"XX"``)
``ret``         ``return x`` -> ``return None``
``del``         a simple statement in a function or class replaced by ``pass``
==============  ===============================================================

Not mutated: docstrings (attribute docstrings too), annotations, decorators, ``__all__``/``__slots__``,
f-strings, ``Literal[...]`` types, the body of ``if TYPE_CHECKING:``, lines marked ``# pragma: no mutate``.

A mutant's id is ``module:line:col:operator:hash``; the hash covers the enclosing function, the
operator, the original text and its replacement (and a counter for repeats), not the position, so
an entry of ``equivalent.txt`` keeps matching when unrelated lines move.
"""

from __future__ import annotations

import ast
import hashlib
import re
from collections import Counter
from dataclasses import dataclass

__all__ = ["Mutant", "generate"]

_CMP_SWAP: dict[type[ast.cmpop], tuple[type[ast.cmpop], str]] = {
    ast.Lt: (ast.LtE, "<="),
    ast.LtE: (ast.Lt, "<"),
    ast.Gt: (ast.GtE, ">="),
    ast.GtE: (ast.Gt, ">"),
    ast.Eq: (ast.NotEq, "!="),
    ast.NotEq: (ast.Eq, "=="),
    ast.Is: (ast.IsNot, "is not"),
    ast.IsNot: (ast.Is, "is"),
    ast.In: (ast.NotIn, "not in"),
    ast.NotIn: (ast.In, "in"),
}
_CMP_TOKEN = re.compile(r"<=|>=|==|!=|<|>|\bis\s+not\b|\bis\b|\bnot\s+in\b|\bin\b")
_BOOL_TOKEN = re.compile(r"\b(and|or)\b")
_DELETABLE = (
    ast.Expr,
    ast.Assign,
    ast.AugAssign,
    ast.AnnAssign,
    ast.Raise,
    ast.Delete,
    ast.Break,
    ast.Continue,
)
_NO_MUTATE = "pragma: no mutate"
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass(frozen=True, slots=True)
class Mutant:
    """One mutant: where, what, and the whole mutated source."""

    id: str
    module: str
    line: int
    col: int
    operator: str
    original: str
    replacement: str
    end_line: int
    stmt_line: int
    source: str
    function: tuple[int, int] = (0, 0)  # lines of the innermost enclosing function, when there is one

    @property
    def key(self) -> str:
        """The id without the position (what ``equivalent.txt`` matches on)."""
        module, _line, _col, op, digest = self.id.split(":")
        return f"{module}:{op}:{digest}"


@dataclass(slots=True)
class _Edit:
    node: ast.AST
    stmt: ast.stmt
    qualname: str
    operator: str
    start: tuple[int, int]  # (line, byte col) of the replaced span
    end: tuple[int, int]
    replacement: str


class _Source:
    """The module's text with (line, byte column) <-> offset conversion."""

    def __init__(self, text: str) -> None:
        self.data = text.encode("utf-8")
        self.starts = [0]
        for i, b in enumerate(self.data):
            if b == 0x0A:
                self.starts.append(i + 1)

    def offset(self, line: int, col: int) -> int:
        return self.starts[line - 1] + col

    def text(self, start: tuple[int, int], end: tuple[int, int]) -> str:
        return self.data[self.offset(*start) : self.offset(*end)].decode("utf-8")

    def replace(self, start: tuple[int, int], end: tuple[int, int], new: str) -> str:
        a, b = self.offset(*start), self.offset(*end)
        return (self.data[:a] + new.encode("utf-8") + self.data[b:]).decode("utf-8")


def _span(node: ast.AST) -> tuple[tuple[int, int], tuple[int, int]]:
    return (node.lineno, node.col_offset), (node.end_lineno or node.lineno, node.end_col_offset or 0)  # type: ignore[attr-defined]


def _is_bare_constant(stmt: ast.stmt) -> bool:
    """A docstring, an attribute docstring (a string under an assignment) or ``...``: no code."""
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)


class _Collector:
    def __init__(self, tree: ast.Module, src: _Source, lines: list[str]) -> None:
        self.src = src
        self.lines = lines
        self.edits: list[_Edit] = []
        self._body(tree.body, "")

    # statements ---------------------------------------------------------------------------------
    def _body(self, body: list[ast.stmt], qual: str) -> None:
        for stmt in body:
            if _NO_MUTATE in self.lines[stmt.lineno - 1] or _is_bare_constant(stmt):
                continue
            self._stmt(stmt, body, qual)

    def _stmt(self, stmt: ast.stmt, body: list[ast.stmt], qual: str) -> None:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            name = f"{qual}.{stmt.name}" if qual else stmt.name
            if not isinstance(stmt, ast.ClassDef):
                for default in [*stmt.args.defaults, *(d for d in stmt.args.kw_defaults if d is not None)]:
                    self._expr(default, stmt, qual)
            self._body(stmt.body, name)
            return
        if isinstance(stmt, ast.If) and _is_type_checking(stmt.test):
            return
        if isinstance(stmt, ast.Assign | ast.AnnAssign) and _targets_dunder(stmt):
            return
        value = getattr(stmt, "value", None)
        if isinstance(stmt, ast.Return) and value is not None and not _is_none(value):
            self._add(value, stmt, qual, "ret", "None", _span(value))
        if qual and _deletable(stmt):
            self._add(stmt, stmt, qual, "del", "pass", _span(stmt))
        for field, value in ast.iter_fields(stmt):
            if field in ("annotation", "returns", "decorator_list", "type_comment"):
                continue
            if isinstance(value, list):
                if value and isinstance(value[0], ast.stmt):
                    self._body(value, qual)
                else:
                    for item in value:
                        if isinstance(item, ast.expr):
                            self._expr(item, stmt, qual)
                        elif isinstance(item, ast.excepthandler | ast.match_case):
                            self._body(item.body, qual)
                        elif isinstance(item, ast.withitem):
                            self._expr(item.context_expr, stmt, qual)
                        elif isinstance(item, ast.keyword):
                            self._expr(item.value, stmt, qual)
            elif isinstance(value, ast.expr) and field != "target" and field != "targets":
                self._expr(value, stmt, qual)

    # expressions --------------------------------------------------------------------------------
    def _expr(self, node: ast.expr, stmt: ast.stmt, qual: str) -> None:
        if isinstance(node, ast.JoinedStr) or _is_literal_type(node):
            return
        if _NO_MUTATE in self.lines[node.lineno - 1]:
            return
        self._mutate_expr(node, stmt, qual)
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr) and not _is_store(child):
                self._expr(child, stmt, qual)
            elif isinstance(child, ast.keyword):
                self._expr(child.value, stmt, qual)
            elif isinstance(child, ast.comprehension):
                self._expr(child.iter, stmt, qual)
                for cond in child.ifs:
                    self._expr(cond, stmt, qual)

    def _mutate_expr(self, node: ast.expr, stmt: ast.stmt, qual: str) -> None:
        if isinstance(node, ast.Compare):
            left = node.left
            for op, right in zip(node.ops, node.comparators, strict=True):
                gap_start, gap_end = _span(left)[1], _span(right)[0]
                gap = self.src.text(gap_start, gap_end)
                match = _CMP_TOKEN.search(gap)
                if match is not None:
                    replaced = gap[: match.start()] + _CMP_SWAP[type(op)][1] + gap[match.end() :]
                    self._add(node, stmt, qual, "cmp", replaced, (gap_start, gap_end))
                left = right
        elif isinstance(node, ast.BoolOp):
            whole = self.src.text(*_span(node))
            swap = "or" if isinstance(node.op, ast.And) else "and"
            parts = []
            pos = 0
            base = _span(node)[0]
            for value in node.values[1:]:
                start = self._rel(base, _span(value)[0])
                prev_end = self._rel(base, _span(node.values[node.values.index(value) - 1])[1])
                gap = whole[prev_end:start]
                gap = _BOOL_TOKEN.sub(swap, gap, count=1)
                parts.append(whole[pos:prev_end] + gap)
                pos = start
            parts.append(whole[pos:])
            self._add(node, stmt, qual, "bool", "(" + "".join(parts) + ")", _span(node))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            self._add(node, stmt, qual, "not", "(" + self.src.text(*_span(node.operand)) + ")", _span(node))
        elif isinstance(node, ast.Constant):
            self._constant(node, stmt, qual)

    def _constant(self, node: ast.Constant, stmt: ast.stmt, qual: str) -> None:
        value = node.value
        if isinstance(value, bool):
            self._add(node, stmt, qual, "true", repr(not value), _span(node))
        elif isinstance(value, int):
            for op, new in (("int+", value + 1), ("int-", value - 1)):
                self._add(node, stmt, qual, op, f"({new})" if new < 0 else str(new), _span(node))
        elif isinstance(value, str):
            self._add(node, stmt, qual, "str", '""' if value else '"XX"', _span(node))

    def _rel(self, base: tuple[int, int], pos: tuple[int, int]) -> int:
        """Character offset of ``pos`` within the text starting at ``base``."""
        return len(self.src.text(base, pos))

    def _add(
        self,
        node: ast.AST,
        stmt: ast.stmt,
        qual: str,
        op: str,
        replacement: str,
        span: tuple[tuple[int, int], tuple[int, int]],
    ) -> None:
        self.edits.append(_Edit(node, stmt, qual, op, span[0], span[1], replacement))


def _is_literal_type(node: ast.expr) -> bool:
    """``Literal[...]``: values of a type, not of the code."""
    if not isinstance(node, ast.Subscript):
        return False
    base = node.value
    return (isinstance(base, ast.Name) and base.id == "Literal") or (
        isinstance(base, ast.Attribute) and base.attr == "Literal"
    )


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _deletable(stmt: ast.stmt) -> bool:
    """A simple statement whose removal is a mutant (not a bare constant, not a declaration)."""
    if isinstance(stmt, ast.AnnAssign):
        return stmt.value is not None
    if isinstance(stmt, ast.Expr):
        return not isinstance(stmt.value, ast.Constant)
    return isinstance(stmt, _DELETABLE)


def _is_store(node: ast.expr) -> bool:
    return isinstance(getattr(node, "ctx", None), ast.Store | ast.Del)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _targets_dunder(stmt: ast.Assign | ast.AnnAssign) -> bool:
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
    return any(isinstance(t, ast.Name) and t.id in ("__all__", "__slots__") for t in targets)


def generate(text: str, module: str) -> list[Mutant]:
    """Every one-spot mutant of ``text`` (module ``module``) that compiles and changes the code.

    Args:
        text: the module's source.
        module: its dotted name, the first part of each mutant id.
    """
    tree = ast.parse(text)
    original_dump = ast.dump(tree)
    src = _Source(text)
    collector = _Collector(tree, src, text.splitlines())
    functions = sorted(
        ((f.lineno, f.end_lineno or f.lineno) for f in ast.walk(tree) if isinstance(f, _FUNCTIONS)),
        reverse=True,
    )
    seen: Counter[str] = Counter()
    mutants: list[Mutant] = []
    for edit in sorted(collector.edits, key=lambda e: (e.start, e.operator, e.replacement)):
        original = src.text(edit.start, edit.end)
        mutated = src.replace(edit.start, edit.end, edit.replacement)
        try:
            if ast.dump(ast.parse(mutated)) == original_dump:
                continue
            compile(mutated, module, "exec")
        except SyntaxError:
            continue
        base = f"{edit.qualname}|{edit.operator}|{original}|{edit.replacement}"
        seen[base] += 1
        digest = hashlib.sha1(f"{base}|{seen[base]}".encode()).hexdigest()[:8]
        line, col = edit.node.lineno, edit.node.col_offset  # type: ignore[attr-defined]
        mutants.append(
            Mutant(
                id=f"{module}:{line}:{col}:{edit.operator}:{digest}",
                module=module,
                line=line,
                col=col,
                operator=edit.operator,
                original=original,
                replacement=edit.replacement,
                end_line=edit.node.end_lineno or line,  # type: ignore[attr-defined]
                stmt_line=edit.stmt.lineno,
                source=mutated,
                function=next(((a, b) for a, b in functions if a <= line <= b), (0, 0)),
            )
        )
    return mutants
