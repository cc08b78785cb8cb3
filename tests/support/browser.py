"""Headless Chromium from Debian's packages, driven by Selenium through chromium-driver.

Nothing here downloads a browser or a driver: both binaries must be installed
(`apt-get install chromium chromium-driver`, scripts/bootstrap.sh does). Each browser
gets a fresh profile directory. `window.alert`/`confirm`/`prompt` are replaced before any
page script runs (through the DevTools protocol, which a page's CSP does not govern) by
functions that only record their calls, so a test can assert that no dialog was opened.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = os.environ.get("GW_TEST_CHROMIUM", "/usr/bin/chromium")
DRIVER = os.environ.get("GW_TEST_CHROMEDRIVER", "/usr/bin/chromedriver")
OUTPUT = Path(os.environ.get("GW_TEST_OUTPUT", "build/test-output"))

_RECORD_DIALOGS = """
window.__dialogs = [];
for (const name of ["alert", "confirm", "prompt"]) {
  window[name] = (...args) => { window.__dialogs.push([name, String(args[0])]); };
}
"""


def chromium(profile: Path) -> webdriver.Chrome:
    assert shutil.which(CHROMIUM) or Path(CHROMIUM).is_file(), (
        "chromium is required (apt-get install chromium chromium-driver)"
    )
    assert Path(DRIVER).is_file(), "chromedriver is required (apt-get install chromium-driver)"
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        "--window-size=1280,1100",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": _RECORD_DIALOGS})
    return driver


def screenshot(driver: webdriver.Chrome, name: str) -> Path:
    """Saved under build/test-output/ (git-ignored; GW_TEST_OUTPUT overrides)."""
    OUTPUT.mkdir(parents=True, exist_ok=True)
    path = OUTPUT / f"{name}.png"
    driver.save_screenshot(str(path))
    return path
