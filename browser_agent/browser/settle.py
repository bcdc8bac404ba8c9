"""Bounded, event-driven waits for a page to settle: load state, then a short DOM-quiet window.

No fixed sleeps: each wait ends on the event it waits for, or at its cap.
"""

from __future__ import annotations

import asyncio
import contextlib

from playwright.async_api import Page

from browser_agent.browser.playwright_errors import PlaywrightError

__all__ = ["wait_dom_quiet", "wait_for_settle"]

# Resolves after `quiet` ms without DOM mutations, or at `cap` ms, whichever comes first.
_DOM_QUIET_JS = """([quiet, cap]) => new Promise((resolve) => {
  const start = performance.now();
  let timer = 0;
  const finish = () => { observer.disconnect(); clearTimeout(timer); clearTimeout(capTimer);
                         resolve(performance.now() - start); };
  const observer = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(finish, quiet); });
  observer.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  timer = setTimeout(finish, quiet);
  const capTimer = setTimeout(finish, cap);
})"""


async def wait_dom_quiet(page: Page, quiet_ms: float, cap_ms: float) -> None:
    """Wait until the DOM has not changed for ``quiet_ms``, at most ``cap_ms``."""
    try:
        await asyncio.wait_for(page.evaluate(_DOM_QUIET_JS, [quiet_ms, cap_ms]), timeout=cap_ms / 1000 + 1)
    except (PlaywrightError, TimeoutError):
        # A navigation destroyed the context, or the page is busy: the next capture sees what is there.
        return


async def wait_for_settle(page: Page, *, quiet_ms: float, max_ms: float) -> None:
    """Wait for the ``load`` event (capped), then for the DOM to go quiet (capped)."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    # Still loading at the cap (a stalled image, a long poll): act on what is there.
    with contextlib.suppress(PlaywrightError):
        await page.wait_for_load_state("load", timeout=max_ms)
    left = max_ms - (loop.time() - start) * 1000
    if left > 0:
        await wait_dom_quiet(page, quiet_ms, min(left, max_ms))
