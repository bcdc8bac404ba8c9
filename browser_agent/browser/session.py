"""``BrowserSession``: one browser context with its tabs, dialogs, downloads and bounded waits.

A session launches a Chromium (or connects to a remote one) when it is entered, unless it was handed
an existing ``Browser``, in which case it only opens and closes its own isolated context: that is how
many agents share one browser.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from pathlib import Path
from types import TracebackType

from playwright.async_api import Browser, BrowserContext, Page

from browser_agent.browser.addresses import checked_address
from browser_agent.browser.config import BrowserConfig
from browser_agent.browser.domains import blocked_message, check_url_allowed, refused_local_schemes
from browser_agent.browser.fence import DomainFence, leave_refused_document
from browser_agent.browser.fence_rule import FenceSource, resolve_fence
from browser_agent.browser.launch import local_only
from browser_agent.browser.masking import screenshot_for_model
from browser_agent.browser.opening import Opened
from browser_agent.browser.playwright_errors import PlaywrightError, map_navigation_errors
from browser_agent.browser.proxy import UNREACHABLE_HEADER
from browser_agent.browser.settle import wait_for_settle
from browser_agent.browser.state import BrowserState, TabInfo
from browser_agent.browser.storage import write_storage_state
from browser_agent.browser.tabs import TabRegistry
from browser_agent.browser.watchdog import bounded, responds, within
from browser_agent.dom.extractor import WHOLE_PAGE, ExtractOptions, extract_snapshot
from browser_agent.dom.instrument import instrument_pages
from browser_agent.dom.snapshot import DomSnapshot
from browser_agent.errors import (
    ActionTimeoutError,
    BrowserError,
    DomainNotAllowedError,
    NavigationError,
    TabClosedError,
    UserError,
)

__all__ = ["BrowserSession"]

logger = logging.getLogger("browser_agent")

_CLOSE_S = 10.0


class BrowserSession:
    """An isolated browser context and its tabs.

    Use it as ``async with BrowserSession(config) as session:``. Pass ``browser=`` to share an
    already running browser; the session then closes only its own context.
    """

    def __init__(self, config: BrowserConfig | None = None, *, browser: Browser | None = None) -> None:
        self.config = config or BrowserConfig()
        self._shared_browser = browser
        self._opened = Opened()
        self._tabs = TabRegistry(self.config)
        self.fence: DomainFence | None = None
        self._last_snapshot: DomSnapshot | None = None
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
        if self._opened.context is not None:
            return
        try:  # a failure or a cancellation half-way must not leave a browser behind
            if self.config.allowed_domains is not None:
                self.fence = self._new_fence(self.config.allowed_domains)
            await self._prepare(await self._opened.open(self.config, self.fence, self._shared_browser))
        except BaseException:
            await self.close()
            raise

    async def _prepare(self, context: BrowserContext) -> None:
        context.set_default_timeout(self.config.action_timeout_ms)
        context.set_default_navigation_timeout(self.config.navigation_timeout_ms)
        await instrument_pages(context)
        if self.fence is not None:
            await self.fence.install(context)
        context.on("page", self._tabs.follow)
        for page in context.pages:
            self._tabs.adopt(page)
        if not context.pages:
            await context.new_page()

    def _new_fence(self, allowed: tuple[str, ...]) -> DomainFence:
        return DomainFence(
            allowed,
            subresources=self.config.fence_subresources,
            on_block=lambda _blocked: self._tabs.poke_signals(),
            loopback_only=local_only(self.config, self._shared_browser),
        )

    async def fence_to(self, allowed: tuple[str, ...]) -> None:
        """Keep every request of this session on ``allowed`` (see ``DomainFence``).

        A session's fence is a limit (``fence_rule``): ``allowed`` may narrow it, never widen it. Before
        the session starts this sets ``config.allowed_domains``: the whole fence, proxy included. A
        session already started unfenced gets the route and the tab guards only (a context's proxy is
        set when it is made), and says so in the log.

        Raises:
            UserError: ``allowed`` is not within the session's fence.
        """
        current = self.allowed_domains
        resolved = resolve_fence(
            FenceSource.limit("this browser session's fence", current),
            FenceSource.choice("the fence asked for", allowed),
        )
        allowed = tuple(allowed) if resolved is None else resolved
        if current is not None:
            if self.fence is not None:
                self.fence.allowed = allowed  # narrower or the same: every part of it reads this
            self.config = self.config.model_copy(update={"allowed_domains": allowed})
            return
        if self._opened.context is None:
            self.config = self.config.model_copy(update={"allowed_domains": tuple(allowed)})
            return
        logger.warning(
            "The domain fence was set on a browser session that had already started: it covers the tabs' "
            "requests but not requests made outside them (workers, beacons, other frames' processes). "
            "Set BrowserConfig(allowed_domains=...) before the session starts for the whole fence."
        )
        self.fence = self._new_fence(tuple(allowed))
        await self.fence.install(self.context)

    @property
    def allowed_domains(self) -> tuple[str, ...] | None:
        """The domains this session keeps to; ``None`` when it is not fenced."""
        return self.fence.allowed if self.fence is not None else self.config.allowed_domains

    async def close(self) -> None:
        """Close the context (and the browser when this session started it, letting go of the driver).

        Each part gets a bounded time: a browser that no longer answers is left to Playwright's
        driver, whose exit (when its last user lets go) ends it.
        """
        with contextlib.suppress(TimeoutError):
            await within(self._tabs.finish_downloads(), _CLOSE_S)
        try:
            await self._opened.close()
        finally:
            if self.fence is not None:
                await self.fence.close()

    async def save_storage_state(self, path: str | Path) -> Path:
        """Save this context's login (cookies and every origin's local storage) to ``path``.

        The file is created readable by its owner only (0600) and replaced whole; load it into later
        sessions with ``BrowserConfig(storage_state=path)``. It holds credentials: keep it out of
        version control and artifacts.

        Raises:
            BrowserError: the session is not started, or the browser did not answer.
            UserError: the file cannot be written there.
        """
        try:
            state = await within(self.context.storage_state(), _CLOSE_S)
        except (PlaywrightError, TimeoutError) as exc:
            reason = exc.message if isinstance(exc, PlaywrightError) else f"no answer in {_CLOSE_S:g} s"
            raise BrowserError(f"The login could not be read from the browser: {reason}") from exc
        return write_storage_state(Path(path), dict(state))

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
    def started(self) -> bool:
        """Whether the session has a context open (``start`` ran and ``close`` has not)."""
        return self._opened.context is not None

    @property
    def context(self) -> BrowserContext:
        if self._opened.context is None:
            raise BrowserError("The browser session is not started; use `async with BrowserSession(...)`.")
        return self._opened.context

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

    async def switch_tab(self, tab_id: int) -> Page:
        """Make tab ``tab_id`` current (a tab paused for a runaway script runs its scripts again)."""
        page = self._tabs.switch(tab_id)
        await self._tabs.wake(tab_id)
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
