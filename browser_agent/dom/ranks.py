"""Where each result of a paged list stands in the whole list: ``(5th result)`` beside the 2nd link of
page 2 of a list of three a page.

Asked to "find and click the 6th search result" over three results a page, the 1.5B model clicked page
links and results at random: the view numbers elements by index, and nothing in it says which result is
the 6th. The view now gives each result its place in the whole list, and the page link of the page
shown reads ``current``.

The results are the links above the row of page links that look alike (same tag, class and container)
and sit in a container each; the largest such group is the list. Their places are counted only where
nothing of the list can be out of view or short: the top of the page is in view and so is the row of
page links, and the page shown is the first, or one with a later page after it (every page before a
later one is full, so each holds as many results as this one). The last page, which may hold fewer,
counts by the size of a full page of the same list that the run saw before (``DomSnapshot.page_size``,
carried from look to look on the same address without its query); without one, it gives no place. Nor
is any given on a page with a scroll panel scrolled down, whose hidden part may hold results.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from urllib.parse import urlsplit

from browser_agent.dom.pagination import page_links
from browser_agent.dom.snapshot import DomSnapshot, ElementNode, ScrollInfo, TextNode

__all__ = [
    "carried_page_size",
    "current_page",
    "full_page_size",
    "ordinal",
    "places_and_size",
    "result_places",
]

_ACTIVE = re.compile(r"\.(?:active|current|selected|is-active|is-current)(?:\.|$)", re.IGNORECASE)
_CLASS_ACTIVE = re.compile(r"(?:^|\s)(?:active|current|selected|is-active|is-current)(?:\s|$)", re.IGNORECASE)
_NUMBER = re.compile(r"\d{1,4}")
_LEAST = 2  # results in a group, at least


def current_page(items: Sequence[ElementNode | TextNode], pages: frozenset[str]) -> ElementNode | None:
    """The page link that says it is the page shown: ``aria-current``, or an ``active`` or ``current``
    class on it or on the item that holds it (Bootstrap's ``li.page-item.active``)."""
    for item in items:
        if not isinstance(item, ElementNode) or item.element_id not in pages:
            continue
        own = item.attributes.get("class", "")
        holder = item.ancestors[0] if item.ancestors else ""
        if "current" in item.states or _CLASS_ACTIVE.search(own) or _ACTIVE.search(holder):
            return item
    return None


def result_places(
    items: Sequence[ElementNode | TextNode], pages: frozenset[str], scroll: ScrollInfo, page_size: int = 0
) -> dict[str, int]:
    """The place in the whole list (1 for the first result of page 1) of each result in view, keyed by
    ``element_id``; empty when the list, the page shown or its size cannot be told for sure.
    ``page_size`` is how many results a full page holds, when an earlier look counted it: the last page
    counts by it."""
    return places_and_size(items, pages, scroll, page_size)[0]


def places_and_size(
    items: Sequence[ElementNode | TextNode], pages: frozenset[str], scroll: ScrollInfo, page_size: int = 0
) -> tuple[dict[str, int], int]:
    """``result_places``, and the size of a full page they were counted by (0 with no places)."""
    found = _the_page(items, pages, scroll)
    if found is None:
        return {}, 0
    shown, full, results = found
    size = len(results) if full else page_size
    if not size or len(results) > size:
        return {}, 0  # the last page may hold fewer: its places are counted only by a full page's size
    first = (shown - 1) * size
    return {node.element_id: first + at for at, node in enumerate(results, start=1)}, size


def full_page_size(items: Sequence[ElementNode | TextNode], scroll: ScrollInfo) -> int:
    """How many results a page of the paged list in ``items`` holds, when this page tells (the first
    page, or one with a later page after it); 0 otherwise."""
    pages = page_links(items)
    found = _the_page(items, pages, scroll) if pages else None
    return len(found[2]) if found is not None and found[1] else 0


def carried_page_size(previous: DomSnapshot | None, url: str) -> int:
    """The size of a full page of the paged list on ``url``, as the last look at the same address
    (without its query: ``?p=3`` is the same list) counted or carried; 0 when none did."""
    if previous is None or urlsplit(previous.url)[:3] != urlsplit(url)[:3]:
        return 0
    return full_page_size(previous.items, previous.scroll) or previous.page_size


def _the_page(
    items: Sequence[ElementNode | TextNode], pages: frozenset[str], scroll: ScrollInfo
) -> tuple[int, bool, list[ElementNode]] | None:
    """The number of the page shown, whether it is full (the first, or one with a later page after it),
    and its results; None when the list or the page shown cannot be told for sure, or part of the list
    may be out of view."""
    current = current_page(items, pages)
    if current is None or scroll.pages_above > 0 or any(_hides_above(item) for item in items):
        return None
    numbers = [
        int(_words(item)) for item in items if isinstance(item, ElementNode) and item.element_id in pages
    ]
    shown = int(_words(current))
    results = _the_list(_items_before(items, pages), current)
    if len(results) < _LEAST:
        return None
    return shown, shown == 1 or shown < max(numbers), results


def _hides_above(item: ElementNode | TextNode) -> bool:
    """Whether ``item`` is a scroll panel scrolled down: what it hides above may be results."""
    panel = item.panel if isinstance(item, ElementNode) else None
    return panel is not None and (panel.elements_above > 0 or panel.screens_above > 0)


def ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``22nd``."""
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th') }"


def _words(node: ElementNode) -> str:
    text = (node.text or node.name).strip()
    return text if _NUMBER.fullmatch(text) else "0"


def _items_before(items: Sequence[ElementNode | TextNode], pages: frozenset[str]) -> list[ElementNode]:
    """The elements that come before the first page link, in reading order."""
    found: list[ElementNode] = []
    for item in items:
        if isinstance(item, ElementNode):
            if item.element_id in pages:
                break
            found.append(item)
    return found


def _the_list(nodes: list[ElementNode], pager: ElementNode) -> list[ElementNode]:
    """The largest group of links that look alike and sit in a container each, in the pager's frame."""
    groups: dict[tuple[object, ...], list[ElementNode]] = defaultdict(list)
    for node in nodes:
        if node.frame_id != pager.frame_id or len(node.chain) < 3 or not _is_link(node):
            continue
        holder = re.sub(r"#[^.]*", "", node.ancestors[0]) if node.ancestors else ""
        groups[(node.tag, node.attributes.get("class", ""), holder, len(node.chain))].append(node)
    best: list[ElementNode] = []
    for group in groups.values():
        if len(group) > len(best) and _a_container_each(group):
            best = group
    return best


def _a_container_each(group: list[ElementNode]) -> bool:
    """Whether the links of ``group`` share one container, under which each has a container of its own
    (the list, and its items)."""
    for depth in range(3, len(group[0].chain) + 1):
        if len({node.chain[-depth] for node in group}) == 1:
            return len({node.chain[-depth + 1] for node in group}) == len(group)
    return False


def _is_link(node: ElementNode) -> bool:
    return node.role == "link" or (node.tag == "a" and not node.role)
