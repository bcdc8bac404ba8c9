"""A rich console that suits where the output goes: the terminal's width, or no wrapping when piped; what
it prints passes the gate (``artifacts.redacting_stream``): page and model text may hold a secret."""

from __future__ import annotations

import sys
from typing import TextIO

from rich.console import Console

from browser_agent import artifacts

__all__ = ["gated", "make_console"]

# Piped output (a log file, CI) is not wrapped at rich's default 80 columns: lines stay whole.
_PIPED_WIDTH = 400


def make_console(file: TextIO | None = None, *, stderr: bool = False) -> Console:
    """A console writing to ``file`` (stdout, or stderr with ``stderr``) that never wraps lines."""
    target = artifacts.redacting_stream(file or (sys.stderr if stderr else sys.stdout))
    interactive = hasattr(target, "isatty") and target.isatty()
    if interactive:
        return Console(file=target, soft_wrap=True)
    return Console(file=target, soft_wrap=True, width=_PIPED_WIDTH, no_color=True, highlight=False)


def gated(console: Console) -> Console:
    """``console``, what it prints passing the gate from now on (a console of the caller's: the reporters
    print page and model text)."""
    console.file = artifacts.redacting_stream(console.file)
    return console
