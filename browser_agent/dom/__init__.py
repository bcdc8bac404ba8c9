"""Perception: page → DomSnapshot (indexed elements and text), the text the model reads, fingerprints.

The snapshot's types and its rendering need no browser; the capture and the element handles use
Playwright: they are imported on first use (``from browser_agent.dom import extract_snapshot`` works as
ever), so that reading a snapshot (re-identification, a saved run) loads no Playwright.
"""

import typing as _typing

from browser_agent.dom.serializer import render
from browser_agent.dom.snapshot import Cell, DomSnapshot, ElementNode, PanelScroll, Rect, ScrollInfo, TextNode
from browser_agent.lazy_names import lazy_names as _lazy_names

if _typing.TYPE_CHECKING:
    from browser_agent.dom.extractor import ExtractOptions, extract_snapshot
    from browser_agent.dom.handles import element_handle
    from browser_agent.dom.instrument import instrument_pages

# Each name that needs Playwright, and the module it comes from.
_WITH_PLAYWRIGHT = {
    "ExtractOptions": "extractor",
    "extract_snapshot": "extractor",
    "element_handle": "handles",
    "instrument_pages": "instrument",
}

__all__ = [
    "Cell",
    "DomSnapshot",
    "ElementNode",
    "ExtractOptions",
    "PanelScroll",
    "Rect",
    "ScrollInfo",
    "TextNode",
    "element_handle",
    "extract_snapshot",
    "instrument_pages",
    "render",
]

if not _typing.TYPE_CHECKING:  # type checkers read the imports above; a module __getattr__ would hide typos
    __getattr__, __dir__ = _lazy_names(__name__, _WITH_PLAYWRIGHT, globals())
