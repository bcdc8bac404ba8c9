"""Black out secrets in screenshots: password fields, and fields or text that show a secret's value."""

from __future__ import annotations

import base64
import contextlib
from collections.abc import Sequence

from playwright.async_api import Page

from browser_agent.browser.playwright_errors import PlaywrightError

__all__ = ["masked_screenshot"]

_ATTRIBUTE = "data-browser-agent-mask"

# Marks password fields, fields whose value holds a secret, and the innermost elements whose own text
# holds one; returns how many it marked. Values travel into the page, which showed or received them.
_MARK_JS = """([attr, values]) => {
  let marked = 0;
  const mark = (el) => { el.setAttribute(attr, ''); marked++; };
  const holds = (text) => !!text && values.some((v) => text.includes(v));
  for (const el of document.querySelectorAll('input, textarea')) {
    if ((el.type || '').toLowerCase() === 'password' || holds(el.value)) mark(el);
  }
  if (values.length && document.body) {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (holds(node.nodeValue) && node.parentElement) mark(node.parentElement);
    }
  }
  return marked;
}"""
_UNMARK_JS = """(attr) => {
  for (const el of document.querySelectorAll('[' + attr + ']')) el.removeAttribute(attr);
}"""


async def masked_screenshot(page: Page, mask_values: Sequence[str], timeout_ms: float) -> str:
    """A JPEG of the viewport, base64, with every place that shows a secret blacked out."""
    marked = 0
    try:
        marked = await page.evaluate(_MARK_JS, [_ATTRIBUTE, list(mask_values)])
    except PlaywrightError:
        marked = 0  # the page is navigating: nothing of it is on screen to mask
    mask = [page.locator(f"[{_ATTRIBUTE}]")] if marked else []
    try:
        data = await page.screenshot(
            type="jpeg", quality=70, mask=mask, mask_color="#000000", timeout=timeout_ms
        )
    finally:
        if marked:
            with contextlib.suppress(PlaywrightError):
                await page.evaluate(_UNMARK_JS, _ATTRIBUTE)
    return base64.b64encode(data).decode()
