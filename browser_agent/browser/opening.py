"""What a session opened, and how: a context on a browser it launched, connected to, or was handed, made
with the domain fence's proxy when the browser can reach it; closed in bounded time."""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from typing import Any

from playwright.async_api import Browser, BrowserContext, Playwright

from browser_agent.browser.config import BrowserConfig
from browser_agent.browser.driver import acquire_driver, release_driver
from browser_agent.browser.fence import DomainFence
from browser_agent.browser.launch import (
    context_options,
    launch_browser,
    launch_persistent,
    proxy_reachable,
)
from browser_agent.browser.playwright_errors import PlaywrightError, map_storage_state_errors
from browser_agent.browser.watchdog import within

__all__ = ["Opened"]

logger = logging.getLogger("browser_agent")

_CLOSE_S = 10.0


@dataclass
class Opened:
    """The context of one session, and the browser it started with the driver it took (``driver.py``)."""

    context: BrowserContext | None = None
    browser: Browser | None = None
    playwright: Playwright | None = None

    async def open(
        self, cfg: BrowserConfig, fence: DomainFence | None, shared: Browser | None
    ) -> BrowserContext:
        """Open the context (what was started on the way is kept here, so ``close`` ends it on failure)."""
        options = context_options(cfg)
        if fence is not None and proxy_reachable(cfg):
            options["proxy"] = await fence.proxy_option()
        elif fence is not None:
            logger.warning(
                "The browser at %s runs on another machine, where the domain fence's proxy on this "
                "machine cannot be reached: only the tabs' own requests are fenced.",
                cfg.cdp_url or cfg.ws_endpoint,
            )
        with map_storage_state_errors(cfg.storage_state):
            self.context = await self._new_context(cfg, options, fence is not None, shared)
        return self.context

    async def _new_context(
        self, cfg: BrowserConfig, options: dict[str, Any], fenced: bool, shared: Browser | None
    ) -> BrowserContext:
        if shared is not None:
            return await shared.new_context(**options)
        self.playwright = await acquire_driver()
        if cfg.user_data_dir is not None and not (cfg.cdp_url or cfg.ws_endpoint):
            return await launch_persistent(self.playwright, cfg, options)
        self.browser = await launch_browser(self.playwright, cfg)
        if cfg.cdp_url and self.browser.contexts and not fenced and cfg.storage_state is None:
            # a fenced session needs a context made with its proxy, one with a saved login a fresh one
            return self.browser.contexts[0]
        return await self.browser.new_context(**options)

    async def close(self) -> None:
        """Close the context, then the browser this session started, and let go of its driver. Each part
        gets a bounded time: a browser that no longer answers is left to the driver, whose exit (when its
        last user lets go) ends it."""
        try:
            for closer in (self.context, self.browser):
                if closer is not None:
                    with contextlib.suppress(PlaywrightError, TimeoutError):  # closing is best effort
                        await within(closer.close(), _CLOSE_S)
        finally:
            self.context = self.browser = None
            if self.playwright is not None:
                playwright, self.playwright = self.playwright, None
                await release_driver(playwright)
