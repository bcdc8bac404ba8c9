"""``BrowserSession``: one browser context with its tabs, dialogs, downloads and bounded waits.

A session launches a Chromium (or connects to a remote one) when it is entered, unless it was handed
an existing ``Browser``, in which case it only opens and closes its own isolated context: that is how
many agents share one browser.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from types import TracebackType

from playwright.async_api import Browser, BrowserContext, Page, Playwright, async_playwright

from browser_agent.browser.config import BrowserConfig
from browser_agent.browser.domains import check_url_allowed
from browser_agent.browser.launch import launch_browser, launch_persistent
from browser_agent.browser.playwright_errors import PlaywrightError, map_navigation_errors
from browser_agent.browser.settle import wait_for_settle
from browser_agent.browser.state import BrowserState, TabInfo
from browser_agent.browser.tabs import TabRegistry
from browser_agent.dom.extractor import ExtractOptions, extract_snapshot
from browser_agent.dom.hooks import install_page_hooks
from browser_agent.dom.models import DomSnapshot
from browser_agent.errors import BrowserError, TabClosedError, UserError

__all__ = ["BrowserSession"]


class BrowserSession:
    """An isolated browser context and its tabs.

    Use it as ``async with BrowserSession(config) as session:``. Pass ``browser=`` to share an
    already running browser; the session then closes only its own context.
    """

    def __init__(self, config: BrowserConfig | None = None, *, browser: Browser | None = None) -> None:
        self.config = config or BrowserConfig()
        self._shared_browser = browser
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        self._context: BrowserContext | None = None
        self._tabs = TabRegistry(self.config)
        self.last_snapshot: DomSnapshot | None = None
        self._driver: str | None = None

    async def __aenter__(self) -> BrowserSession:
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    # -- lifecycle -------------------------------------------------------------------------------

    async def start(self) -> None:
        """Launch or connect, open a context and a first tab. Idempotent."""
        if self._context is not None:
            return
        try:
            self._context = await self._open_context()
        except BaseException:
            await self.close()
            raise
        self._context.set_default_timeout(self.config.action_timeout_ms)
        self._context.set_default_navigation_timeout(self.config.navigation_timeout_ms)
        await install_page_hooks(self._context)
        self._context.on("page", self._tabs.follow)
        for page in self._context.pages:
            self._tabs.adopt(page)
        if not self._context.pages:
            await self._context.new_page()

    async def _open_context(self) -> BrowserContext:
        cfg = self.config
        options = {
            "viewport": {"width": cfg.viewport.width, "height": cfg.viewport.height},
            "accept_downloads": True,
        }
        if self._shared_browser is not None:
            return await self._shared_browser.new_context(**options)  # type: ignore[arg-type]
        self._playwright = await async_playwright().start()
        if cfg.user_data_dir is not None and not (cfg.cdp_url or cfg.ws_endpoint):
            return await launch_persistent(self._playwright, cfg, options)
        self._browser = await launch_browser(self._playwright, cfg)
        if cfg.cdp_url and self._browser.contexts:
            return self._browser.contexts[0]
        return await self._browser.new_context(**options)  # type: ignore[arg-type]

    async def close(self) -> None:
        """Close the context (and the browser and Playwright when this session started them)."""
        await self._tabs.finish_downloads()
        for closer in (self._context, self._browser):
            if closer is not None:
                with contextlib.suppress(PlaywrightError):  # already gone: closing is best effort
                    await closer.close()
        self._context = self._browser = None
        if self._playwright is not None:
            await self._playwright.stop()
            self._playwright = None

    @contextlib.contextmanager
    def driven_by(self, task: str) -> Iterator[None]:
        """Mark the session as driven by the running agent doing ``task``, for the ``with`` block.

        Raises:
            UserError: another running agent drives it already; both would act on the same pages.
        """
        if self._driver is not None:
            raise UserError(
                f"This BrowserSession is already driven by a running agent (task {self._driver[:80]!r}); "
                "two agents on one session act on each other's pages. Give each agent its own session "
                "(sessions can share one browser: BrowserSession(config, browser=browser)), or run the "
                "tasks with browser_agent.run_many."
            )
        self._driver = task
        try:
            yield
        finally:
            self._driver = None

    @property
    def context(self) -> BrowserContext:
        if self._context is None:
            raise BrowserError("The browser session is not started; use `async with BrowserSession(...)`.")
        return self._context

    # -- tabs ------------------------------------------------------------------------------------

    @property
    def page(self) -> Page:
        """The current tab."""
        self.context  # noqa: B018 - raises a clear error when not started
        return self._tabs.current()

    @property
    def current_tab_id(self) -> int:
        return self._tabs.current_id

    async def tabs(self) -> tuple[TabInfo, ...]:
        return await self._tabs.infos()

    async def new_tab(self, url: str | None = None) -> int:
        """Open a tab, make it current, and load ``url`` in it when given."""
        page = await self.context.new_page()
        tab_id = self._tabs.adopt(page)
        self._tabs.switch(tab_id)
        if url:
            await self.navigate(url)
        return tab_id

    async def switch_tab(self, tab_id: int) -> Page:
        page = self._tabs.switch(tab_id)
        await page.bring_to_front()
        return page

    async def close_tab(self, tab_id: int) -> None:
        page = self._tabs.get(tab_id)
        await page.close()
        self._tabs.forget(page)

    def drain_events(self) -> tuple[str, ...]:
        """What happened since the last call: dialogs, downloads, tabs opened or closed, crashes."""
        return self._tabs.drain_events()

    async def wait_for_downloads(self) -> list[Path]:
        """Wait for downloads in progress; return every file saved so far."""
        await self._tabs.finish_downloads()
        return list(self._tabs.downloads)

    # -- navigation ------------------------------------------------------------------------------

    async def navigate(self, url: str) -> None:
        """Load ``url`` in the current tab and wait for it to settle.

        Raises:
            DomainNotAllowedError: ``url`` is outside ``allowed_domains``.
            NavigationError: the page could not be loaded.
        """
        check_url_allowed(url, self.config.allowed_domains)
        page = self.page
        with map_navigation_errors(url):
            response = await page.goto(url, wait_until="domcontentloaded")
        if response is not None and response.status >= 400:
            self._tabs.record(f"{url} answered HTTP {response.status}")
        await self.settle(page)

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
        signals = await self._tabs.signals_of(self.page)
        if signals is None:
            yield False
            return
        mark = signals.mark(self._tabs.opened)
        yield True
        await signals.wait(mark, lambda: self._tabs.opened, self.config.action_timeout_ms / 1000)

    # -- observation -----------------------------------------------------------------------------

    async def state(
        self,
        *,
        include_dom: bool = True,
        screenshot: bool = False,
        extract_options: ExtractOptions | None = None,
    ) -> BrowserState:
        """URL, title, tabs, what happened since the last state, and the indexed elements.

        ``extract_options`` widens or narrows the capture (replay looks at the whole page, not the viewport).
        """
        page = self.page
        if page.is_closed():
            raise TabClosedError("The current tab is closed; switch to another tab.")
        snapshot = None
        if include_dom:
            snapshot = await extract_snapshot(page, previous=self.last_snapshot, options=extract_options)
            self.last_snapshot = snapshot
        shot = None
        if screenshot:
            shot = base64.b64encode(await page.screenshot(type="jpeg", quality=70)).decode()
        tabs = await self.tabs()
        title = await _safe_title(page)
        return BrowserState(
            url=page.url,
            title=title,
            tabs=tabs,
            current_tab_id=self._tabs.current_id,
            snapshot=snapshot,
            events=self.drain_events(),
            screenshot_b64=shot,
        )


async def _safe_title(page: Page) -> str:
    try:
        return await asyncio.wait_for(page.title(), timeout=2)
    except (PlaywrightError, TimeoutError):
        return ""
