"""From an indexed element back to a live Playwright ``ElementHandle``, through the in-page registry."""

from __future__ import annotations

from playwright.async_api import ElementHandle
from playwright.async_api import Error as PlaywrightError

from browser_agent.dom.snapshot import DomSnapshot, ElementNode
from browser_agent.errors import ElementNotFoundError

__all__ = ["element_handle", "select_behind"]

_LOOKUP = "(id) => (window.__browserAgent ? window.__browserAgent.get(id) : null)"


async def element_handle(snapshot: DomSnapshot, node: ElementNode) -> ElementHandle:
    """The live element that ``node`` names, looked up by its ``element_id`` in its own frame.

    Raises:
        ElementNotFoundError: the frame or the element is gone (navigated, removed, re-rendered).
    """
    return await _lookup(snapshot, node, node.element_id)


async def select_behind(snapshot: DomSnapshot, node: ElementNode) -> ElementHandle | None:
    """The hidden native ``<select>`` that the widget ``node`` stands for, or None for any other element.

    Raises:
        ElementNotFoundError: the frame or the select is gone.
    """
    return await _lookup(snapshot, node, node.select_id) if node.select_id else None


async def _lookup(snapshot: DomSnapshot, node: ElementNode, element_id: str) -> ElementHandle:
    gone = ElementNotFoundError(
        f"Element {node.index} (<{node.tag}> {(node.name or node.text)[:40]!r}) is no longer on the page; "
        "look at the new page state and pick an index from it."
    )
    frame = snapshot.frames.get(node.frame_id)
    if frame is None or frame.is_detached():
        raise gone
    try:
        handle = await frame.evaluate_handle(_LOOKUP, element_id)
    except PlaywrightError as exc:
        raise gone from exc
    element: ElementHandle | None = handle.as_element()
    if element is None:
        await handle.dispose()
        raise gone
    return element
