"""What one capture of a page holds: frozen, slotted value types, no Playwright objects in the values.

A ``DomSnapshot`` is the page as the model sees it: the indexed interactive elements (``selector_map``)
and the visible text between them, in document order (``items``), plus scroll hints. The Playwright
frames needed to act on an element later are kept beside it in ``frames`` (not compared, not saved).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Cell", "DomSnapshot", "ElementNode", "PanelScroll", "Rect", "ScrollInfo", "TextNode"]


@dataclass(frozen=True, slots=True)
class Rect:
    """A box in CSS pixels, relative to the top-left of the top-level page's viewport."""

    x: float
    y: float
    width: float
    height: float

    @property
    def center(self) -> tuple[float, float]:
        return (self.x + self.width / 2, self.y + self.height / 2)


@dataclass(frozen=True, slots=True)
class PanelScroll:
    """What a scroll panel hides on each side: interactive elements, and screens (its own size) of content."""

    elements_above: int = 0
    elements_below: int = 0
    elements_left: int = 0
    elements_right: int = 0
    screens_above: float = 0.0
    screens_below: float = 0.0
    screens_left: float = 0.0
    screens_right: float = 0.0


@dataclass(frozen=True, slots=True)
class Cell:
    """Where an item sits in a data table: numbers within one capture of a frame, 0-based ``column``."""

    table: int
    row: int
    column: int


@dataclass(frozen=True, slots=True)
class ElementNode:
    """One indexed element (an interactive one, or a scroll panel), named by ``index`` in the text the
    model reads.

    ``element_id`` identifies the DOM element itself for as long as its document lives (it survives
    re-captures, unlike ``index``); ``frame_id`` names the frame it lives in (0 is the top frame).
    ``weak`` is True when only a hint (a click listener, ``onclick``, ``cursor: pointer``) made it
    interactive, rather than its tag, ARIA role, tabindex or contenteditable.
    ``chain`` numbers the element and its nearest ancestors (outermost first) within one capture of its
    frame: items sharing a number sit in the same container (see ``browser_agent.reid.groups``).
    ``icon`` is a hint for a control with no text and no name, from the markup that names its icon
    (``send``, ``arrow-left``). ``select_id`` is set on a widget that stands for a hidden native
    ``<select>``: it is indexed as that select (``tag == "select"``, its label, value and options), and
    ``select_id`` names the select as ``element_id`` names the widget.
    ``panel`` is set on a panel whose content scrolls inside it; ``cell`` on an item in a data table.
    """

    index: int
    element_id: str
    tag: str
    role: str | None
    name: str
    text: str
    attributes: Mapping[str, str]
    states: tuple[str, ...]
    rect: Rect
    frame_id: int = 0
    frame_path: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    options_more: int = 0
    ancestors: tuple[str, ...] = ()
    sibling_index: int = 0
    in_shadow: bool = False
    is_new: bool = False
    weak: bool = False
    chain: tuple[int, ...] = ()
    icon: str = ""
    select_id: str = ""
    panel: PanelScroll | None = None
    cell: Cell | None = None

    @property
    def icon_words(self) -> frozenset[str]:
        """The words of ``icon`` in lower case (``send-reply``: send, reply), for the checks that ask
        what a nameless control does."""
        return frozenset(word for word in re.split(r"[^a-z]+", self.icon.lower()) if word)


@dataclass(frozen=True, slots=True)
class TextNode:
    """Visible text between interactive elements (already trimmed and capped); ``chain`` and ``cell`` as
    for ``ElementNode``, the containers that hold all of the text."""

    text: str
    frame_id: int = 0
    chain: tuple[int, ...] = ()
    cell: Cell | None = None


@dataclass(frozen=True, slots=True)
class ScrollInfo:
    """Where the viewport is on the page, and what lies outside it."""

    scroll_y: float = 0.0
    viewport_height: float = 0.0
    page_height: float = 0.0
    elements_above: int = 0
    elements_below: int = 0
    main_top: float | None = None  # where the page's <main>, <article> or role=main begins

    @property
    def main_pages_below(self) -> float | None:
        """How far below the view the main content begins, in pages; None when it is in view or above."""
        if self.main_top is None or not self.viewport_height:
            return None
        rest = self.main_top - self.scroll_y - self.viewport_height
        return rest / self.viewport_height if rest >= 0 else None

    @property
    def pages_above(self) -> float:
        return self.scroll_y / self.viewport_height if self.viewport_height else 0.0

    @property
    def pages_below(self) -> float:
        if not self.viewport_height:
            return 0.0
        rest = self.page_height - self.scroll_y - self.viewport_height
        return max(0.0, rest / self.viewport_height)


@dataclass(frozen=True, slots=True)
class DomSnapshot:
    """One capture of a page: indexed elements, the text between them, and scroll hints.

    ``document_token`` is the random token of the top document's in-page registry; a different token
    means a new document, so nothing in it counts as new elements. ``dialog`` is True when a modal dialog
    was open over the page: only what it holds was captured. ``page_size`` is how many results a page
    of the paged list on this page holds, as an earlier look at a page of it that was full counted
    (0: not known); the last page of the list, which may hold fewer, counts its results' places by it.
    """

    url: str
    title: str
    items: tuple[ElementNode | TextNode, ...]
    selector_map: Mapping[int, ElementNode]
    scroll: ScrollInfo = ScrollInfo()
    capture_ms: float = 0.0
    frames: Mapping[int, Any] = field(default_factory=dict, compare=False, repr=False)
    document_token: str = ""
    dialog: bool = False
    page_size: int = 0

    @property
    def element_ids(self) -> frozenset[str]:
        return frozenset(node.element_id for node in self.selector_map.values())

    def describe_indices(self) -> str:
        """A short phrase naming the indices that exist, for error messages."""
        if not self.selector_map and self.scroll.elements_below:
            return (
                f"none is in view and {self.scroll.elements_below} more are below: scroll down to reach them"
            )
        if not self.selector_map and self.scroll.elements_above:
            return f"none is in view and {self.scroll.elements_above} more are above: scroll up to reach them"
        if not self.selector_map:
            return "this page has no interactive elements (read its text: it may show the outcome)"
        keys = sorted(self.selector_map)
        return f"this page has indices {keys[0]}-{keys[-1]}"
