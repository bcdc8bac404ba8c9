"""Bounded, event-driven waits for a page to settle: the load event, the page's fetches, then one
rendering frame without DOM changes.

No fixed sleeps: each wait ends on the event it waits for, or at its cap. A page that is already quiet
costs one frame, not a fixed window; a page whose scripts still change the DOM after ``load`` (a
re-render, a late reshuffle) or that still fetches what it will show is waited for, up to the cap.
"""

from __future__ import annotations

import asyncio
import contextlib

from playwright.async_api import Page

from browser_agent.browser.network import RequestTracker
from browser_agent.browser.playwright_errors import PlaywrightError, TargetClosedError
from browser_agent.browser.watchdog import within

__all__ = ["wait_dom_quiet", "wait_for_settle"]

# Once the document has loaded, resolves at the first task after a rendering frame in which no DOM
# mutation happened (and, when `quiet` > 0, `quiet` ms after the last one), or at `cap` ms. A mutation
# made by any earlier task or by the frame's own callbacks has been observed by then. Hidden documents
# get no frames: one task turn stands in for one.
_DOM_QUIET_JS = """([quiet, cap]) => new Promise((resolve) => {
  let last = 0, dirty = false, done = false;
  const observer = new MutationObserver(() => { dirty = true; last = performance.now(); });
  const channel = new MessageChannel();
  const finish = (settled) => {
    if (done) return;
    done = true; observer.disconnect(); channel.port1.close(); clearTimeout(capTimer); resolve(settled);
  };
  const capTimer = setTimeout(() => finish(false), cap);
  const task = () => channel.port2.postMessage(0);
  const frame = () => (document.hidden ? task() : requestAnimationFrame(task));
  channel.port1.onmessage = () => {
    if (dirty) { dirty = false; frame(); return; }
    const left = quiet - (performance.now() - last);
    if (left > 0) setTimeout(frame, left); else finish(true);
  };
  const start = () => {
    if (done) return;
    observer.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
    last = performance.now();
    frame();
  };
  if (document.readyState === 'complete') start(); else addEventListener('load', start, {once: true});
})"""


async def wait_dom_quiet(page: Page, quiet_ms: float, cap_ms: float) -> bool:
    """Wait for a frame without DOM changes (and ``quiet_ms`` without any), at most ``cap_ms``.

    Returns ``False`` when a navigation replaced the document meanwhile: the new one is not settled yet.
    """
    try:
        await within(page.evaluate(_DOM_QUIET_JS, [quiet_ms, cap_ms]), cap_ms / 1000 + 1)
    except TargetClosedError:
        return True  # the tab is gone: nothing left to wait for
    except PlaywrightError as exc:
        return "Execution context" not in str(exc)  # destroyed by a navigation: settle the new document
    except TimeoutError:
        return True  # the page is too busy to answer: the next capture sees what is there
    return True


async def wait_for_settle(
    page: Page, *, quiet_ms: float, max_ms: float, requests: RequestTracker | None = None
) -> None:
    """Wait for the ``load`` event, then for the tab's fetches (``requests``) and a quiet frame; all
    within ``max_ms``. A fetch started during the quiet check, or a navigation, starts the check again.
    """
    clock = asyncio.get_running_loop().time
    end = clock() + max_ms / 1000
    # Still loading at the cap (a stalled image, a long poll): act on what is there.
    with contextlib.suppress(PlaywrightError):
        await page.wait_for_load_state("load", timeout=max_ms)
    while (left_s := end - clock()) > 0:
        seen = 0
        if requests is not None:
            if not await requests.wait_idle(left_s):
                return
            seen = requests.started
            left_s = end - clock()
            if left_s <= 0:
                return
        settled = await wait_dom_quiet(page, quiet_ms, left_s * 1000)
        if settled and (requests is None or requests.started == seen):
            return
