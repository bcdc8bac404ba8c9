"""Clicking without paying twice for checks the page can answer at once.

Playwright's ``click`` proves actionability over several round trips (visible, stable across animation
frames, enabled, receives events at its point). One in-page check answers the same questions: enabled,
scrolled into view, and on top at its centre. When it passes, the click skips Playwright's re-checks
(``force``) but keeps everything else: real mouse events, and the wait for a navigation it started. When
it fails, Playwright's full click runs, with its waits and its precise errors.
"""

from __future__ import annotations

from playwright.async_api import ElementHandle

__all__ = ["click_checked"]

_READY_JS = """(el) => {
  if (el.disabled || el.getAttribute('aria-disabled') === 'true' || !el.isConnected) return false;
  let r = el.getBoundingClientRect();
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) {
    el.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
    r = el.getBoundingClientRect();
  }
  if (r.width < 1 || r.height < 1) return false;
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  let top = el.ownerDocument.elementFromPoint(x, y);
  while (top && top.shadowRoot) {
    const inner = top.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === top) break;
    top = inner;
  }
  return !!top && (top === el || el.contains(top));
}"""


async def click_checked(handle: ElementHandle) -> None:
    """Click ``handle``; Playwright's re-checks are skipped only when the in-page check passed."""
    ready = await handle.evaluate(_READY_JS)
    await handle.click(force=bool(ready))
