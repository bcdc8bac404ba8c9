"""A ``done`` while the result a task asks to click was never clicked: where that result is.

Asked to "enter "Lyda" and press Search, then find and click the 2nd search result", the 1.5B model typed,
searched, and called ``done`` with the results in front of it: in 8 of the 18 search-engine losses of
seeds 0-29, no result was clicked in the run. When the task asks to click (open, follow, ...) the Nth
result of a paged list, the view holds that list, and no result of it was clicked in the run, the
``done`` guard holds the ``done`` back once and names the element to click: the result itself when it is
in view, else the link of the page that holds it.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from browser_agent.controller.actions.place_guard import Whereabouts, asked_place, whereabouts
from browser_agent.dom.ranks import ordinal
from browser_agent.dom.snapshot import DomSnapshot

__all__ = ["advice", "unclicked_result"]

# a verb that asks for the result to be clicked, before its ordinal: "find and click the 4th result"
_CLICK_ASKED = re.compile(
    r"\b(?:click|open|follow|tap|visit|select|choose)\w*\b[^.?!]*?\b\d{1,3}(?:st|nd|rd|th)\b"
)


def advice(found: Whereabouts) -> str:
    """What to click to reach the result ``found`` tells of, in the words of a refusal."""
    wanted = f"the {ordinal(found.place)} result"
    if found.result is not None:
        return f"{wanted} is element {found.result.index}: click it first"
    if found.page_link is not None:
        link = f"element {found.page_link.index} (page {found.page})"
        return f"{wanted} is on page {found.page}: click {link} first, then {wanted} there"
    return f"{wanted} is on page {found.page}: open that page first, then click {wanted} there"


def unclicked_result(task: str, snapshot: DomSnapshot | None, clicked: Collection[str]) -> Whereabouts | None:
    """Where the result ``task`` asks to click stands on ``snapshot``, when the view shows the paged list
    it belongs to and none of its results shown is among the ``clicked`` element ids of the run; None
    when the task asks for no such click, the view shows no such list, or a result of it was clicked."""
    wanted = asked_place("", task)
    if snapshot is None or wanted is None or not _CLICK_ASKED.search(task.lower()):
        return None
    found = whereabouts(snapshot, wanted)
    if found is None or any(element_id in clicked for element_id in found.places):
        return None
    return found
