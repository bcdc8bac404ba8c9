"""Perception: page → DomSnapshot (indexed elements and text), the text the model reads, fingerprints."""

from browser_agent.dom.extractor import ExtractOptions, extract_snapshot
from browser_agent.dom.handles import element_handle
from browser_agent.dom.instrument import instrument_pages
from browser_agent.dom.serializer import render
from browser_agent.dom.snapshot import Cell, DomSnapshot, ElementNode, PanelScroll, Rect, ScrollInfo, TextNode

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
