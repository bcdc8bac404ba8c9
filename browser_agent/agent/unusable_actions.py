"""Actions a step's grammar leaves out because, on this page and in this run, they could only be refused."""

from __future__ import annotations

from pathlib import Path

from browser_agent.browser import BrowserState
from browser_agent.llm.schemas import NO_ELEMENT

__all__ = ["unusable_actions"]


def unusable_actions(state: BrowserState, allowed_files: tuple[Path, ...]) -> tuple[tuple[str, int], ...]:
    """Actions that could only be refused: ``switch_tab`` while one tab is open (it could only name the
    tab already shown; small models sent it for the page's own tabs, step after step, each try refused),
    and ``upload_file`` in a run that allows no file (sent four times on a page with no file input).
    They stay described in the system prompt, which is the same for every run: a 1.5B model's replies
    moved with the one line less (three development episodes of 60 lost, none gained)."""
    unusable = [("switch_tab", NO_ELEMENT)] if len(state.tabs) <= 1 else []
    if not allowed_files and state.snapshot is not None:
        unusable += [("upload_file", index) for index in state.snapshot.selector_map]
    return tuple(unusable)
