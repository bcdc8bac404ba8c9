"""Make sure a usable Chromium exists: ``python -m browser_agent.browser.install``.

Order: a Chromium that ``find_chromium`` already finds (Playwright's own or a system one); else
``playwright install chromium`` (needs Playwright's download host); else Debian's ``chromium`` package
with apt-get when running as root; else exit 1 with the exact command to run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from playwright.sync_api import sync_playwright

from browser_agent.browser.chromium import INSTALL_HINT, find_chromium
from browser_agent.errors import BrowserError

__all__ = ["ensure_chromium", "main"]


def _bundled_path() -> str | None:
    with sync_playwright() as pw:
        return pw.chromium.executable_path


def _found() -> str | None:
    try:
        location = find_chromium(playwright_path=_bundled_path())
    except BrowserError:
        return None
    return str(location.path) if location.path else "Playwright's bundled Chromium"


def _run(cmd: list[str], timeout: float) -> bool:
    print("+", " ".join(cmd), flush=True)
    try:
        return subprocess.run(cmd, timeout=timeout, check=False).returncode == 0
    except (OSError, subprocess.TimeoutExpired) as exc:
        print(f"  failed: {exc}", flush=True)
        return False


def ensure_chromium() -> str:
    """Return a description of the Chromium in use, installing one when none is found.

    Raises:
        BrowserError: nothing could be installed; the message says what to run.
    """
    found = _found()
    if found:
        return found
    _run([sys.executable, "-m", "playwright", "install", "chromium"], timeout=300)
    found = _found()
    if found:
        return found
    is_root = hasattr(os, "geteuid") and os.geteuid() == 0
    if is_root and shutil.which("apt-get"):
        env = os.environ | {"DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=False, env=env, timeout=600)
        subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], check=False, env=env, timeout=900)
        found = _found()
        if found:
            return found
    raise BrowserError("Could not install a Chromium automatically. " + INSTALL_HINT)


def main() -> int:
    try:
        print(f"Chromium: {ensure_chromium()}")
    except BrowserError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
