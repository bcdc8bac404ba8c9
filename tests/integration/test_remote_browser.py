"""Driving a Chromium someone else started: ``cdp_url`` connects to it over the DevTools protocol."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.controller import Controller
from browser_agent.dom.serializer import render
from browser_agent.errors import BrowserError
from tests.support.pages import index_of
from tests.support.remote import remote_chromium as start_remote_chromium
from tests.support.server import LocalServer


@pytest.fixture
async def remote_chromium(tmp_path: Path) -> AsyncIterator[str]:
    """A headless Chromium listening for DevTools on 127.0.0.1; yields its http endpoint."""
    async with start_remote_chromium(tmp_path / "profile") as remote:
        yield remote.url


async def test_cdp_url_drives_a_running_chromium(remote_chromium: str, server: LocalServer) -> None:
    async with BrowserSession(BrowserConfig(cdp_url=remote_chromium)) as session:
        await session.navigate(server.url("browser/settle.html"))
        slow = await index_of(session, "Slow link")
        [result] = await Controller().run([{"action": "click_element", "index": slow}], session)
        assert result.error is None, result.error
        assert session.page.url.endswith("/browser/arrived.html")
        state = await session.state()
        assert state.snapshot is not None and "Arrived on the next page" in render(state.snapshot)

        await session.navigate(server.url("agent/links.html"))
        opener = await index_of(session, "Open the code page")
        [result] = await Controller().run([{"action": "click_element", "index": opener}], session)
        assert result.new_tab is not None, "the tab it opened is followed"
        assert session.page.url.endswith("/agent/code.html")


async def test_unreachable_cdp_url_is_a_browser_error() -> None:
    with pytest.raises(BrowserError, match=re.escape("Could not start or reach http://127.0.0.1:9/")):
        async with BrowserSession(BrowserConfig(cdp_url="http://127.0.0.1:9/", launch_timeout_ms=3_000)):
            pass
