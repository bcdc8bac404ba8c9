"""Page-number links: the row `1 2 3 ›` under a list of results, read as the pages they open.

Shown as bare numbers (`[7]<a>3</a>`), a page link reads like an item's position: asked for "the 3rd
search result", the 1.5B model clicked page 3, three times in one run (MiniWoB++'s search-engine). The
view says `page 3` for them.

A row of number links is taken for pages only when it looks like nothing else: at least two links whose
whole text is a number, side by side on one line, numbers rising from left to right, and either a
next/previous arrow beside them or a container named for paging (`ul#pagination`, `nav.pager`,
`div.page-numbers`, a `<nav>`). A rating's `1 2 3 4 5` or a shoe size row has neither.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from browser_agent.dom.snapshot import ElementNode, TextNode

__all__ = ["arrow_step", "page_links"]

_NUMBER = re.compile(r"\d{1,4}")
_ARROWS = frozenset({">", "<", "»", "«", "›", "‹", "→", "←", ">>", "<<", "next", "previous", "prev"})
# A box named for paging: a <nav>, or an id or class word such as pagination, pager, page-numbers. A class
# word "nav" alone is no sign: jQuery UI names its row of tabs ul.ui-tabs-nav.
_PAGING = re.compile(
    r"^nav(?:$|[.#])|(?:^|[.#_-])(?:pagination|paginator|pager|paging|pages|page-numbers)(?:$|[.#_-])"
)
# The arrows that open the page after the one shown, or the one before; "»" and "«" may mean the last or
# the first page, so they say nothing sure.
_NEXT = frozenset({">", "›", "→", "next"})
_PREVIOUS = frozenset({"<", "‹", "←", "prev", "previous"})
_CLICKABLE = frozenset({"a", "button", "li", "span"})
_GAP = 120.0  # pixels at most between the centres of two neighbouring links of one row


def page_links(items: Sequence[ElementNode | TextNode]) -> frozenset[str]:
    """The ``element_id`` of every link in view that opens a page of a paged list."""
    controls = [item for item in items if isinstance(item, ElementNode) and _clickable(item)]
    numbers = [node for node in controls if _NUMBER.fullmatch(_words(node))]
    found: set[str] = set()
    for row in _rows(numbers):
        values = [int(_words(node)) for node in row]
        if len(row) < 2 or values != sorted(set(values)):
            continue
        if _in_paging_box(row) or any(_arrow_beside(row, node) for node in controls):
            found.update(node.element_id for node in row)
    return frozenset(found)


def arrow_step(node: ElementNode, items: Sequence[ElementNode | TextNode], pages: frozenset[str]) -> int:
    """1 when ``node`` is the next-page arrow beside the row of page links ``pages`` ("Next ›", ">"), -1
    when it is the previous-page one, 0 otherwise."""
    words = set(_words(node).split()) | {node.icon or ""}
    step = 1 if words & _NEXT else -1 if words & _PREVIOUS else 0
    if not step or node.element_id in pages:
        return 0
    row = [item for item in items if isinstance(item, ElementNode) and item.element_id in pages]
    row.sort(key=lambda n: n.rect.x)
    beside = bool(row) and (_next_in_row(node, row[0]) or _next_in_row(row[-1], node))
    return step if beside else 0


def _clickable(node: ElementNode) -> bool:
    """A link or button (by tag or role); a tab, option or menu item numbered 1, 2, 3 opens no page."""
    if node.role:
        return node.role in ("link", "button")
    return node.tag in _CLICKABLE


def _words(node: ElementNode) -> str:
    return (node.text or node.name).strip().lower()


def _rows(nodes: list[ElementNode]) -> list[list[ElementNode]]:
    """``nodes`` in runs on one line, left to right, each within ``_GAP`` of the one before."""
    rows: list[list[ElementNode]] = []
    for node in sorted(nodes, key=lambda n: (n.frame_id, round(n.rect.center[1] / 8), n.rect.x)):
        last = rows[-1][-1] if rows else None
        if last is not None and _next_in_row(last, node):
            rows[-1].append(node)
        else:
            rows.append([node])
    return rows


def _next_in_row(left: ElementNode, right: ElementNode) -> bool:
    same_line = abs(left.rect.center[1] - right.rect.center[1]) <= max(4.0, left.rect.height / 2)
    return (
        left.frame_id == right.frame_id
        and same_line
        and 0 < right.rect.center[0] - left.rect.center[0] <= _GAP
    )


def _in_paging_box(row: list[ElementNode]) -> bool:
    """Whether every link of ``row`` sits in a container named for paging (within its nearest three)."""
    return all(any(_PAGING.search(box.lower()) for box in node.ancestors[:3]) for node in row)


def _arrow_beside(row: list[ElementNode], node: ElementNode) -> bool:
    """Whether ``node`` is a next or previous arrow just left of the row's first link or right of its last."""
    if _words(node) not in _ARROWS and (node.icon or "") not in ("next", "prev", "previous"):
        return False
    return _next_in_row(node, row[0]) or _next_in_row(row[-1], node)
