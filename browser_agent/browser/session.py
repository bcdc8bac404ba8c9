"""``BrowserSession``: one browser context with its tabs, dialogs, downloads and bounded waits.

A session launches a Chromium (or connects to a remote one) when it is entered, unless it was handed
an existing ``Browser``, in which case it only opens and closes its own isolated context: that is how
many agents share one browser.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Sequence

from playwright.async_api import Browser, Page

from browser_agent.browser.addresses import checked_address
from browser_agent.browser.config import BrowserConfig
from browser_agent.browser.domains import blocked_message, check_url_allowed, refused_local_schemes
from browser_agent.browser.fence import leave_refused_document
from browser_agent.browser.masking import screenshot_for_model
from browser_agent.browser.playwright_errors import PlaywrightError, map_navigation_errors
from browser_agent.browser.proxy import UNREACHABLE_HEADER
from browser_agent.browser.session_core import SessionCore
from browser_agent.browser.settle import wait_for_settle
from browser_agent.browser.state import BrowserState
from browser_agent.browser.watchdog import bounded, responds, within
from browser_agent.dom.extractor import WHOLE_PAGE, ExtractOptions, extract_snapshot
from browser_agent.dom.snapshot import DomSnapshot
from browser_agent.errors import (
    ActionTimeoutError,
    DomainNotAllowedError,
    NavigationError,
    TabClosedError,
)

__all__ = ["BrowserSession"]


class BrowserSession(SessionCore):
    """An isolated browser context and its tabs, driven and read.

    Use it as ``async with BrowserSession(config) as session:``. Pass ``browser=`` to share an
    already running browser; the session then closes only its own context.
    """

    def __init__(self, config: BrowserConfig | None = None, *, browser: Browser | None = None) -> None:
        super().__init__(config, browser=browser)
        self._last_snapshot: DomSnapshot | None = None

    # -- tabs ------------------------------------------------------------------------------------

    async def new_tab(self, url: str | None = None) -> int:
        """Open a tab, make it current, and load ``url`` in it when given.

        Raises:
            NavigationError: ``url`` is not a valid address.
            DomainNotAllowedError: ``url`` is outside ``allowed_domains``.
        """
        if url:
            check_url_allowed(checked_address(url), self.allowed_domains)
        page = await self.context.new_page()
        tab_id = self._tabs.adopt(page)
        self._tabs.switch(tab_id)
        await self._tabs.signals_of(page)  # its DevTools session, before any script of it can run
        if url:
            await self.navigate(url)
        return tab_id

    # -- navigation ------------------------------------------------------------------------------

    async def navigate(self, url: str) -> int | None:
        """Load ``url`` in the current tab and wait for it to settle; return the HTTP status, if any.

        Raises:
            DomainNotAllowedError: ``url`` is outside ``allowed_domains``.
            NavigationError: ``url`` is not a valid address, or the page could not be loaded.
        """
        check_url_allowed(checked_address(url), self.allowed_domains)
        page = await self._usable_page()
        mark = 0
        if self.fence is not None:
            await self.fence.guard(page)  # before the request: its redirects must be seen too
            mark = self.fence.mark()
        try:
            with map_navigation_errors(url):
                response = await page.goto(url, wait_until="domcontentloaded")
        except NavigationError as exc:
            refused = self.fence.blocked_since(mark, page) if self.fence is not None else []
            if refused:
                message = blocked_message(refused[-1].url, self.fence.allowed if self.fence else ())
                raise DomainNotAllowedError(f"{message} ({url} redirected there)") from exc
            raise
        if response is not None and await response.header_value(UNREACHABLE_HEADER):
            # The fence's proxy answered for a server that refused the connection: without the fence
            # Chromium raises net::ERR_CONNECTION_REFUSED, and a replay must fail here, not one step later.
            raise NavigationError(
                f"Could not load {url}: the server refused the connection or is not running."
            )
        await self.settle(page)
        return response.status if response is not None else None

    async def _usable_page(self) -> Page:
        """The current tab, or a fresh one when it crashed or every tab is closed (said in the events)."""
        if self._tabs.current_id < 0:
            await self.new_tab()
            self._tabs.record("every tab was closed; a new blank tab was opened and is current")
        elif self._tabs.current_id in self._tabs.crashed:
            crashed = self._tabs.current_id
            with contextlib.suppress(PlaywrightError):
                await self._tabs.get(crashed).close()
            await self.new_tab()
            self._tabs.record(f"tab {crashed} had crashed and was closed; a fresh tab is current")
        await self._tabs.wake(self._tabs.current_id)  # a paused tab became current when another closed
        return self.page

    async def unstick(self) -> bool:
        """Free the current tab from a script that never yields: stop the script; when the tab still
        does not answer (dialogs in a loop), close it. Returns whether the tab was kept."""
        try:
            page = self.page
        except TabClosedError:
            return True
        signals = await self._tabs.signals_of(page)
        if signals is not None and await signals.terminate_script(1.0) and await responds(page, 1.0):
            self._tabs.record("a script of the page never yielded and was stopped")
            return True
        tab_id, dialogs = self._tabs.current_id, self._tabs.dialogs_seen()
        with contextlib.suppress(PlaywrightError, TimeoutError):
            await within(page.close(run_before_unload=False), 3)
        self._tabs.forget(page)
        why = f" ({dialogs} dialogs in a row)" if dialogs else ""
        self._tabs.record(f"tab {tab_id} never stopped running a script{why} and was closed")
        return False

    async def go_back(self) -> None:
        page = self.page
        with map_navigation_errors("the previous page"):
            await page.go_back(wait_until="domcontentloaded")
        await self.settle(page)

    async def settle(self, page: Page | None = None) -> None:
        """Wait, bounded, for the load event, the tab's fetches and a rendering frame without DOM changes."""
        cfg = self.config
        page = page or self.page
        requests = self._tabs.requests_of(page)
        await wait_for_settle(page, quiet_ms=cfg.settle_quiet_ms, max_ms=cfg.settle_max_ms, requests=requests)

    @contextlib.asynccontextmanager
    async def watch_input(self) -> AsyncIterator[bool]:
        """Around an input to the current tab (a click, a key press): on leaving, wait until a navigation of
        the tab it started has committed or stopped, and a window it opened is a tab here (each capped by
        ``action_timeout_ms``). Yields ``False`` when the browser cannot tell (not Chromium): no wait then.
        """
        self._tabs.input_sent()
        signals = await self._tabs.signals_of(self.page)
        if signals is None:
            yield False
            return
        mark = signals.mark(self._windows_opened())
        yield True
        await signals.wait(mark, self._windows_opened, self.config.action_timeout_ms / 1000)

    def _windows_opened(self) -> int:
        """Tabs adopted so far, plus windows the fence refused (they will never become tabs)."""
        refused = self.fence.refused_windows() if self.fence is not None else 0
        return self._tabs.opened + refused

    # -- observation -----------------------------------------------------------------------------

    async def state(
        self,
        *,
        include_dom: bool = True,
        screenshot: bool = False,
        extract_options: ExtractOptions | None = None,
        mask_values: Sequence[str] = (),
        marks: bool = False,
        redact: Callable[[str], str] | None = None,
    ) -> BrowserState:
        """URL, title, tabs, what happened since the last state, and the indexed elements.

        ``extract_options`` widens or narrows the capture (replay looks at the whole page, not the
        viewport). A tab that crashed, or whose scripts never yield, is reported, not waited for; with
        every tab closed, a blank one is opened. ``mask_values``: fields and text that show one of these
        values (and password fields) are blacked out in the screenshot. ``marks`` draws each element's
        index on the screenshot (set-of-marks, see ``browser.marks``). ``redact`` (a run with secrets
        passes ``Secrets.redact``) is applied to the page's texts and to dialog messages before they are
        cut to length: a cut would leave part of a secret no redaction recognises.

        Raises:
            ActionTimeoutError: the page did not answer the capture, even after its scripts were stopped.
        """
        page = await self._leave_refused_document(await self._usable_page())
        # The tab list first: a background tab that keeps a script running is paused there, before it
        # takes the processor from the capture.
        tabs = await self.tabs()
        snapshot = None
        if include_dom and self._tabs.current_id not in self._tabs.crashed:
            snapshot = await self.capture(extract_options, redact=redact)
            page = self.page
            if [t.tab_id for t in tabs] != self._tabs.ids():  # the capture closed a stuck tab
                tabs = await self.tabs()
        shot = None
        if screenshot and snapshot is not None:
            shot = await self._screenshot(page, mask_values, snapshot if marks else None)
        current = self._tabs.current_id
        title = snapshot.title if snapshot is not None else next(t.title for t in tabs if t.tab_id == current)
        return BrowserState(
            url=page.url,
            title=title,
            tabs=tabs,
            current_tab_id=current,
            snapshot=snapshot,
            events=self.drain_events(redact),
            screenshot_b64=shot,
        )

    async def _leave_refused_document(self, page: Page) -> Page:
        """A tab showing a document the fence refuses goes back; the model reads why, never the document."""
        said = await leave_refused_document(page, self.allowed_domains)
        if said is not None:
            self._tabs.record(said)
        return page

    async def capture(
        self,
        options: ExtractOptions | None = None,
        *,
        keep: bool = True,
        retry: bool = True,
        redact: Callable[[str], str] | None = None,
    ) -> DomSnapshot:
        """Read the current tab's indexed elements, within ``capture_timeout_ms``; frames the domain fence
        kept empty are shown as one line each. Elements not in ``last_snapshot`` are marked new.

        A tab that does not answer has its scripts stopped (``unstick``) and, with ``retry``, is read
        once more: when it had to be closed, the tab current then is read.

        Args:
            options: Widen or narrow the capture (see ``state``).
            keep: Make the result ``last_snapshot``, the one the next actions' indices refer to. A look
                at the page between two actions does not: the model has not seen it.
            retry: Read again after stopping a stuck tab's scripts, instead of raising at once.
            redact: Applied to every text of the page whole, before it is cut to length (a run with
                secrets passes ``Secrets.redact``).

        Raises:
            ActionTimeoutError: the page did not answer.
            TabClosedError: every tab is closed.
        """
        page = self.page
        blocked = self.fence.blocked_frames() if self.fence is not None else None
        schemes = refused_local_schemes(self.allowed_domains)
        seconds = self.config.capture_timeout_ms / 1000
        previous = self._last_snapshot
        while True:
            reading = extract_snapshot(
                page,
                previous=previous,
                options=options,
                blocked_frames=blocked,
                refused_schemes=schemes,
                redact=redact,
            )
            try:
                snapshot = await bounded(reading, seconds, "Reading the page")
            except ActionTimeoutError:
                await self.unstick()
                if not retry:
                    if keep:  # the page the next indices would refer to is not known any more
                        self._last_snapshot = None
                    raise
                retry, previous = False, None
                page = await self._usable_page()
                continue
            if keep:
                self._last_snapshot = snapshot
            return snapshot

    @property
    def last_snapshot(self) -> DomSnapshot | None:
        """The page the model (or client) last saw, which action indices refer to; ``None`` before any,
        and after a capture that failed."""
        return self._last_snapshot

    async def capture_whole_page(self, *, redact: Callable[[str], str] | None = None) -> DomSnapshot:
        """``capture`` of the whole page, with all of its text (what re-identification reads); it
        becomes ``last_snapshot``, so the indices of the next actions refer to it."""
        return await self.capture(WHOLE_PAGE, redact=redact)

    async def _screenshot(
        self, page: Page, mask_values: Sequence[str], marks: DomSnapshot | None
    ) -> str | None:
        """The step's picture, or ``None``: the step goes on without one, never with a secret unmasked."""
        return await screenshot_for_model(page, mask_values, marks, self.config.capture_timeout_ms / 1000)
