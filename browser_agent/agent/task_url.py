"""The web address a task names, opened before the first step so that the model starts on the page.

Small models given a blank tab guess a whole form's indices before they have seen it ("go there, type
here, click there"); the guesses are skipped and the model reads its first step as a failure. Opening the
address first saves that step, and its model call, for every model.

A ``file://`` address is a local document the user named: it is opened too, unless the run is fenced and
its fence does not list ``file:`` (the fence decides what a fenced run may read from this machine).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from browser_agent.browser.addresses import address_fault
from browser_agent.browser.domains import is_url_allowed

__all__ = ["task_url"]

_URL = re.compile(r"(?:https?|file)://[^\s<>\"'`]+", re.IGNORECASE)
_TRAILING = ".,;:!?)]}'\""


def task_url(task: str, allowed_domains: Sequence[str] | None = None) -> str | None:
    """The one ``http(s)`` or ``file://`` address in ``task``; None when it names none, or several (the
    model picks), or a local file the fence ``allowed_domains`` does not let the run open, or not a valid
    address (``http://[zz/``)."""
    found = {match.group(0).rstrip(_TRAILING) for match in _URL.finditer(task)}
    found.discard("")
    url = found.pop() if len(found) == 1 else None
    if url is not None and address_fault(url) is not None:
        return None
    if url is not None and url.lower().startswith("file:") and not is_url_allowed(url, allowed_domains):
        return None
    return url
