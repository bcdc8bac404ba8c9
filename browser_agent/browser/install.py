"""Make sure a usable Chromium exists (``python -m browser_agent.cli.install`` runs it and says each step).

Order: a Chromium that ``find_chromium`` already finds (Playwright's own or a system one); else
``playwright install chromium`` (needs Playwright's download host); else Debian's ``chromium`` package
with apt-get when running as root; else exit 1 with the exact command to run. Where the Chromium found is
a system one and apt-get can run, Debian's ``chromium-headless-shell`` is added besides when it is
missing (best effort): headless runs then use it, at a third of the processor per page. Each step is
told to an ``InstallProgress`` as it starts and when it fails (``output.install_progress`` says them).
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from enum import Enum
from typing import Protocol

from playwright.sync_api import sync_playwright

from browser_agent.browser.chromium import INSTALL_HINT, ChromiumLocation, find_chromium
from browser_agent.errors import BrowserError

__all__ = ["InstallProgress", "InstallStep", "ensure_chromium"]


class InstallStep(Enum):
    """What the installer tries, in its order."""

    PLAYWRIGHT_CHROMIUM = "playwright"  # Playwright's own build, from its download host
    DEBIAN_CHROMIUM = "chromium"  # Debian's package, when Playwright could not download its own
    HEADLESS_SHELL = "chromium-headless-shell"  # Debian's headless shell, beside a system Chromium


class InstallProgress(Protocol):
    """Told each step as it starts and when it fails; the install goes on (or stops) the same either way."""

    def started(self, step: InstallStep, command: Sequence[str]) -> None:
        """``step`` begins, running ``command`` (as a person would type it)."""

    def failed(self, step: InstallStep, reason: str) -> None:
        """``step`` did not install anything: ``reason`` says why ("": the package is not available)."""


class _Silent:
    def started(self, step: InstallStep, command: Sequence[str]) -> None:
        pass

    def failed(self, step: InstallStep, reason: str) -> None:
        pass


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


def _add_headless_shell(progress: InstallProgress) -> None:
    """Add Debian's headless shell beside a system Chromium, if apt-get can; carry on without it."""
    location = _location()
    if location is None or location.source != "system" or not _can_apt():
        return
    step = InstallStep.HEADLESS_SHELL
    progress.started(step, ("apt-get", "install", step.value))
    try:
        if not _apt_install(step.value):
            progress.failed(step, "")
    except (OSError, subprocess.TimeoutExpired) as exc:
        progress.failed(step, str(exc))


def _run(step: InstallStep, cmd: list[str], timeout: float, progress: InstallProgress) -> bool:
    progress.started(step, cmd)
    try:
        return subprocess.run(cmd, timeout=timeout, check=False).returncode == 0
    except (OSError, subprocess.TimeoutExpired) as exc:
        progress.failed(step, str(exc))
        return False


def ensure_chromium(progress: InstallProgress | None = None) -> str:
    """Return a description of the Chromium in use, installing one when none is found.

    Args:
        progress: Told each step as it starts and when it fails (default: nothing is said).

    Raises:
        BrowserError: nothing could be installed; the message says what to run.
    """
    progress = progress or _Silent()
    if _found() is None:
        command = [sys.executable, "-m", "playwright", "install", "chromium"]
        _run(InstallStep.PLAYWRIGHT_CHROMIUM, command, 300, progress)
    if _found() is None and _can_apt():
        progress.started(
            InstallStep.DEBIAN_CHROMIUM, ("apt-get", "install", InstallStep.DEBIAN_CHROMIUM.value)
        )
        _apt_install(InstallStep.DEBIAN_CHROMIUM.value)
    _add_headless_shell(progress)
    found = _found()
    if found is None:
        raise BrowserError("Could not install a Chromium automatically. " + INSTALL_HINT)
    return found
