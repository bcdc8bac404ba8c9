"""The line a terminal shows while a step runs: which step, what it waits for, the seconds so far.

A slow model (tens of seconds a step with a local one) otherwise leaves the screen still until the step
ends. The line is transient: it is erased before the step's own lines are printed, and it is never
written where no one watches (a pipe, a file, a dumb terminal), so logs and JSON lines stay clean.
"""

from __future__ import annotations

import atexit
import sys
import time

from rich.console import Console
from rich.errors import LiveError
from rich.live import Live
from rich.spinner import Spinner
from rich.text import Text

__all__ = ["StepSpinner"]

_REFRESHES_PER_SECOND = 4  # enough for a counter of whole seconds and a moving spinner
_SHOWING: set[StepSpinner] = set()  # erased at exit: a run cut short before its end (a second Ctrl-C)


class _Line:
    """The spinner and its text, rendered afresh at each refresh so the seconds count up."""

    def __init__(self) -> None:
        self.text = ""
        self.started = time.monotonic()
        self._spinner = Spinner("dots", style="cyan")

    def __rich__(self) -> Spinner:
        seconds = int(time.monotonic() - self.started)
        self._spinner.update(text=Text(f"{self.text} · {seconds} s", style="dim"))
        return self._spinner


class StepSpinner:
    """One transient spinner line on a terminal console; nothing at all on any other console.

    Args:
        console: Where the line shows; it shows only when the console is an interactive terminal.
    """

    def __init__(self, console: Console) -> None:
        self.console = console
        self._line = _Line()
        self._live: Live | None = None

    @property
    def enabled(self) -> bool:
        return self.console.is_terminal and not self.console.is_dumb_terminal

    @property
    def showing(self) -> bool:
        return self._live is not None

    def show(self, text: str, *, restart: bool = False) -> None:
        """Show ``text`` (started, or changed in place); ``restart`` counts the seconds from zero again."""
        if not self.enabled:
            return
        self._line.text = text
        if restart:
            self._line.started = time.monotonic()
        if self._live is not None:
            self._live.refresh()
            return
        # Text others write to a terminal while the line shows goes above it instead of through it; a
        # stream that is not a terminal is left alone (its lines must not move to this console).
        live = Live(
            self._line,
            console=self.console,
            transient=True,
            refresh_per_second=_REFRESHES_PER_SECOND,
            redirect_stdout=_is_terminal(sys.stdout),
            redirect_stderr=_is_terminal(sys.stderr),
        )
        try:
            live.start()
        except LiveError:  # the console already shows a live display (a progress bar): no spinner
            return
        self._live = live
        _SHOWING.add(self)

    def clear(self) -> None:
        """Erase the line (before printing what it stood for); nothing when it is not showing."""
        live, self._live = self._live, None
        _SHOWING.discard(self)
        if live is not None:
            live.stop()


@atexit.register
def _clear_all() -> None:
    """Erase the lines still showing, which also gives the terminal its cursor back."""
    for spinner in list(_SHOWING):
        spinner.clear()


def _is_terminal(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if callable(isatty) else False
    except ValueError:  # a closed stream
        return False
