"""Clicking without paying twice for checks the page can answer at once.

Playwright's ``click`` proves actionability over several round trips (visible, stable across animation
frames, enabled, receives events at its point). One in-page check answers the same questions: enabled,
scrolled into view, and on top at its centre (or, for an element partly under another, at a point of
it that shows: that point is clicked).

``click_at_point`` is the fast path for an element of the top document: that check finds the element by
its id and returns its point, and the mouse clicks there (real mouse events, as Playwright sends them).
No element handle is made, so Playwright does not load its helper script into the new document twice
(for the handle's preview and for the click), which costs more than the click itself on a fresh page.
What the click sets off (a navigation, a new tab) is waited for by ``BrowserSession.watch_input``.

``click_checked`` clicks through an element handle: Playwright's re-checks are skipped (``force``) when
the in-page check passed; when it failed, Playwright's full click runs, with its waits and precise errors
(a disabled element is waited for one second, not the action timeout).
"""

from __future__ import annotations

from playwright.async_api import ElementHandle, Frame, Page

__all__ = ["click_at_point", "click_checked", "hover_checked"]

# Where to click the element in its frame's viewport once scrolled into view: its centre, or when that
# is covered (a button half under another) the first point of a 3x3 grid over it that is on top, else of a
# finer grid (a sliver that shows), as [x, y, x - left, y - top]; null when it is disabled, empty or
# covered all over.
_CENTRE_JS = """(el) => {
  if (!el || el.disabled || el.getAttribute('aria-disabled') === 'true' || !el.isConnected) return null;
  let r = el.getBoundingClientRect();
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) {
    el.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
    r = el.getBoundingClientRect();
  }
  if (r.width < 1 || r.height < 1) return null;
  const onTop = (x, y) => {
    let top = el.ownerDocument.elementFromPoint(x, y);
    while (top && top.shadowRoot) {
      const inner = top.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === top) break;
      top = inner;
    }
    return !!top && (top === el || el.contains(top));
  };
  const grid = [[1 / 2, 1 / 2]];
  for (const fy of [1 / 6, 1 / 2, 5 / 6]) for (const fx of [1 / 6, 1 / 2, 5 / 6]) grid.push([fx, fy]);
  for (const [fx, fy] of grid) {
    const x = r.left + r.width * fx, y = r.top + r.height * fy;
    if (onTop(x, y)) return [x, y, x - r.left, y - r.top];
  }
  // A sliver that shows (a button all but 7 px under another): every 4 px across, 1 px in from its edges,
  // up to 16 points a side.
  const steps = (size) => {
    const n = Math.min(16, Math.max(2, Math.floor((size - 2) / 4) + 1));
    return Array.from({ length: n }, (_, i) => 1 + ((size - 2) * i) / (n - 1));
  };
  for (const dy of steps(r.height)) for (const dx of steps(r.width)) {
    if (onTop(r.left + dx, r.top + dy)) return [r.left + dx, r.top + dy, dx, dy];
  }
  return null;
}"""

# The same for the element registered under an id by the extractor (window.__browserAgent).
_CENTRE_BY_ID_JS = (
    "(id) => (" + _CENTRE_JS + ")(window.__browserAgent ? window.__browserAgent.get(id) : null)"
)


async def click_at_point(page: Page, frame: Frame, element_id: str) -> bool:
    """Click the element ``element_id`` of ``frame`` at its centre if it is in the top document and
    passes the in-page check; ``False`` (nothing done) otherwise, for the handle path to take over.

    Raises:
        playwright Error: the page went away meanwhile (callers map it).
    """
    if frame is not page.main_frame:
        return False  # a child frame's coordinates are not the page's: Playwright maps them
    centre = await frame.evaluate(_CENTRE_BY_ID_JS, element_id)
    if centre is None:
        return False
    x, y = centre[0], centre[1]
    await page.mouse.click(x, y)
    return True


# How long a click waits for a turned-off element to be turned on: a page that enables its button as the
# form fills does so at once; one that waits for an answer (a pop-up) does not within the action timeout.
DISABLED_WAIT_MS = 1_000
_DISABLED_JS = "(el) => el.disabled === true || el.getAttribute('aria-disabled') === 'true'"


async def click_checked(handle: ElementHandle) -> None:
    """Click ``handle``; Playwright's re-checks are skipped only when the in-page check passed. A turned-off
    element is waited for ``DISABLED_WAIT_MS`` only, not the whole action timeout (Playwright's error then
    says it is not enabled)."""
    ready = await handle.evaluate(_CENTRE_JS)
    if ready is None and await handle.evaluate(_DISABLED_JS):
        await handle.click(timeout=DISABLED_WAIT_MS)
        return
    if ready is None:
        await handle.click()
        return
    await handle.click(force=True, position={"x": ready[2], "y": ready[3]})


async def hover_checked(handle: ElementHandle) -> None:
    """Move the mouse over ``handle`` at a point of it that shows (its centre, or the part not under
    another element); Playwright's own hover, with its waits, when the in-page check finds none."""
    ready = await handle.evaluate(_CENTRE_JS)
    if ready is None:
        await handle.hover()
        return
    await handle.hover(force=True, position={"x": ready[2], "y": ready[3]})
