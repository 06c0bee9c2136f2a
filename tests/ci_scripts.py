"""The scripts of ``.ci/`` as modules, for the tests of their own rules (they are not a package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

CI = Path(__file__).resolve().parent.parent / ".ci"


def load(name: str) -> ModuleType:
    """``.ci/<name>.py``, imported once as the module ``name`` (registered, so its dataclasses work)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, CI / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
