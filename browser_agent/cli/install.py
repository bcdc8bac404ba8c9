"""``python -m browser_agent.cli.install``: make sure a usable Chromium exists, saying each step (what
``make`` runs after installing the package; see ``browser.install`` for the order of the attempts).

Exit codes: 0 a Chromium is there (its path printed last), 1 none could be installed (what to run is
printed on standard error).
"""

from __future__ import annotations

import sys

__all__ = ["main"]


def _say(line: str) -> None:
    print(line, flush=True)  # flushed: the commands it runs print between these lines


def main() -> int:
    """Install a Chromium when none is found; the exit code."""
    from browser_agent.browser.install import ensure_chromium
    from browser_agent.errors import BrowserError
    from browser_agent.output.install_progress import PrintedInstallProgress, found_line

    try:
        found = ensure_chromium(PrintedInstallProgress(_say))
    except BrowserError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    print(found_line(found))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
