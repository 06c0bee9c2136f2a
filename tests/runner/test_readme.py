"""The README's runnable example runs as written (emulator, client, runner, validator)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_run_example() -> None:
    text = README.read_text()
    start = text.index("```python\nimport toolwire\nfrom toolwire import Client")
    code = text[start + len("```python\n") : text.index("```", start + 10)]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(README), "exec"), {})
    assert out.getvalue().splitlines() == ["[]", "Results: get_weather -> sunny in Paris"]
