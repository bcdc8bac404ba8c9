"""Bounds on calls into a page, and the way out when a page's script never yields.

A page can keep its main thread busy for ever (a ``while (true)`` loop, ``alert()`` in a loop); every
call that needs that thread then waits for ever. Each call into the page is bounded, and a page found
stuck has its running script terminated through the DevTools protocol, as a browser's "stop script".
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from typing import TypeVar

from playwright.async_api import Page

from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.errors import ActionTimeoutError

__all__ = ["bounded", "terminate_scripts"]

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
            f"{what} got no answer from the page in {seconds:g} s (a script of the page may be busy); "
            "its scripts were stopped. Try again, reload, or open another page."
        ) from exc


async def terminate_scripts(page: Page, seconds: float = 2.0) -> bool:
    """Stop the script running in ``page``'s main thread; ``False`` when that was not possible."""
    try:
        session = await asyncio.wait_for(page.context.new_cdp_session(page), timeout=seconds)
    except (PlaywrightError, TimeoutError):
        return False
    try:
        await asyncio.wait_for(session.send("Runtime.terminateExecution"), timeout=seconds)
    except (PlaywrightError, TimeoutError):
        return False
    finally:
        with contextlib.suppress(PlaywrightError, TimeoutError):
            await asyncio.wait_for(session.detach(), timeout=seconds)
    return True
