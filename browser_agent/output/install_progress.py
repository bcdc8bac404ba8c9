"""What the Chromium installer says as it goes (``browser.install``): each command as it starts, with why,
and what a failure leaves in use."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from browser_agent.browser.install import InstallStep

__all__ = ["PrintedInstallProgress", "found_line"]

# Why each step runs, after its command; the shell's failure says what is used without it.
_WHY = {
    InstallStep.PLAYWRIGHT_CHROMIUM: "",
    InstallStep.DEBIAN_CHROMIUM: "  (no Chromium found and Playwright could not download its own: Debian's "
    "package, installed with the system's package manager as root)",
    InstallStep.HEADLESS_SHELL: "  (with the system's package manager, as root: headless runs use it, "
    "lighter per page)",
}
_WITHOUT_SHELL = "headless runs use the full Chromium"


class PrintedInstallProgress:
    """An ``InstallProgress`` that says each step in one line through ``say`` (``print``, flushed)."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self._say = say

    def started(self, step: InstallStep, command: Sequence[str]) -> None:
        """``+ COMMAND`` and why it runs."""
        self._say("+ " + " ".join(command) + _WHY[step])

    def failed(self, step: InstallStep, reason: str) -> None:
        """Why the step failed, and for the headless shell what is used instead."""
        if step is not InstallStep.HEADLESS_SHELL:
            self._say(f"  failed: {reason}")
        elif reason:
            self._say(f"  failed ({reason}): {_WITHOUT_SHELL}")
        else:
            self._say(f"  not available here: {_WITHOUT_SHELL}")


def found_line(found: str) -> str:
    """The installer's last line: the Chromium in use."""
    return f"Chromium: {found}"
