"""``BrowserSession``: one browser context with its tabs, dialogs, downloads and bounded waits.

A session launches a Chromium (or connects to a remote one) when it is entered, unless it was handed
an existing ``Browser``, in which case it only opens and closes its own isolated context: that is how
many agents share one browser.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from pathlib import Path
from types import TracebackType

from playwright.async_api import Browser, BrowserContext, Page, Playwright

from browser_agent.browser.config import BrowserConfig
from browser_agent.browser.domains import blocked_message, check_url_allowed
from browser_agent.browser.fence import DomainFence
from browser_agent.browser.launch import context_options, launch_browser, launch_persistent, start_playwright
from browser_agent.browser.marks import drawn_marks
from browser_agent.browser.masking import masked_screenshot
from browser_agent.browser.playwright_errors import PlaywrightError, map_navigation_errors
from browser_agent.browser.settle import wait_for_settle
from browser_agent.browser.state import BrowserState, TabInfo
from browser_agent.browser.tabs import TabRegistry
from browser_agent.browser.watchdog import bounded, responds, within
from browser_agent.dom.extractor import ExtractOptions, extract_snapshot
from browser_agent.dom.hooks import install_page_hooks
from browser_agent.dom.models import DomSnapshot
from browser_agent.errors import (
    ActionTimeoutError,
    BrowserError,
    DomainNotAllowedError,
    NavigationError,
    TabClosedError,
    UserError,
)

__all__ = ["BrowserSession"]

_CLOSE_S = 10.0


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
        self.fence: DomainFence | None = None
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
        try:  # a failure or a cancellation half-way must not leave a browser behind
            self._context = await self._open_context()
            await self._prepare(self._context)
        except BaseException:
            await self.close()
            raise

    async def _prepare(self, context: BrowserContext) -> None:
        context.set_default_timeout(self.config.action_timeout_ms)
        context.set_default_navigation_timeout(self.config.navigation_timeout_ms)
        await install_page_hooks(context)
        if self.config.allowed_domains is not None:
            await self.fence_to(self.config.allowed_domains)
        context.on("page", self._tabs.follow)
        for page in context.pages:
            self._tabs.adopt(page)
        if not context.pages:
            await context.new_page()

    async def fence_to(self, allowed: tuple[str, ...]) -> None:
        """Keep every document of this session on ``allowed`` from now on (see ``DomainFence``).

        Raises:
            UserError: the session is already fenced to another list.
        """
        if self.fence is not None:
            if set(self.fence.allowed) != set(allowed):
                raise UserError(
                    f"This session is already limited to {list(self.fence.allowed)}; the agent asked for "
                    f"{list(allowed)}. Give the allowed domains in one place."
                )
            return
        self.fence = DomainFence(
            allowed,
            subresources=self.config.fence_subresources,
            on_block=lambda _blocked: self._tabs.poke_signals(),
        )
        await self.fence.install(self.context)

    @property
    def allowed_domains(self) -> tuple[str, ...] | None:
        """The domains this session keeps to; ``None`` when it is not fenced."""
        return self.fence.allowed if self.fence is not None else None

    async def _open_context(self) -> BrowserContext:
        cfg = self.config
        options = context_options(cfg)
        if self._shared_browser is not None:
            return await self._shared_browser.new_context(**options)
        self._playwright = await start_playwright()
        if cfg.user_data_dir is not None and not (cfg.cdp_url or cfg.ws_endpoint):
            return await launch_persistent(self._playwright, cfg, options)
        self._browser = await launch_browser(self._playwright, cfg)
        if cfg.cdp_url and self._browser.contexts:
            return self._browser.contexts[0]
        return await self._browser.new_context(**options)

    async def close(self) -> None:
        """Close the context (and the browser and Playwright when this session started them).

        Each part gets a bounded time: a browser that no longer answers is left to Playwright's
        driver, whose exit ends it.
        """
        with contextlib.suppress(TimeoutError):
            await within(self._tabs.finish_downloads(), _CLOSE_S)
        try:
            for closer in (self._context, self._browser):
                if closer is not None:
                    with contextlib.suppress(PlaywrightError, TimeoutError):  # closing is best effort
                        await within(closer.close(), _CLOSE_S)
        finally:
            self._context = self._browser = None
            if self._playwright is not None:
                playwright, self._playwright = self._playwright, None
                await playwright.stop()

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

    def drain_events(self, redact: Callable[[str], str] | None = None) -> tuple[str, ...]:
        """What happened since the last call: dialogs, downloads, tabs opened or closed, crashes, and
        documents the domain fence refused. ``redact`` is applied to a dialog's message before it is cut."""
        fenced = tuple(self.fence.drain_events()) if self.fence is not None else ()
        return self._tabs.drain_events(redact) + fenced

    async def wait_for_downloads(self) -> list[Path]:
        """Wait for downloads in progress; return every file saved so far."""
        await self._tabs.finish_downloads()
        return list(self._tabs.downloads)

    # -- navigation ------------------------------------------------------------------------------

    async def navigate(self, url: str) -> int | None:
        """Load ``url`` in the current tab and wait for it to settle; return the HTTP status, if any.

        Raises:
            DomainNotAllowedError: ``url`` is outside ``allowed_domains``.
            NavigationError: the page could not be loaded.
        """
        check_url_allowed(url, self.allowed_domains)
        page = await self._usable_page()
        mark = self.fence.mark() if self.fence is not None else 0
        try:
            with map_navigation_errors(url):
                response = await page.goto(url, wait_until="domcontentloaded")
        except NavigationError as exc:
            refused = self.fence.blocked_since(mark, page) if self.fence is not None else []
            if refused:
                message = blocked_message(refused[-1].url, self.fence.allowed if self.fence else ())
                raise DomainNotAllowedError(f"{message} ({url} redirected there)") from exc
            raise
        if response is not None and response.status >= 400:
            self._tabs.record(f"{url} answered HTTP {response.status}")
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
        page = await self._usable_page()
        snapshot = None
        if include_dom and self._tabs.current_id not in self._tabs.crashed:
            page, snapshot = await self._capture(page, extract_options, redact)
            self.last_snapshot = snapshot
        shot = None
        if screenshot and snapshot is not None:
            shot = await self._screenshot(page, mask_values, snapshot if marks else None)
        tabs = await self.tabs()
        title = await _safe_title(page)
        return BrowserState(
            url=page.url,
            title=title,
            tabs=tabs,
            current_tab_id=self._tabs.current_id,
            snapshot=snapshot,
            events=self.drain_events(redact),
            screenshot_b64=shot,
        )

    async def _capture(
        self, page: Page, options: ExtractOptions | None, redact: Callable[[str], str] | None
    ) -> tuple[Page, DomSnapshot]:
        """The current tab and its snapshot. A tab too busy to answer is freed (``unstick``) and read
        again; when it had to be closed, the tab that is current then is read."""
        blocked = self.fence.blocked_frames() if self.fence is not None else None
        seconds = self.config.capture_timeout_ms / 1000
        for attempt in range(2):
            previous = self.last_snapshot if attempt == 0 else None
            capture = extract_snapshot(
                page, previous=previous, options=options, blocked_frames=blocked, redact=redact
            )
            try:
                return page, await bounded(capture, seconds, "Reading the page")
            except ActionTimeoutError:
                if attempt:
                    raise
                await self.unstick()
                page = await self._usable_page()
        raise AssertionError("unreachable")

    async def _screenshot(
        self, page: Page, mask_values: Sequence[str], marks: DomSnapshot | None
    ) -> str | None:
        seconds = self.config.capture_timeout_ms / 1000

        async def take() -> str:
            async with drawn_marks(page, marks):
                return await masked_screenshot(page, mask_values, seconds * 1000)

        try:
            return await bounded(take(), seconds + 1, "A screenshot")
        except (ActionTimeoutError, PlaywrightError):
            return None  # the step goes on without a picture


async def _safe_title(page: Page) -> str:
    try:
        return await within(page.title(), 2)
    except (PlaywrightError, TimeoutError):
        return ""
