"""The records the page walk (``dom/extract*.js``) sends to Python, one ``TypedDict`` each.

Keys stay short on the wire: a large page sends thousands of records, and every byte is serialised in
the page and parsed here. What each key holds is said here, once; ``tests/integration/test_dom_wire.py``
runs the real walk on rich pages and fails on a key that is not declared, or a declared key never sent.

Coordinates are CSS pixels in the top document's viewport (a frame's walk adds its iframe's offset).
"""

# No ``from __future__ import annotations``: TypedDict reads ``NotRequired`` from evaluated annotations.
from typing import Literal, NotRequired, TypedDict

__all__ = ["WireElement", "WireFrameHole", "WireFrameMark", "WireItem", "WirePanel", "WireResult", "WireText"]


class WirePanel(TypedDict):
    """What a scroll panel hides (``extract_layout.js``, ``closePanel``): interactive elements beyond each
    edge (``up``/``down``/``left``/``right``, counts) and screens of content beyond it (``pu``/``pd``/
    ``pl``/``pr``, in panel heights or widths, one decimal)."""

    up: int
    down: int
    left: int
    right: int
    pu: float
    pd: float
    pl: float
    pr: float


class WireText(TypedDict):
    """A run of visible text (``extract.js``, ``addText``)."""

    k: Literal["t"]
    text: str
    n: NotRequired[int]  # its length as the walk counted it, before any cut (only when sent uncut)
    ch: list[int]  # numbers of the elements around it, outermost first (what the run belongs to)
    c: NotRequired[list[int]]  # [table, row, column] of the data-table cell it is in


class WireFrameMark(TypedDict):
    """Where a child frame's content goes in reading order (``extract.js``)."""

    k: Literal["f"]
    id: str  # the hole's id in ``WireResult.frames``


class WireElement(TypedDict):
    """An interactive element (``extract_element.js``, ``makeRecord``)."""

    k: Literal["e"]
    id: str  # the walk's id of the element (stable within one document)
    tag: str
    role: str | None  # its role attribute
    name: str  # accessible name (label, aria-label, alt, title, ...), cut to the name cap
    text: str  # its own visible text, when it has no name
    attrs: dict[str, str]  # the attributes kept (id, name, type, placeholder, href, ...)
    states: list[str]  # checked, disabled, expanded, selected, required, value=..., ...
    x: float
    y: float
    w: float
    h: float
    anc: list[str]  # tag names of its semantic ancestors, nearest first
    sib: int  # its position among same-tag siblings
    sh: bool  # inside a shadow root
    weak: bool  # indexed for its cursor or handler only, not its tag or role
    ch: list[int]  # numbers of it and its nearest ancestors in this walk, outermost first
    opts: NotRequired[list[str]]  # a select's first options
    more: NotRequired[int]  # how many options are not in ``opts``
    sel: NotRequired[str]  # the id of the native select a widget stands for
    icon: NotRequired[str]  # the word its icon's markup gives, for a control with no name
    scroll: NotRequired[WirePanel]  # it is a scroll panel: what it hides
    c: NotRequired[list[int]]  # [table, row, column] of the data-table cell it is in


class WireClip(TypedDict):
    x: float
    y: float
    w: float
    h: float


class WireFrameHole(TypedDict):
    """An iframe in view (``extract.js``): where its content goes and what of it can be seen."""

    x: float  # offset of its content box in the top viewport
    y: float
    name: str  # its name or id attribute
    src: str  # its src attribute, resolved
    clip: WireClip  # the part of it inside the view


WireItem = WireText | WireFrameMark | WireElement


class WireScroll(TypedDict):
    y: float  # the page's scrollY
    vh: float  # viewport height
    ph: float  # page height (scrollHeight)
    mt: float  # the top of the first <main>, <article> or role=main on the page; -1: none


class WireResult(TypedDict):
    """One frame's walk (``extract.js``, the returned JSON)."""

    token: str  # an id of the document, new on every load (tells a new page from the same one)
    title: str
    items: list[WireItem]  # in reading order
    frames: dict[str, WireFrameHole]  # holes by id, for the frames' own walks
    above: int  # interactive elements above the view
    below: int  # and below it
    modal: bool  # a modal dialog is open: only it was walked
    scroll: WireScroll
