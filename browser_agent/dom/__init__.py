"""Perception: page → DomSnapshot (indexed elements and text), the text the model reads, fingerprints.

The snapshot's types and its rendering need no browser; the capture and the element handles use
Playwright: they are imported on first use (``from browser_agent.dom import extract_snapshot`` works as
ever), so that reading a snapshot (re-identification, a saved run) loads no Playwright.
"""

import importlib as _importlib
import typing as _typing

from browser_agent.dom.serializer import render
from browser_agent.dom.snapshot import Cell, DomSnapshot, ElementNode, PanelScroll, Rect, ScrollInfo, TextNode

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

    def __getattr__(name: str) -> _typing.Any:
        """Import a name that needs Playwright from its module the first time it is asked for."""
        home = _WITH_PLAYWRIGHT.get(name)
        if home is None:
            raise AttributeError(f"module 'browser_agent.dom' has no attribute {name!r}")
        value = getattr(_importlib.import_module(f"browser_agent.dom.{home}"), name)
        globals()[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(globals()) | set(__all__))
