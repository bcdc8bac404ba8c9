"""A fleet of browsers that agents' contexts are opened on: connected on first use, the load spread,
a lost connection noticed and the agents on it cut off (and only those).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Browser, Playwright

from browser_agent.batch.options import BrowserSource
from browser_agent.browser import BrowserConfig
from browser_agent.browser.driver import acquire_driver, release_driver
from browser_agent.browser.launch import launch_browser
from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.errors import BrowserError

__all__ = ["Endpoint", "Fleet"]


@dataclass(eq=False)
class Endpoint:
    """One browser of the fleet and the tasks running on it."""

    name: str
    source: BrowserSource
    browser: Browser | None = None
    lost: str | None = None
    running: set[asyncio.Task[Any]] = field(default_factory=set)
    cut_off: set[asyncio.Task[Any]] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def config(self) -> BrowserConfig:
        """The settings for contexts opened here (the defaults for a ``Browser`` handed in)."""
        return self.source if isinstance(self.source, BrowserConfig) else BrowserConfig()


def endpoint_names(sources: Sequence[BrowserSource]) -> list[str]:
    """How each browser is named in results and errors: its URL, or which local Chromium it is."""
    names = []
    for number, source in enumerate(sources, start=1):
        if isinstance(source, Browser):
            names.append(f"Playwright Browser #{number}")
        else:
            names.append(source.ws_endpoint or source.cdp_url or f"local Chromium #{number}")
    if len(names) == 1 and names[0].startswith("local Chromium"):
        names[0] = "local Chromium"
    return names


class Fleet:
    """The browsers a batch spreads over. Use as ``async with Fleet(sources) as fleet``."""

    def __init__(self, sources: Sequence[BrowserSource]) -> None:
        self.endpoints = [
            Endpoint(name, src) for name, src in zip(endpoint_names(sources), sources, strict=True)
        ]
        self._playwright: Playwright | None = None
        self._start_lock = asyncio.Lock()
        self._closing = False

    async def __aenter__(self) -> Fleet:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @contextlib.asynccontextmanager
    async def slot(self) -> AsyncIterator[Endpoint]:
        """A connected endpoint for the current task: the live one running the fewest tasks.

        While inside, the task is cut off (cancelled, see ``cut_off_reason``) if the endpoint is lost.

        Raises:
            BrowserError: no endpoint is left; the message says what became of each.
        """
        task = asyncio.current_task()
        assert task is not None, "Fleet.slot runs inside a task"
        endpoint = await self._acquire(task)
        try:
            yield endpoint
        finally:
            endpoint.running.discard(task)

    def cut_off_reason(self) -> str | None:
        """Why the current task was cancelled when losing its endpoint did it (and nothing else); else None.

        Call it on ``CancelledError``: when it returns None, re-raise.
        """
        task = asyncio.current_task()
        for endpoint in self.endpoints:
            if task is not None and task in endpoint.cut_off:
                endpoint.cut_off.discard(task)
                return endpoint.lost if task.uncancel() == 0 else None
        return None

    def check_lost(self, endpoint: Endpoint) -> str | None:
        """Why ``endpoint`` is lost, noticing a dropped connection before its event arrives; else None."""
        browser = endpoint.browser
        if endpoint.lost is None and browser is not None and not browser.is_connected():
            self._lose(endpoint, spare=asyncio.current_task())
        return endpoint.lost

    async def _acquire(self, task: asyncio.Task[Any]) -> Endpoint:
        while True:
            live = [e for e in self.endpoints if e.lost is None]
            if not live:
                raise BrowserError(
                    "No browser left to run on: " + "; ".join(str(e.lost) for e in self.endpoints)
                )
            endpoint = min(live, key=lambda e: len(e.running))
            endpoint.running.add(task)  # counted at once, so concurrent picks spread
            try:
                await self._connect(endpoint)
            except BrowserError as exc:
                endpoint.lost = endpoint.lost or str(exc)
            except BaseException:
                endpoint.running.discard(task)
                raise
            if endpoint.lost is None:
                return endpoint
            endpoint.running.discard(task)

    async def _connect(self, endpoint: Endpoint) -> None:
        async with endpoint.lock:
            if endpoint.browser is not None or endpoint.lost is not None:
                return
            if isinstance(endpoint.source, Browser):
                browser = endpoint.source
            else:
                async with self._start_lock:
                    if self._playwright is None:
                        self._playwright = await acquire_driver()
                browser = await launch_browser(self._playwright, endpoint.source)
            browser.on("disconnected", lambda _browser: self._lose(endpoint))
            endpoint.browser = browser

    def _lose(self, endpoint: Endpoint, spare: asyncio.Task[Any] | None = None) -> None:
        if self._closing or endpoint.lost is not None:
            return
        endpoint.lost = f"lost the connection to {endpoint.name} (the browser or its server went away)"
        for task in endpoint.running - {spare}:
            endpoint.cut_off.add(task)
            task.cancel(endpoint.lost)

    async def close(self) -> None:
        """Close the browsers this fleet opened (a ``Browser`` handed in stays open), then Playwright."""
        self._closing = True
        for endpoint in self.endpoints:
            if endpoint.browser is not None and not isinstance(endpoint.source, Browser):
                with contextlib.suppress(PlaywrightError):  # already gone: closing is best effort
                    await endpoint.browser.close()
        if self._playwright is not None:
            await release_driver(self._playwright)
            self._playwright = None
