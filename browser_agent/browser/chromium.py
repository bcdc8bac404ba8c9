"""Find a usable Chromium and the command-line flags it needs here.

Order: an explicit path from the config, Playwright's own bundled build, ``CHROME_PATH``, then the
system browsers on ``PATH``. Nothing found is a ``BrowserError`` that names every place tried and the
command that installs one.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from browser_agent.errors import BrowserError

__all__ = ["QUIET_FLAGS", "ChromiumLocation", "chromium_args", "find_chromium"]

SYSTEM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
SYSTEM_PATHS = (
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
    "/snap/bin/chromium",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
)
# Without these Chromium phones home at start and floods a closed network with refused connections.
QUIET_FLAGS = (
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-quic",
)
INSTALL_HINT = (
    "Install one with `python -m playwright install chromium` (needs network access to Playwright's CDN) "
    "or, on Debian/Ubuntu as root, `apt-get install -y chromium`; or set CHROME_PATH to a Chromium binary."
)


@dataclass(frozen=True, slots=True)
class ChromiumLocation:
    """Where a Chromium was found, and how (``"config"``, ``"playwright"``, ``"env"``, ``"system"``)."""

    path: Path | None
    source: str


def _usable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def find_chromium(
    configured: Path | None = None,
    *,
    playwright_path: str | None = None,
    env: dict[str, str] | None = None,
    system_paths: Sequence[str] = SYSTEM_PATHS,
    system_names: Sequence[str] = SYSTEM_NAMES,
) -> ChromiumLocation:
    """Return the first usable Chromium; ``path=None`` with source ``playwright`` means its own build.

    Raises:
        BrowserError: nothing usable was found; the message lists every candidate tried.
    """
    environ = os.environ if env is None else env
    tried: list[str] = []
    if configured is not None:
        if _usable(configured):
            return ChromiumLocation(configured, "config")
        raise BrowserError(
            f"BrowserConfig.executable_path={str(configured)!r} is not an executable file. "
            "Fix the path or leave it unset to let browser_agent find a Chromium."
        )
    if playwright_path:
        if _usable(Path(playwright_path)):
            return ChromiumLocation(None, "playwright")
        tried.append(f"Playwright's bundled Chromium ({playwright_path})")
    chrome_path = environ.get("CHROME_PATH")
    if chrome_path:
        if _usable(Path(chrome_path)):
            return ChromiumLocation(Path(chrome_path), "env")
        tried.append(f"CHROME_PATH={chrome_path}")
    for candidate in system_paths:
        if _usable(Path(candidate)):
            return ChromiumLocation(Path(candidate), "system")
        tried.append(candidate)
    for name in system_names:
        found = shutil.which(name, path=environ.get("PATH"))
        if found:
            return ChromiumLocation(Path(found), "system")
        tried.append(f"{name} on PATH")
    raise BrowserError("No usable Chromium found. Tried: " + "; ".join(tried) + ". " + INSTALL_HINT)


def chromium_args(extra: Sequence[str] = (), *, block_external_network: bool = False) -> list[str]:
    """The flags every launch gets: quiet networking, no sandbox when running as root."""
    args = list(QUIET_FLAGS)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--no-sandbox")
    if block_external_network:
        args.append("--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost")
    args.extend(a for a in extra if a not in args)
    return args
