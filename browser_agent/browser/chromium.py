"""Find a usable Chromium and the command-line flags it needs here.

Order: an explicit path from the config, Playwright's own bundled build, ``CHROME_PATH``, then the
system browsers on ``PATH``. Nothing found is a ``BrowserError`` that names every place tried and the
command that installs one.

A headless launch prefers the system's headless shell (Debian's ``chromium-headless-shell``) to the full
browser, as Playwright does with its own builds: the same engine without the browser's user interface,
a third of the processor per page and a faster start.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from browser_agent.errors import BrowserError

__all__ = [
    "HEADLESS_SHELLS",
    "QUIET_FLAGS",
    "SYSTEM",
    "Candidates",
    "ChromiumLocation",
    "chromium_args",
    "find_chromium",
]


@dataclass(frozen=True, slots=True)
class Candidates:
    """Where a kind of Chromium may be on this system: absolute paths first, then names on ``PATH``."""

    paths: Sequence[str]
    names: Sequence[str]

    def first(self, environ: Mapping[str, str]) -> Path | None:
        for candidate in self.paths:
            if _usable(Path(candidate)):
                return Path(candidate)
        for name in self.names:
            found = shutil.which(name, path=environ.get("PATH"))
            if found:
                return Path(found)
        return None

    def described(self) -> list[str]:
        return [*self.paths, *(f"{name} on PATH" for name in self.names)]


SYSTEM = Candidates(
    paths=(
        "/usr/bin/chromium",
        "/usr/bin/chromium-browser",
        "/usr/bin/google-chrome",
        "/snap/bin/chromium",
        "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    ),
    names=("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"),
)
# Chromium's headless shell (Debian's chromium-headless-shell): the same engine, for headless launches.
HEADLESS_SHELLS = Candidates(
    paths=("/usr/lib/chromium/chromium-headless-shell", "/usr/bin/chromium-headless-shell"),
    names=("chromium-headless-shell", "chrome-headless-shell"),
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
    """Where a Chromium was found, and how (``"config"``, ``"playwright"``, ``"env"``, ``"headless-shell"``,
    ``"system"``)."""

    path: Path | None
    source: str


def _usable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def find_chromium(
    configured: Path | None = None,
    *,
    playwright_path: str | None = None,
    headless: bool = True,
    env: Mapping[str, str] | None = None,
    system: Candidates | None = None,
    shells: Candidates | None = None,
) -> ChromiumLocation:
    """Return the first usable Chromium; ``path=None`` with source ``playwright`` means its own build
    (Playwright then starts its own headless shell when ``headless``). A system headless shell comes
    before the system browsers when ``headless``; a headed launch needs the full browser.

    Raises:
        BrowserError: nothing usable was found; the message lists every candidate tried.
    """
    environ = os.environ if env is None else env
    system = SYSTEM if system is None else system
    shells = HEADLESS_SHELLS if shells is None else shells
    if configured is not None:
        if _usable(configured):
            return ChromiumLocation(configured, "config")
        raise BrowserError(
            f"BrowserConfig.executable_path={str(configured)!r} is not an executable file. "
            "Fix the path or leave it unset to let browser_agent find a Chromium."
        )
    if playwright_path and _usable(Path(playwright_path)):
        return ChromiumLocation(None, "playwright")
    chrome_path = environ.get("CHROME_PATH")
    if chrome_path and _usable(Path(chrome_path)):
        return ChromiumLocation(Path(chrome_path), "env")
    shell = shells.first(environ) if headless else None
    if shell is not None:
        return ChromiumLocation(shell, "headless-shell")
    found = system.first(environ)
    if found is not None:
        return ChromiumLocation(found, "system")
    tried = [f"Playwright's bundled Chromium ({playwright_path})"] if playwright_path else []
    tried += [f"CHROME_PATH={chrome_path}"] if chrome_path else []
    raise BrowserError(
        "No usable Chromium found. Tried: " + "; ".join(tried + system.described()) + ". " + INSTALL_HINT
    )


def chromium_args(extra: Sequence[str] = (), *, block_external_network: bool = False) -> list[str]:
    """The flags every launch gets: quiet networking, no sandbox when running as root."""
    args = list(QUIET_FLAGS)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--no-sandbox")
    if block_external_network:
        args.append("--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost")
    args.extend(a for a in extra if a not in args)
    return args
