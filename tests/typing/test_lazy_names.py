"""Every name ``toolwire`` loads on first use is also imported for type checkers."""

from __future__ import annotations

import ast
from pathlib import Path

import toolwire

INIT = Path(toolwire.__file__)


def _type_checking_imports() -> set[str]:
    """Names bound by the imports under ``if TYPE_CHECKING:`` in ``toolwire/__init__.py``."""
    names: set[str] = set()
    for node in ast.parse(INIT.read_text()).body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom)
                names.update(alias.asname or alias.name for alias in statement.names)
    return names


def test_each_lazy_name_has_its_type_checking_import() -> None:
    assert _type_checking_imports() == {*toolwire._LAZY, "validate"}
