"""A click on the wrong place of a paged list, where the goal asks for "the 4th result", is held back once.

The view gives each result of a paged list its place in the whole list (``dom/ranks.py``: ``[4]<a>Cristin
</a> (3rd result)``). Asked for "the 4th search result", the 1.5B model clicked index 4 all the same: the
3rd result, on a page whose 4th was on page 2. A click on a result whose place is not the one the step's
goal (or, when the goal says none, the task) asks for is refused the first time, naming the result asked
for when it is in view, or the page link that opens its page. The same click again goes through.

So is a click on a page link, or a next or previous arrow, that opens another page than the one holding
the result asked for. Asked for "the 8th search result" over three a page, the model clicked index 8,
whatever it was: the arrow to page 2, then the link to page 3 (right), then, on page 3, the link to page 3
again, and then the one to page 2. A link to the page already shown, while the result asked for is in
view, is refused naming that result; a link to a wrong page is refused naming the link of the right one
when it is in view (with none in view, an arrow or link is let through: it may be the way there).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from browser_agent.controller.actions.advice import advise, was_advised
from browser_agent.dom.pagination import arrow_step, page_links
from browser_agent.dom.ranks import current_page, ordinal, places_and_size
from browser_agent.dom.snapshot import DomSnapshot, ElementNode
from browser_agent.errors import HeldBackError

__all__ = ["Whereabouts", "asked_place", "check_place_asked", "whereabouts"]

# "the 4th search result", "7th result", "the 2nd item of the list": an ordinal before a word for a result
_ASKED = re.compile(
    r"\b(\d{1,3})(?:st|nd|rd|th)\s+(?:[a-z]+\s+){0,2}?(?:result|item|entry|hit|link|match)s?\b", re.IGNORECASE
)

# Per session, the elements (page address, element id) a click on which was held back once.
_HELD: WeakKeyDictionary[object, set[tuple[str, str]]] = WeakKeyDictionary()


def asked_place(goal: str, task: str) -> int | None:
    """The place of the list the goal asks for ("the 4th search result": 4), else the task's."""
    for text in (goal, task):
        found = _ASKED.search(text or "")
        if found:
            return int(found.group(1))
    return None


@dataclass(frozen=True)
class Whereabouts:
    """Where the result at ``place`` of the paged list on a page stands: the places of the results in view
    (by element id), the page links' ids, the result itself when in view, the number of the page that
    holds it, and that page's link when in view."""

    place: int
    places: dict[str, int]
    pages: frozenset[str]
    result: ElementNode | None
    page: int
    page_link: ElementNode | None


def whereabouts(snapshot: DomSnapshot, place: int) -> Whereabouts | None:
    """Where the result at ``place`` stands on ``snapshot``; None when the view gives no places (no
    paged list, or one whose places cannot be told)."""
    pages = page_links(snapshot.items)
    places, size = (
        places_and_size(snapshot.items, pages, snapshot.scroll, snapshot.page_size) if pages else ({}, 0)
    )
    if not size:
        return None
    by_id = {n.element_id: n for n in snapshot.selector_map.values()}
    here = next((by_id[e] for e, at in places.items() if at == place and e in by_id), None)
    page = math.ceil(place / size)
    link = next(
        (n for n in snapshot.selector_map.values() if n.element_id in pages and _number(n) == page), None
    )
    return Whereabouts(place, places, pages, here, page, link)


def check_place_asked(
    index: int, node: ElementNode, snapshot: DomSnapshot, goal: str, task: str, owner: object
) -> None:
    """Fail, the first time only, when ``node`` (element ``index``) is a result of a paged list whose
    place is not the one ``goal`` or ``task`` asks for, or a link to another page than the one holding
    it; ``owner`` (the browser session) keeps which clicks were held back.

    Raises:
        ActionError: the place of the clicked result, and the element or page that holds the one asked.
    """
    key = (snapshot.url, node.element_id)
    held = _HELD.setdefault(owner, set())
    wanted = asked_place(goal, task)
    if key in held or wanted is None or was_advised(owner, snapshot, node):
        return
    found = whereabouts(snapshot, wanted)
    if found is None:
        return
    places, pages, here, page, link = found.places, found.pages, found.result, found.page, found.page_link
    mine = places.get(node.element_id)
    if mine is not None and mine in (wanted, asked_place("", task)):
        return  # the place the goal asks for, or the task's: a goal that reads index 3 as "the 3rd result"
    if mine is not None:
        said = f"Not clicked: element {index} is the {ordinal(mine)} result"
    else:
        opens = _page_opened(node, snapshot, pages)
        # with the result asked for in view, any page link leads away from it (or nowhere)
        if opens is None or (here is None and (opens == page or link is None)):
            return
        shown = current_page(snapshot.items, pages)
        if shown is not None and shown.element_id == node.element_id:
            # "opens page 3" of the page shown now: the 1.5B model went on looking for page 3 (seed 58)
            said = f"Not clicked: element {index} is page {opens}, the page shown now"
        else:
            said = f"Not clicked: element {index} opens page {opens}"
    held.add(key)
    anyway = f"(or element {index} again if you meant it)"
    if here is not None:
        advise(owner, snapshot, here)
        if mine is None:
            raise HeldBackError(
                f"{said}, and the {ordinal(wanted)} result is on this page: element {here.index}"
                f"{_named(here)}. Click element {here.index} {anyway}."
            )
        raise HeldBackError(
            f"{said}; the {ordinal(wanted)} result is element {here.index}: click element {here.index} "
            f"{anyway}."
        )
    if link is not None:
        advise(owner, snapshot, link)
    first = f"click element {link.index} (page {page}) first" if link else f"open page {page} first"
    raise HeldBackError(
        f"{said}, and the {ordinal(wanted)} result is on page {page}: {first}, then the {ordinal(wanted)} "
        f"result there {anyway}."
    )


def _page_opened(node: ElementNode, snapshot: DomSnapshot, pages: frozenset[str]) -> int | None:
    """The number of the page that ``node`` opens, when it is a page link or an arrow beside them."""
    if node.element_id in pages:
        return _number(node) or None
    step = arrow_step(node, snapshot.items, pages)
    shown = current_page(snapshot.items, pages)
    if not step or shown is None or not _number(shown):
        return None
    return _number(shown) + step


def _named(node: ElementNode) -> str:
    """`` ('Augus')``: the result's text, so that the advice says which one it is."""
    text = " ".join((node.text or node.name).split())
    return f" ({text[:40]!r})" if text else ""


def _number(node: ElementNode) -> int:
    text = (node.text or node.name).strip()
    return int(text) if text.isdigit() else 0
