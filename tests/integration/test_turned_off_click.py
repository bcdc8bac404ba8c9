"""A click on an element the page turned off fails after a short wait, not the whole action timeout,
and says that it is off; one the page turns on within that wait is clicked."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.async_api import Browser

from browser_agent.browser import BrowserConfig, BrowserSession
from tests.support.actions import run1
from tests.support.pages import index_of
from tests.support.server import LocalServer

# Far above the short wait, so that failing at once and waiting the timeout stand apart on a busy machine.
ACTION_TIMEOUT_MS = 12_000


@pytest.mark.parametrize("name", ["Subscribe", "Archive"])
async def test_a_click_on_a_turned_off_element_fails_soon_and_says_so(
    browser: Browser, server: LocalServer, tmp_path: Path, name: str
) -> None:
    config = BrowserConfig(downloads_dir=tmp_path, action_timeout_ms=ACTION_TIMEOUT_MS)
    async with BrowserSession(config, browser=browser) as session:
        await session.navigate(server.url("controller/turned_off.html"))
        index = await index_of(session, name)
        start = time.monotonic()
        result = await run1(session, {"action": "click_element", "index": index})
        assert time.monotonic() - start < ACTION_TIMEOUT_MS / 2000, "it must not wait the whole timeout"
        assert result.error is not None and "is disabled: the page turned it off" in result.error
        assert await session.page.text_content("#said") == ""


async def test_an_element_turned_on_within_the_wait_is_clicked(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("controller/turned_off.html"))
    send = await index_of(session, "Send now")
    await session.page.click("#confirm")  # turns Send now on 300 ms later
    result = await run1(session, {"action": "click_element", "index": send})
    assert result.error is None, result.error
    assert await session.page.text_content("#said") == "Sent"
