"""Make sure a usable Chromium exists: ``python -m browser_agent.browser.install``.

Order: a Chromium that ``find_chromium`` already finds (Playwright's own or a system one); else
``playwright install chromium`` (needs Playwright's download host); else Debian's ``chromium`` package
with apt-get when running as root; else exit 1 with the exact command to run. Where the Chromium found is
a system one and apt-get can run, Debian's ``chromium-headless-shell`` is added besides when it is
missing (best effort): headless runs then use it, at a third of the processor per page.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys

from playwright.sync_api import sync_playwright

from browser_agent.browser.chromium import INSTALL_HINT, ChromiumLocation, find_chromium
from browser_agent.errors import BrowserError

__all__ = ["ensure_chromium", "main"]


@functools.cache
def _bundled_path() -> str | None:
    """Where Playwright keeps its own Chromium (the path is the same before and after it is installed);
    asked once, as each ask starts Playwright's driver (0.4 s)."""
    with sync_playwright() as pw:
        return pw.chromium.executable_path


def _location() -> ChromiumLocation | None:
    try:
        return find_chromium(playwright_path=_bundled_path())
    except BrowserError:
        return None


def _found() -> str | None:
    location = _location()
    if location is None:
        return None
    return str(location.path) if location.path else "Playwright's bundled Chromium"


def _can_apt() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get") is not None


def _apt_install(package: str) -> bool:
    """``apt-get install`` as it is, then once more after ``apt-get update`` (the lists may be stale)."""
    env = os.environ | {"DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "-qq", package]
    if subprocess.run(install, check=False, env=env, timeout=900).returncode == 0:
        return True
    subprocess.run(["apt-get", "update", "-qq"], check=False, env=env, timeout=600)
    return subprocess.run(install, check=False, env=env, timeout=900).returncode == 0


def _add_headless_shell() -> None:
    """Add Debian's headless shell beside a system Chromium, if apt-get can; carry on without it."""
    location = _location()
    if location is None or location.source != "system" or not _can_apt():
        return
    print(
        "+ apt-get install chromium-headless-shell  (with the system's package manager, as root: headless "
        "runs use it, lighter per page)",
        flush=True,
    )
    try:
        if not _apt_install("chromium-headless-shell"):
            print("  not available here: headless runs use the full Chromium", flush=True)
    except (OSError, subprocess.TimeoutExpired) as exc:
        print(f"  failed ({exc}): headless runs use the full Chromium", flush=True)


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
    if _found() is None:
        _run([sys.executable, "-m", "playwright", "install", "chromium"], timeout=300)
    if _found() is None and _can_apt():
        print(
            "+ apt-get install chromium  (no Chromium found and Playwright could not download its own: "
            "Debian's package, installed with the system's package manager as root)",
            flush=True,
        )
        _apt_install("chromium")
    _add_headless_shell()
    found = _found()
    if found is None:
        raise BrowserError("Could not install a Chromium automatically. " + INSTALL_HINT)
    return found


def main() -> int:
    try:
        print(f"Chromium: {ensure_chromium()}")
    except BrowserError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
