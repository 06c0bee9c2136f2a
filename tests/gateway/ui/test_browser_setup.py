"""Without a browser the /ui browser tests skip, saying why, except under CI, where they fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.gateway.ui.browser import need_chromium


def test_missing_chromium_skips_outside_ci(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install chromium chromium-driver"):
        need_chromium()


def test_missing_chromium_fails_under_ci(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI must install the headless browser"):
        need_chromium()
