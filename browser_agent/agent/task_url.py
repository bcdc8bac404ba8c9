"""The web address a task names, opened before the first step so that the model starts on the page.

Small models given a blank tab guess a whole form's indices before they have seen it ("go there, type
here, click there"); the guesses are skipped and the model reads its first step as a failure. Opening the
address first saves that step, and its model call, for every model.
"""

from __future__ import annotations

import re

__all__ = ["task_url"]

_URL = re.compile(r"https?://[^\s<>\"'`]+", re.IGNORECASE)
_TRAILING = ".,;:!?)]}'\""


def task_url(task: str) -> str | None:
    """The one ``http(s)`` address in ``task``; None when it names none, or several (the model picks)."""
    found = {match.group(0).rstrip(_TRAILING) for match in _URL.finditer(task)}
    found.discard("")
    return found.pop() if len(found) == 1 else None
