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

__all__ = ["bounded", "responds", "within"]

T = TypeVar("T")


async def within(call: Awaitable[T], seconds: float) -> T:
    """``await call``, at most ``seconds`` (``TimeoutError`` past them).

    Used instead of ``asyncio.wait_for``, which on Python 3.11 returns the call's result when a
    cancellation (a Ctrl-C) lands as the call ends, so the cancellation is lost.
    """
    async with asyncio.timeout(seconds):
        return await call


async def bounded(call: Awaitable[T], seconds: float, what: str) -> T:
    """``await call``, but at most ``seconds``.

    Raises:
        ActionTimeoutError: the page did not answer in time (a message for the model).
    """
    try:
        return await within(call, seconds)
    except TimeoutError as exc:
        raise ActionTimeoutError(
            f"{what} got no answer from the page in {seconds:g} s (a script of the page never yields). "
            "Try again, or open another page."
        ) from exc


async def responds(page: Page, seconds: float) -> bool:
    """Whether ``page``'s main thread runs a script within ``seconds``."""
    try:
        await within(page.evaluate("0"), seconds)
    except (PlaywrightError, TimeoutError):
        return False
    return True
