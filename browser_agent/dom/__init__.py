"""Perception: page → DomSnapshot (indexed elements and text), the text the model reads, fingerprints."""

from browser_agent.dom.extractor import extract_snapshot
from browser_agent.dom.models import DomSnapshot, ElementNode, Rect, ScrollInfo, TextNode

__all__ = ["DomSnapshot", "ElementNode", "Rect", "ScrollInfo", "TextNode", "extract_snapshot"]
