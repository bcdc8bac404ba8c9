"""What one capture of a page holds: frozen, slotted value types, no Playwright objects in the values.

A ``DomSnapshot`` is the page as the model sees it: the indexed interactive elements (``selector_map``)
and the visible text between them, in document order (``items``), plus scroll hints. The Playwright
frames needed to act on an element later are kept beside it in ``frames`` (not compared, not saved).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["DomSnapshot", "ElementNode", "Rect", "ScrollInfo", "TextNode"]


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
class ElementNode:
    """One interactive element, named by ``index`` in the text the model reads.

    ``element_id`` identifies the DOM element itself for as long as its document lives (it survives
    re-captures, unlike ``index``); ``frame_id`` names the frame it lives in (0 is the top frame).
    ``weak`` is True when only a hint (a click listener, ``onclick``, ``cursor: pointer``) made it
    interactive, rather than its tag, ARIA role, tabindex or contenteditable.
    ``chain`` numbers the element and its nearest ancestors (outermost first) within one capture of its
    frame: items sharing a number sit in the same container (see ``browser_agent.dom.groups``).
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


@dataclass(frozen=True, slots=True)
class TextNode:
    """Visible text between interactive elements (already trimmed and capped); ``chain`` as for
    ``ElementNode``, the containers that hold all of the text."""

    text: str
    frame_id: int = 0
    chain: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class ScrollInfo:
    """Where the viewport is on the page, and what lies outside it."""

    scroll_y: float = 0.0
    viewport_height: float = 0.0
    page_height: float = 0.0
    elements_above: int = 0
    elements_below: int = 0

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
    means a new document, so nothing in it counts as new elements.
    """

    url: str
    title: str
    items: tuple[ElementNode | TextNode, ...]
    selector_map: Mapping[int, ElementNode]
    scroll: ScrollInfo = ScrollInfo()
    capture_ms: float = 0.0
    frames: Mapping[int, Any] = field(default_factory=dict, compare=False, repr=False)
    document_token: str = ""

    @property
    def element_ids(self) -> frozenset[str]:
        return frozenset(node.element_id for node in self.selector_map.values())

    def describe_indices(self) -> str:
        """A short phrase naming the indices that exist, for error messages."""
        if not self.selector_map:
            return "this page has no interactive elements"
        keys = sorted(self.selector_map)
        return f"this page has indices {keys[0]}-{keys[-1]}"
