"""pyproject.toml against the code: the extras are consistent and every import is declared where it is used.

The clean-venv check (``.ci/clean_venvs.py``, ``make clean-venvs``) installs each extra for real;
this is its fast, offline half: it reads ``pyproject.toml`` and scans ``src/toolwire`` with ``ast``.
"""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from functools import cache
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from toolwire._extras import EXTRAS

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "toolwire"

SHELLS = ("client", "server", "models", "otel", "redis", "vertex", "bedrock")
"""The extras that each bring one shell's third-party packages."""

AREAS: dict[str, str] = {
    "client/": "client",
    "emulator/": "server",
    "cli/": "cli",
    "gateway/": "cli",  # the gateway: httpx (client) to upstreams, uvicorn (server) to serve
    "store/redis.py": "redis",
    "pytools/_errors.py": "models",
    "pytools/_function.py": "models",
    "pytools/_model.py": "models",
    "pytools/_schema_gen.py": "models",
    "pytools/_signature.py": "models",
}
"""Which extra a module's top-level imports may come from (path prefix under ``src/toolwire``);
any other module is core and may import only the core dependencies. The pytools modules listed
are the ones pydantic-based tools load on first use, behind ``require_pydantic``."""

VIA: dict[str, str] = {"pydantic-core": "pydantic"}
"""Distributions imported directly but declared through another that pins their exact version."""


def _name(requirement: str) -> str:
    return re.sub(r"[-_.]+", "-", Requirement(requirement).name).lower()


@cache
def _project() -> dict[str, object]:
    project: dict[str, object] = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return project


def _extras() -> dict[str, list[str]]:
    extras: dict[str, list[str]] = _project()["optional-dependencies"]  # type: ignore[assignment]
    return extras


def _closure(extra: str) -> set[str]:
    """The distributions an extra installs, self-references (``toolwire[a,b]``) expanded."""
    names: set[str] = set()
    for requirement in _extras()[extra]:
        parsed = Requirement(requirement)
        if _name(requirement) == "toolwire":
            for inner in parsed.extras:
                names |= _closure(inner)
        else:
            names.add(_name(requirement))
    return names


def _core() -> set[str]:
    return {_name(r) for r in _project()["dependencies"]}  # type: ignore[attr-defined]


def test_self_references_name_existing_extras() -> None:
    for extra, requirements in _extras().items():
        for requirement in requirements:
            if _name(requirement) == "toolwire":
                assert Requirement(requirement).extras <= set(_extras()), (extra, requirement)


def test_all_is_every_extra_and_dev_has_all() -> None:
    every = set().union(*(_closure(extra) for extra in _extras() if extra != "dev"))
    assert _closure("all") == every
    assert _closure("cli") == _closure("client") | _closure("server") | _closure("models")
    assert _closure("dev") >= every | {"pytest", "build"}
    assert set(SHELLS) | {"cli", "all", "dev"} == set(_extras())


def test_core_is_msgspec_and_the_argument_validator() -> None:
    assert _core() == {"msgspec", "jsonschema-rs"}


def test_license_and_urls() -> None:
    assert _project()["license"] == "Apache-2.0"
    assert _project()["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").is_file()
    urls: dict[str, str] = _project()["urls"]  # type: ignore[assignment]
    assert set(urls) == {"Homepage", "Documentation", "Source", "Issues"}
    assert all(url.startswith("https://github.com/toolwire/toolwire") for url in urls.values())


def _imports(tree: ast.Module) -> tuple[set[str], set[str]]:
    """Third-party top-level names imported when the module loads, and anywhere in it."""
    loaded: set[str] = set()
    stack: list[ast.stmt] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            loaded |= _names(node)
        elif isinstance(node, (ast.If, ast.Try, ast.With)):
            stack.extend(node.body + node.orelse if not isinstance(node, ast.With) else node.body)
            stack.extend(getattr(node, "finalbody", []))
            stack.extend(s for handler in getattr(node, "handlers", []) for s in handler.body)
    anywhere: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            anywhere |= _names(node)
    return loaded, anywhere


def _names(node: ast.Import | ast.ImportFrom) -> set[str]:
    if isinstance(node, ast.ImportFrom):
        modules = [node.module] if node.level == 0 and node.module else []
    else:
        modules = [alias.name for alias in node.names]
    tops = {module.split(".")[0] for module in modules}
    return {top for top in tops if top not in sys.stdlib_module_names and top != "toolwire"}


def _distribution(module: str) -> set[str]:
    found = importlib.metadata.packages_distributions().get(module)
    assert found, f"{module} is imported by src/toolwire but installed by no distribution"
    names = {re.sub(r"[-_.]+", "-", name).lower() for name in found}
    return {VIA.get(name, name) for name in names}


def _area(relative: str) -> str | None:
    return next((extra for prefix, extra in AREAS.items() if relative.startswith(prefix)), None)


MODULES = sorted(str(path.relative_to(SRC)) for path in SRC.rglob("*.py"))

USER_INSTALLED: dict[str, set[str]] = {
    "cli/_demo.py": {"openai"},
    "cli/_demo_gateway.py": {"openai"},
}
"""Imports no extra provides, on purpose: ``toolwire demo --gateway`` drives the official OpenAI
SDK (a client of the gateway, not a dependency of toolwire), imported lazily and checked first
with its own install hint (tests/gateway/test_demo.py)."""


@pytest.mark.parametrize("relative", MODULES)
def test_imports_are_declared_where_they_are_used(relative: str) -> None:
    loaded, anywhere = _imports(ast.parse((SRC / relative).read_text()))
    area = _area(relative)
    allowed = _core() | (_closure(area) if area else set())
    declared = _core() | set().union(*(_closure(extra) for extra in _extras() if extra != "dev"))
    for module in sorted(loaded):
        assert _distribution(module) & allowed, f"{relative} imports {module} at load; allowed: {allowed}"
    for module in sorted(anywhere - USER_INSTALLED.get(relative, set())):
        assert _distribution(module) & declared, f"{relative} imports {module}, declared in no extra"


def test_the_scan_sees_the_imports() -> None:
    """The scan itself: it finds a known top-level import, a lazy one, and skips TYPE_CHECKING."""
    loaded, anywhere = _imports(ast.parse((SRC / "emulator" / "script.py").read_text()))
    assert "yaml" in anywhere and "yaml" not in loaded
    loaded, _ = _imports(ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import httpx\n"))
    assert loaded == set()
    loaded, _ = _imports(ast.parse("try:\n    import httpx\nexcept ImportError:\n    import anyio\n"))
    assert loaded == {"httpx", "anyio"}


@pytest.mark.parametrize("module", sorted(EXTRAS))
def test_the_hint_table_names_the_extra_that_installs_each_import(module: str) -> None:
    """``toolwire._extras.EXTRAS`` (the extra a missing-dependency error names) agrees with pyproject."""
    assert _distribution(module) & _closure(EXTRAS[module]), f"{module}: {EXTRAS[module]} does not install it"
    assert not _distribution(module) & _core(), f"{module} is a core dependency; it needs no hint"
