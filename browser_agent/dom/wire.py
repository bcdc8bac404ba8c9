"""The records the page walk (``dom/extract*.js``) sends to Python, one ``TypedDict`` each.

Keys are spelled out and each names one thing, in the walk and here alike: ``element_id`` the walk's id
of an element, ``hole_id`` the key of a frame's hole, ``panel`` what a scroll panel hides, ``page_scroll``
where the page is scrolled, and ``elements_above`` (``_below``, ``_left``, ``_right``) a count of the
interactive elements beyond an edge, of the view or of a panel. What each key holds is said here, once;
``tests/integration/test_dom_wire.py`` runs the real walk on rich pages and fails on a key that is not
declared, or a declared key never sent.

Coordinates are CSS pixels in the top document's viewport (a frame's walk adds its iframe's offset).
"""

# No ``from __future__ import annotations``: TypedDict reads ``NotRequired`` from evaluated annotations.
from typing import Literal, NotRequired, TypedDict

__all__ = [
    "WireElement",
    "WireFrameHole",
    "WireFrameMark",
    "WireItem",
    "WirePageScroll",
    "WirePanel",
    "WireRect",
    "WireResult",
    "WireText",
]


class WireRect(TypedDict):
    """A box: its top-left corner and its size."""

    x: float
    y: float
    width: float
    height: float


class WirePanel(TypedDict):
    """What a scroll panel hides (``extract_layout.js``, ``closePanel``): interactive elements beyond each
    edge, and screens of content beyond it (in panel heights or widths, one decimal)."""

    elements_above: int
    elements_below: int
    elements_left: int
    elements_right: int
    screens_above: float
    screens_below: float
    screens_left: float
    screens_right: float


class WireText(TypedDict):
    """A run of visible text (``extract.js``, ``addText``)."""

    kind: Literal["text"]
    text: str
    cut_length: NotRequired[
        int
    ]  # its length once cut as the walk counts it (only sent when texts come uncut)
    chain: list[int]  # numbers of the elements around it, outermost first (what the run belongs to)
    cell: NotRequired[list[int]]  # [table, row, column] of the data-table cell it is in


class WireFrameMark(TypedDict):
    """Where a child frame's content goes in reading order (``extract.js``)."""

    kind: Literal["frame"]
    hole_id: str  # the hole's key in ``WireResult.frame_holes``


class WireElement(TypedDict):
    """An interactive element (``extract_element.js``, ``makeRecord``)."""

    kind: Literal["element"]
    element_id: str  # the walk's id of the element (stable within one document)
    tag: str
    role: str | None  # its role attribute
    name: str  # accessible name (label, aria-label, alt, title, ...), cut to the name cap
    text: str  # its own visible text, when it has no name
    attributes: dict[str, str]  # the attributes kept (id, name, type, placeholder, href, ...)
    states: list[str]  # checked, disabled, expanded, selected, required, value=..., ...
    rect: WireRect
    ancestors: list[str]  # tag names of its semantic ancestors, nearest first
    sibling_index: int  # its position among same-tag siblings
    in_shadow: bool  # inside a shadow root
    weak: bool  # indexed for its cursor or handler only, not its tag or role
    chain: list[int]  # numbers of it and its nearest ancestors in this walk, outermost first
    options: NotRequired[list[str]]  # a select's first options
    options_more: NotRequired[int]  # how many options are not in ``options``
    select_id: NotRequired[str]  # the element id of the native select a widget stands for
    icon: NotRequired[str]  # the word its icon's markup gives, for a control with no name
    panel: NotRequired[WirePanel]  # it is a scroll panel: what it hides
    cell: NotRequired[list[int]]  # [table, row, column] of the data-table cell it is in


class WireFrameHole(TypedDict):
    """An iframe in view (``extract.js``): where its content goes and what of it can be seen."""

    x: float  # offset of its content box in the top viewport
    y: float
    name: str  # its name or id attribute
    src: str  # its src attribute, resolved
    clip: WireRect  # the part of it inside the view


WireItem = WireText | WireFrameMark | WireElement


class WirePageScroll(TypedDict):
    """Where the frame's document is scrolled, and how tall it is."""

    scroll_y: float  # the page's scrollY
    viewport_height: float
    page_height: float  # its scrollHeight
    main_top: float  # the top of the first <main>, <article> or role=main on the page; -1: none


class WireResult(TypedDict):
    """One frame's walk (``extract.js``, the returned JSON)."""

    document_token: str  # an id of the document, new on every load (tells a new page from the same one)
    title: str
    items: list[WireItem]  # in reading order
    frame_holes: dict[str, WireFrameHole]  # by hole id, for the frames' own walks
    elements_above: int  # interactive elements above the view
    elements_below: int  # and below it
    modal: bool  # a modal dialog is open: only it was walked
    page_scroll: WirePageScroll
