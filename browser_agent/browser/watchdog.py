"""Bounds on calls into a page.

A page can keep its main thread busy for ever (a ``while (true)`` loop, ``alert()`` in a loop); every
call that needs that thread then waits for ever. Each call into the page is bounded; what to do with a
page found stuck is ``BrowserSession.unstick``'s job.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

from playwright.async_api import Page

from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.errors import ActionTimeoutError

__all__ = ["bounded", "responds"]

T = TypeVar("T")


async def bounded(call: Awaitable[T], seconds: float, what: str) -> T:
    """``await call``, but at most ``seconds``.

    Raises:
        ActionTimeoutError: the page did not answer in time (a message for the model).
    """
    try:
        return await asyncio.wait_for(call, timeout=seconds)
    except TimeoutError as exc:
        raise ActionTimeoutError(
            f"{what} got no answer from the page in {seconds:g} s (a script of the page never yields). "
            "Try again, or open another page."
        ) from exc


async def responds(page: Page, seconds: float) -> bool:
    """Whether ``page``'s main thread runs a script within ``seconds``."""
    try:
        await asyncio.wait_for(page.evaluate("0"), timeout=seconds)
    except (PlaywrightError, TimeoutError):
        return False
    return True
