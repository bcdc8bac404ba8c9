"""``SessionPool``: one isolated browser context per MCP client, all in one shared browser.

The browser is started on the first tool call (listing tools needs none) and started again if it went
away (a remote browser restarted, Chromium crashed). Each client's context is opened on its first call
and closed when the client leaves or stays idle too long. Calls of one client run one at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from playwright.async_api import Browser, Playwright

from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.browser.driver import acquire_driver, driver_alive, release_driver
from browser_agent.browser.launch import launch_browser
from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.errors import BrowserError

__all__ = ["ClientBrowser", "SessionPool"]


@dataclass(slots=True)
class ClientBrowser:
    """One client's browser context, the lock that serialises its calls, and when it was last used."""

    session: BrowserSession
    last_used: float
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class SessionPool:
    """Browser contexts by client key, in one browser launched (or connected to) as ``config`` says.

    Args:
        config: How to get the browser, and the settings of every context (domain fence included).
        browser: An already running browser to open the contexts in; it is left running on close.
        clock: Seconds, for idle times (tests pass their own).
    """

    def __init__(
        self,
        config: BrowserConfig,
        *,
        browser: Browser | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self._given_browser = browser
        self._browser = browser
        self._playwright: Playwright | None = None
        self._clients: dict[str, ClientBrowser] = {}
        self._opening = asyncio.Lock()
        self._clock = clock

    def __len__(self) -> int:
        return len(self._clients)

    def __contains__(self, key: object) -> bool:
        return key in self._clients

    async def acquire(self, key: str) -> ClientBrowser:
        """The context of client ``key``, opened on first use.

        Raises:
            BrowserError: the browser could not be started or reached.
        """
        async with self._opening:
            client = self._clients.get(key)
            if client is not None and not (_connected(client) and self._driver_alive()):
                await self.close(key)  # its browser went away and took the context along: open a new one
                client = None
            if client is None:
                session = BrowserSession(self.config, browser=await self._shared_browser())
                await session.start()
                client = ClientBrowser(session=session, last_used=self._clock())
                self._clients[key] = client
        client.last_used = self._clock()
        return client

    def _alive(self) -> bool:
        return self._browser is not None and self._browser.is_connected() and self._driver_alive()

    def _driver_alive(self) -> bool:
        return self._playwright is None or driver_alive(self._playwright)

    def touch(self, client: ClientBrowser) -> None:
        """Mark ``client`` as used now (a call just ended)."""
        client.last_used = self._clock()

    async def close(self, key: str) -> bool:
        """Close client ``key``'s context; False when it had none."""
        client = self._clients.pop(key, None)
        if client is None:
            return False
        async with client.lock:  # let a call in progress finish first
            await client.session.close()
        return True

    async def close_idle(self, max_idle_s: float) -> int:
        """Close every context unused for ``max_idle_s`` seconds or more; how many were closed."""
        now = self._clock()
        idle = [
            k for k, c in self._clients.items() if now - c.last_used >= max_idle_s and not c.lock.locked()
        ]
        for key in idle:
            await self.close(key)
        return len(idle)

    async def aclose(self) -> None:
        """Close every context, then the browser and Playwright when this pool started them."""
        for key in list(self._clients):
            await self.close(key)
        await self._stop_browser()

    async def _shared_browser(self) -> Browser:
        if self._alive():
            assert self._browser is not None
            return self._browser
        if self._given_browser is not None:  # not ours to start again
            raise BrowserError("The browser the server was given has closed; restart the server.")
        # the loop's live driver: the one this pool holds, unless the browser went away with it
        previous, self._playwright = self._playwright, await acquire_driver()
        if previous is not None:
            await release_driver(previous)
        self._browser = await launch_browser(self._playwright, self.config)
        return self._browser

    async def _stop_browser(self) -> None:
        if self._browser is not None and self._browser is not self._given_browser:
            with contextlib.suppress(PlaywrightError):  # already gone: closing is best effort
                await self._browser.close()
            self._browser = None
        if self._playwright is not None:
            await release_driver(self._playwright)
            self._playwright = None


def _connected(client: ClientBrowser) -> bool:
    browser = client.session.context.browser
    return browser is not None and browser.is_connected()
