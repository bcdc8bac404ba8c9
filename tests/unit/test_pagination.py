"""page_links: which number links open the pages of a paged list."""

from __future__ import annotations

from dataclasses import replace

from browser_agent.dom.pagination import page_links
from browser_agent.dom.snapshot import ElementNode, Rect


def link(
    text: str, x: float, *, y: float = 500, ancestors: tuple[str, ...] = ("div.results",), tag: str = "a"
) -> ElementNode:
    return ElementNode(
        index=0,
        element_id=f"{text}@{x},{y}",
        tag=tag,
        role=None,
        name="",
        text=text,
        attributes={},
        states=(),
        rect=Rect(x, y, 20, 18),
        ancestors=ancestors,
    )


def test_a_rising_row_of_numbers_with_a_next_arrow_is_a_pager() -> None:
    row = [link("1", 100), link("2", 130), link("3", 160), link(">", 190)]
    assert page_links(row) == {"1@100,500", "2@130,500", "3@160,500"}


def test_a_row_in_a_box_named_for_paging_needs_no_arrow() -> None:
    for box in ("ul#pagination.pagination", "nav", "div.pager", "ol.page-numbers"):
        row = [link(n, 100 + 30 * i, ancestors=("li", box)) for i, n in enumerate(("4", "5", "6"))]
        assert len(page_links(row)) == 3, box


def test_numbers_that_are_no_pager_are_left_alone() -> None:
    rating = [link(str(n), 100 + 30 * n, tag="button") for n in range(1, 6)]
    assert page_links(rating) == set(), "no arrow, no paging box"
    apart = [link("1", 100), link("2", 600), link(">", 630)]
    assert page_links(apart) == set(), "not side by side"
    falling = [link("3", 100), link("2", 130), link("1", 160), link(">", 190)]
    assert page_links(falling) == set()
    two_lines = [link("1", 100, y=100), link("2", 130, y=300), link(">", 160, y=300)]
    assert page_links(two_lines) == set()
    alone = [link("7", 100), link(">", 130)]
    assert page_links(alone) == set(), "one number is no row"
    tabs = [replace(link(n, 100 + 30 * int(n), ancestors=("ul.ui-tabs-nav",)), role="tab") for n in "123"]
    assert page_links(tabs) == set(), "numbered tabs"
    classed = [link(n, 100 + 30 * int(n), ancestors=("li", "ul.steps-nav")) for n in "123"]
    assert page_links(classed) == set(), "a class word nav alone is no paging box"
