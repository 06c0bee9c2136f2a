"""A real headless Chromium (Debian's ``chromium`` and ``chromium-driver``) driven by selenium.

No browser is downloaded: the system binaries are used. Without them (or without selenium) the
browser tests are skipped, saying so, except under CI (``CI=true``), where their absence fails:
CI installs them (``.ci/run``). Screenshots go to ``$TOOLWIRE_SCREENSHOTS`` or, by default, to
``build/screenshots/`` under pytest's root folder (``build/`` is ignored by git; pytest's own
temporary folders are pruned to the last three runs of the user, too soon on a shared machine).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

WAIT = 30.0
"""Seconds a test waits for the page to reach a state (generous: the machine is shared)."""


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def need_chromium() -> tuple[str, str]:
    """The ``chromium`` and ``chromedriver`` binaries; skips (or fails, under CI) without them."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    missing = None
    if browser is None or driver is None:
        missing = "chromium and chromedriver are not installed (apt-get install chromium chromium-driver)"
    else:
        try:
            import selenium  # noqa: F401
        except ImportError:
            missing = "selenium is not installed (pip install -e '.[dev]')"
    if missing is not None:
        if _in_ci():
            pytest.fail(f"CI must install the headless browser: {missing}")
        pytest.skip(f"{missing}; the /ui pages are untested in a browser")
    assert browser is not None and driver is not None
    return browser, driver


class Browser:
    """One headless Chromium window."""

    def __init__(self, browser: str, driver: str, shots: Path) -> None:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        options = webdriver.ChromeOptions()
        options.binary_location = browser
        for arg in (
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--window-size=1400,1100",
            "--disable-extensions",
            "--no-first-run",
        ):
            options.add_argument(arg)
        self.driver = webdriver.Chrome(options=options, service=Service(executable_path=driver))
        self.driver.set_page_load_timeout(WAIT)
        self.shots = shots

    def get(self, url: str) -> None:
        self.driver.get(url)

    def find(self, css: str) -> Any:
        from selenium.webdriver.common.by import By

        return self.driver.find_element(By.CSS_SELECTOR, css)

    def find_all(self, css: str) -> list[Any]:
        from selenium.webdriver.common.by import By

        return list(self.driver.find_elements(By.CSS_SELECTOR, css))

    def wait(self, condition: Callable[[], Any], message: str) -> Any:
        from selenium.webdriver.support.ui import WebDriverWait

        return WebDriverWait(self.driver, WAIT, poll_frequency=0.1).until(lambda _: condition(), message)

    def scheme(self, dark: bool) -> None:
        """Emulate ``prefers-color-scheme``."""
        value = "dark" if dark else "light"
        features = [{"name": "prefers-color-scheme", "value": value}]
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})

    def screenshot(self, name: str, *, full: bool = True) -> Path:
        """Save the page as ``<shots>/<name>.png`` (the whole page when ``full``) and return it."""
        path = self.shots / f"{name}.png"
        self.driver.execute_script("window.scrollTo(0, 0)")
        if full:
            height = self.driver.execute_script("return document.documentElement.scrollHeight")
            self.driver.set_window_size(1400, min(max(int(height) + 40, 600), 8000))
        self.driver.save_screenshot(str(path))
        self.driver.set_window_size(1400, 1100)
        return path

    def style(self, element: Any, prop: str) -> str:
        return str(
            self.driver.execute_script(
                "return getComputedStyle(arguments[0]).getPropertyValue(arguments[1])", element, prop
            )
        )

    def quit(self) -> None:
        self.driver.quit()


@pytest.fixture(scope="module")
def browser(request: pytest.FixtureRequest) -> Iterator[Browser]:
    """A headless Chromium for the module; screenshots in ``$TOOLWIRE_SCREENSHOTS`` or
    ``build/screenshots`` (ignored by git)."""
    chromium, driver = need_chromium()
    default = request.config.rootpath / "build" / "screenshots"
    shots = Path(os.environ.get("TOOLWIRE_SCREENSHOTS") or default)
    shots.mkdir(parents=True, exist_ok=True)
    window = Browser(chromium, driver, shots)
    try:
        yield window
    finally:
        window.quit()
