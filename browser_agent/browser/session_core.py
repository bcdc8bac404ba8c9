"""``SessionCore``: a browser context, its domain fence and its tabs, opened and closed in bounded time.

``BrowserSession`` (``browser.session``) builds on it with what drives and reads those tabs: loading
pages, waiting for them to settle, and capturing their state.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Self

from playwright.async_api import Browser, BrowserContext, Page

from browser_agent.browser.config import BrowserConfig
from browser_agent.browser.fence import DomainFence
from browser_agent.browser.fence_rule import FenceSource, resolve_fence
from browser_agent.browser.launch import local_only
from browser_agent.browser.opening import Opened
from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.browser.state import TabInfo
from browser_agent.browser.storage import write_storage_state
from browser_agent.browser.tabs import TabRegistry
from browser_agent.browser.watchdog import within
from browser_agent.dom.instrument import instrument_pages
from browser_agent.errors import BrowserError, UserError

__all__ = ["SessionCore"]

logger = logging.getLogger("browser_agent")

_CLOSE_S = 10.0


class SessionCore:
    """An isolated browser context, its fence and its tabs; ``BrowserSession`` is the one to use.

    With ``browser=`` it shares an already running browser and closes only its own context.
    """

    def __init__(self, config: BrowserConfig | None = None, *, browser: Browser | None = None) -> None:
        self.config = config or BrowserConfig()
        self._shared_browser = browser
        self._opened = Opened()
        self._tabs = TabRegistry(self.config)
        self.fence: DomainFence | None = None
        self._driver: str | None = None

    async def __aenter__(self) -> Self:
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
