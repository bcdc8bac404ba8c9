"""BrowserSession against real Chromium: launch, settle, tabs, dialogs, downloads, errors."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.errors import DomainNotAllowedError, NavigationError, TabClosedError
from tests.support.server import LocalServer


@contextlib.contextmanager
def _closed_port() -> Iterator[int]:
    """A port bound and never listened on: connections are refused, and while the socket is held no other
    process (another xdist worker's server) can take it."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield int(sock.getsockname()[1])


async def test_launch_own_browser_and_close(server: LocalServer, tmp_path: Path) -> None:
    config = BrowserConfig(block_external_network=True, downloads_dir=tmp_path)
    async with BrowserSession(config) as session:
        await session.navigate(server.url("basic.html"))
        assert (await session.state(include_dom=False)).title == "Basic"
        context = session.context
    assert context.pages == []


async def test_settle_is_bounded_on_a_page_that_keeps_loading(session: BrowserSession, server) -> None:
    start = time.monotonic()
    await session.navigate(server.url("browser/slow.html"))
    elapsed = time.monotonic() - start
    assert elapsed < 4.0, "the 8 s image must not hold the wait past the cap"
    heading = await session.page.text_content("#h")
    assert heading == "tick 3", "the DOM-quiet wait lets the ticking script finish"


async def test_link_with_target_blank_is_followed(session: BrowserSession, server) -> None:
    await session.navigate(server.url("browser/tabs.html"))
    first = session.current_tab_id
    async with session.context.expect_page():
        await session.page.click("#blank")
    assert session.current_tab_id != first
    await session.settle()
    state = await session.state(include_dom=False)
    assert state.url.endswith("/basic.html")
    assert len(state.tabs) == 2
    assert any("new tab" in e for e in state.events)


async def test_window_open_is_followed_and_switch_back(session: BrowserSession, server) -> None:
    await session.navigate(server.url("browser/tabs.html"))
    first = session.current_tab_id
    async with session.context.expect_page():
        await session.page.click("#popup")
    await session.settle()
    assert (await session.state(include_dom=False)).title == "Popup"
    await session.switch_tab(first)
    assert session.page.url.endswith("/browser/tabs.html")


async def test_dialogs_are_answered_and_reported(session: BrowserSession, server) -> None:
    await session.navigate(server.url("browser/dialogs.html"))
    await session.page.click("#alert")
    await session.page.click("#confirm")
    assert await session.page.text_content("#out") == "yes"
    events = session.drain_events()
    assert any("alert dialog said 'Saved!'" in e and "accepted" in e for e in events)
    assert any("'Delete?'" in e for e in events)


async def test_confirm_dismissed_when_configured(browser, server) -> None:
    async with BrowserSession(BrowserConfig(accept_dialogs=False), browser=browser) as session:
        await session.navigate(server.url("browser/dialogs.html"))
        await session.page.click("#confirm")
        assert await session.page.text_content("#out") == "no"


async def test_download_is_saved_in_downloads_dir(session: BrowserSession, server, tmp_path: Path) -> None:
    await session.navigate(server.url("browser/download.html"))
    await session.page.click("#dl")
    for _ in range(50):
        if session._tabs._download_tasks or session._tabs.downloads:
            break
        await asyncio.sleep(0.05)
    saved = await session.wait_for_downloads()
    assert [p.name for p in saved] == ["report.csv"]
    assert saved[0].parent == tmp_path / "downloads"
    assert saved[0].read_text() == "content of report.csv\n"


async def test_closed_tab_is_reported_not_fatal(session: BrowserSession, server) -> None:
    await session.navigate(server.url("basic.html"))
    first = session.current_tab_id
    second = await session.new_tab(server.url("browser/popup.html"))
    await session.close_tab(second)
    assert session.current_tab_id == first
    assert any(f"tab {second} was closed" in e for e in session.drain_events())
    with pytest.raises(TabClosedError, match=f"no tab {second}"):
        await session.switch_tab(second)


async def test_unreachable_url_is_a_navigation_error(session: BrowserSession) -> None:
    with _closed_port() as port, pytest.raises(NavigationError, match="Could not load"):
        await session.navigate(f"http://127.0.0.1:{port}/")


async def test_blocked_domain_is_refused_before_loading(browser, server) -> None:
    config = BrowserConfig(allowed_domains=("example.com",))
    async with BrowserSession(config, browser=browser) as session:
        with pytest.raises(DomainNotAllowedError, match="outside the allowed domains"):
            await session.navigate(server.url("basic.html"))
        assert session.page.url == "about:blank"


async def test_an_error_page_reached_by_a_click_is_said_once_and_a_frame_s_is_not(
    session: BrowserSession, server: LocalServer
) -> None:
    """A small model took a linked page's "404 Not Found" for the answer: the tab says it is an error page."""
    await session.navigate(server.url("browser/broken_link.html"))
    assert not [e for e in session.drain_events() if "HTTP" in e]  # the iframe's 404 is the frame's own
    await session.page.click("#more")
    await session.settle()
    said = [e for e in session.drain_events() if "HTTP" in e]
    assert said == [
        f"{server.url('browser/no-such-page.html')} answered HTTP 404, an error page: go_back returns to the "
        "page before"
    ]
    await session.navigate(server.url("browser/gone.html"))
    gone = server.url("browser/gone.html")
    assert [e for e in session.drain_events() if "HTTP" in e] == [
        f"{gone} answered HTTP 404, an error page: go_back returns to the page before"
    ]
