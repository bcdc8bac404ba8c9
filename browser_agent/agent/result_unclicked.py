"""A ``done`` while the result a task asks to click was never clicked: where that result is.

Asked to "enter "Lyda" and press Search, then find and click the 2nd search result", the 1.5B model typed,
searched, and called ``done`` with the results in front of it: in 8 of the 18 search-engine losses of
seeds 0-29, no result was clicked in the run. When the task asks to click (open, follow, ...) the Nth
result of a paged list, the view holds that list, and no result of it was clicked in the run, the
``done`` guard holds the ``done`` back once and names the element to click: the result itself when it is
in view, else the link of the page that holds it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection
from dataclasses import dataclass

from browser_agent.controller.actions.place_guard import asked_place
from browser_agent.dom.pagination import page_links
from browser_agent.dom.ranks import ordinal, places_and_size
from browser_agent.dom.snapshot import DomSnapshot, ElementNode

__all__ = ["UnclickedResult", "unclicked_result"]

# a verb that asks for the result to be clicked, before its ordinal: "find and click the 4th result"
_CLICK_ASKED = re.compile(
    r"\b(?:click|open|follow|tap|visit|select|choose)\w*\b[^.?!]*?\b\d{1,3}(?:st|nd|rd|th)\b"
)


@dataclass(frozen=True)
class UnclickedResult:
    """The place the task asks for, and the element that gets there: the result, or its page's link."""

    place: int
    result: ElementNode | None
    page: int
    page_link: ElementNode | None

    def advice(self) -> str:
        """What to click, in the words of a refusal."""
        wanted = f"the {ordinal(self.place)} result"
        if self.result is not None:
            return f"{wanted} is element {self.result.index}: click it first"
        if self.page_link is not None:
            link = f"element {self.page_link.index} (page {self.page})"
            return f"{wanted} is on page {self.page}: click {link} first, then {wanted} there"
        return f"{wanted} is on page {self.page}: open that page first, then click {wanted} there"


def unclicked_result(
    task: str, snapshot: DomSnapshot | None, clicked: Collection[str]
) -> UnclickedResult | None:
    """Where the result ``task`` asks to click stands on ``snapshot``, when the view shows the paged list
    it belongs to and none of its results shown is among the ``clicked`` element ids of the run; None
    when the task asks for no such click, the view shows no such list, or a result of it was clicked."""
    wanted = asked_place("", task)
    if snapshot is None or wanted is None or not _CLICK_ASKED.search(task.lower()):
        return None
    pages = page_links(snapshot.items)
    if not pages:
        return None
    places, size = places_and_size(snapshot.items, pages, snapshot.scroll, snapshot.page_size)
    if not size or any(element_id in clicked for element_id in places):
        return None
    by_id = {node.element_id: node for node in snapshot.selector_map.values()}
    result = next((by_id[e] for e, place in places.items() if place == wanted and e in by_id), None)
    page = math.ceil(wanted / size)
    link = next(
        (
            n
            for n in snapshot.selector_map.values()
            if n.element_id in pages and (n.text or n.name).strip() == str(page)
        ),
        None,
    )
    return UnclickedResult(wanted, result, page, link)
