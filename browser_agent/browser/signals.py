"""What an input action set off in its tab: a navigation of the top document, a new window.

Read from the tab's own CDP session. Chromium reports a navigation the page requests
(``Page.frameRequestedNavigation``) and a window it opens (``Page.windowOpen``) while it handles the
input, so once a command sent after the input is answered on that session, both are known: this is how
Playwright's own click knows whether to wait for a navigation. The wait that follows ends on an event:
the new document commits, or the navigation stops without one (a download, a 204); the new tab is
reported, or the fence refused the window. Or at its cap.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from playwright.async_api import CDPSession, Page

from browser_agent.browser.network import NETWORK_ENABLE, RequestTracker
from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.browser.watchdog import within

__all__ = ["SignalMark", "TabSignals"]


@dataclass(frozen=True, slots=True)
class SignalMark:
    """The counts before an input: what came after it is what it set off."""

    requests: int
    window_opens: int
    tabs: int


class TabSignals:
    """Navigation and new-window signals of one tab (Chromium only)."""

    def __init__(self, cdp: CDPSession, main_frame_id: str) -> None:
        self._cdp = cdp
        self._main = main_frame_id
        self.requests = 0  # navigations of the top document requested so far
        self.window_opens = 0  # new windows the page opened so far
        self.navigating = False  # the last requested navigation has neither committed nor stopped
        self._changed = asyncio.Event()
        cdp.on("Page.frameRequestedNavigation", self._on_requested)
        cdp.on("Page.frameNavigated", self._on_navigated)
        cdp.on("Page.frameStoppedLoading", self._on_stopped)
        cdp.on("Page.windowOpen", self._on_window_open)

    @classmethod
    async def attach(cls, page: Page, requests: RequestTracker) -> TabSignals:
        """Open a CDP session on ``page`` and listen to it; its fetches go to ``requests``.

        Raises:
            playwright Error: the browser has no CDP (not Chromium), or the tab is gone.
        """
        cdp = await page.context.new_cdp_session(page)
        requests.listen(cdp)
        tree = await cdp.send("Page.getFrameTree")
        signals = cls(cdp, tree["frameTree"]["frame"]["id"])
        await cdp.send("Network.enable", NETWORK_ENABLE)
        await cdp.send("Page.enable")
        return signals

    def mark(self, tabs: int) -> SignalMark:
        return SignalMark(self.requests, self.window_opens, tabs)

    async def terminate_script(self, cap_s: float) -> bool:
        """Stop the script the tab's main thread is running (a loop that never yields)."""
        try:
            await within(self._cdp.send("Runtime.terminateExecution"), cap_s)
        except (PlaywrightError, TimeoutError):
            return False
        return True

    async def pause(self, cap_s: float) -> bool:
        """Stop the tab's running script and keep its scripts from running again (timers, events), until
        ``resume``. Whether both commands were answered within ``cap_s``.

        Both are sent at once: the second waits for the tab's main thread, which the first frees, so it
        is applied before a timer can start the loop again (sent one after the other, a page that spins
        in a ``setInterval`` was found spinning again). ``Page.setWebLifecycleState`` ("frozen") would be
        the natural call, but Chromium (156, headless) answers it and freezes nothing: timers kept firing.
        """
        disable = self._cdp.send("Emulation.setScriptExecutionDisabled", {"value": True})
        stop = self._cdp.send("Runtime.terminateExecution")
        try:
            answers = await within(asyncio.gather(disable, stop, return_exceptions=True), cap_s)
        except TimeoutError:
            return False
        return not any(isinstance(answer, BaseException) for answer in answers)

    async def resume(self, cap_s: float) -> bool:
        """Let the tab's scripts run again after ``pause``; whether the browser answered within ``cap_s``."""
        try:
            await within(self._cdp.send("Emulation.setScriptExecutionDisabled", {"value": False}), cap_s)
        except (PlaywrightError, TimeoutError):
            return False
        return True

    def poke(self) -> None:
        """Something the wait looks at changed elsewhere (a tab was reported)."""
        self._changed.set()

    async def wait(self, mark: SignalMark, tabs: Callable[[], int], cap_s: float) -> None:
        """After an input: wait until what it set off is done; ``tabs()`` counts the tabs opened so far."""
        loop = asyncio.get_running_loop()
        end = loop.time() + cap_s
        # Answered after the events the input caused (Chromium may hold it while a navigation is pending).
        with contextlib.suppress(PlaywrightError, TimeoutError):  # the tab is gone, or the cap
            await within(self._cdp.send("Page.enable"), cap_s)
        while self._pending(mark, tabs()) and (left := end - loop.time()) > 0:
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await within(self._changed.wait(), left)

    def _pending(self, mark: SignalMark, tabs: int) -> bool:
        navigating = self.requests > mark.requests and self.navigating
        new_tabs_missing = tabs - mark.tabs < self.window_opens - mark.window_opens
        return navigating or new_tabs_missing

    # -- CDP events --------------------------------------------------------------------------------

    def _on_requested(self, event: dict[str, Any]) -> None:
        if event.get("frameId") == self._main and event.get("disposition") == "currentTab":
            self.requests += 1
            self.navigating = True
            self._changed.set()

    def _on_navigated(self, event: dict[str, Any]) -> None:
        if event.get("frame", {}).get("id") == self._main:
            self.navigating = False
            self._changed.set()

    def _on_stopped(self, event: dict[str, Any]) -> None:
        if event.get("frameId") == self._main:
            self.navigating = False
            self._changed.set()

    def _on_window_open(self, event: dict[str, Any]) -> None:
        self.window_opens += 1
        self._changed.set()
