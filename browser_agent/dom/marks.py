"""Set-of-marks screenshots: the page with each indexed element boxed and labelled with its index.

The boxes are drawn in one fixed overlay on the top page and removed right after the picture is taken.
Fields that show one of the given secret values are covered by an opaque box, so the picture can leave
the process like the redacted text does.
"""

from __future__ import annotations

from collections.abc import Iterable

from playwright.async_api import Page

from browser_agent.dom.models import DomSnapshot, ElementNode

__all__ = ["marked_screenshot", "showing"]

_OVERLAY = """([boxes, covers]) => {
  const layer = document.createElement('div');
  layer.id = '__browser_agent_overlay';
  layer.style.cssText = 'position:fixed;inset:0;pointer-events:none;z-index:2147483647';
  const place = (b, style) => {
    const box = document.createElement('div');
    box.style.cssText = `position:fixed;left:${b.x}px;top:${b.y}px;width:${b.w}px;height:${b.h}px;` +
      'box-sizing:border-box;' + style;
    layer.appendChild(box);
    return box;
  };
  for (const b of covers) place(b, 'background:#444');
  for (const b of boxes) {
    const tag = document.createElement('span');
    tag.textContent = String(b.i);
    tag.style.cssText = 'position:absolute;left:0;top:-14px;font:bold 11px sans-serif;color:#fff;' +
      'background:#e0245e;padding:0 3px;line-height:14px';
    place(b, 'outline:2px solid #e0245e').appendChild(tag);
  }
  document.documentElement.appendChild(layer);
}"""
_REMOVE_OVERLAY = "() => document.getElementById('__browser_agent_overlay')?.remove()"
# The extractor caps the values it reports; a secret is recognised by its beginning.
_SECRET_PREFIX = 30


def _box(node: ElementNode) -> dict[str, float]:
    return {"i": node.index, "x": node.rect.x, "y": node.rect.y, "w": node.rect.width, "h": node.rect.height}


def showing(snapshot: DomSnapshot, values: Iterable[str]) -> list[ElementNode]:
    """The elements of ``snapshot`` whose name, text, value or attributes show one of ``values``."""
    prefixes = [" ".join(v.split())[:_SECRET_PREFIX] for v in values if v.strip()]
    if not prefixes:
        return []
    found = []
    for node in snapshot.selector_map.values():
        shown = " ".join([node.name, node.text, *node.states, *node.attributes.values()])
        if any(prefix in shown for prefix in prefixes):
            found.append(node)
    return found


async def marked_screenshot(
    page: Page,
    snapshot: DomSnapshot,
    *,
    hide_values: Iterable[str] = (),
    jpeg_quality: int | None = None,
) -> bytes:
    """A picture of the viewport with every element of ``snapshot`` boxed and numbered.

    Args:
        page: The page ``snapshot`` was captured from.
        snapshot: Its capture; element boxes are in the top viewport's coordinates.
        hide_values: Texts (secret values) that must not appear: fields showing one are covered.
        jpeg_quality: A JPEG of this quality; PNG when None.
    """
    boxes = [_box(n) for n in snapshot.selector_map.values()]
    await page.evaluate(_OVERLAY, [boxes, [_box(n) for n in showing(snapshot, hide_values)]])
    try:
        if jpeg_quality is None:
            return await page.screenshot(type="png")
        return await page.screenshot(type="jpeg", quality=jpeg_quality)
    finally:
        await page.evaluate(_REMOVE_OVERLAY)
