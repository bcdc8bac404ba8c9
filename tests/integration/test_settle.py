"""After an action the next state is the settled page: slow navigations, form submits, late DOM changes,
fetches, new tabs; and what never settles (a long poll, an abandoned navigation) does not hold the step."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.async_api import Browser

from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.browser.network import LONG_REQUEST_S
from browser_agent.controller import ActionResult, Controller
from browser_agent.dom.serializer import render
from tests.support.pages import index_of
from tests.support.server import LocalServer


async def run(session: BrowserSession, *actions: dict[str, object]) -> list[ActionResult]:
    results = await Controller().run(list(actions), session)
    assert [r.error for r in results] == [None] * len(actions)
    return results


async def page_text(session: BrowserSession) -> str:
    state = await session.state()
    assert state.snapshot is not None
    return f"{state.title}\n{render(state.snapshot)}"


@pytest.fixture
async def settle_page(session: BrowserSession, server: LocalServer) -> BrowserSession:
    await session.navigate(server.url("browser/settle.html"))
    return session


async def test_a_click_on_a_slow_link_is_followed_to_the_new_page(settle_page: BrowserSession) -> None:
    await run(settle_page, {"action": "click_element", "index": await index_of(settle_page, "Slow link")})
    assert settle_page.page.url.endswith("/browser/arrived.html")
    assert "Arrived on the next page" in await page_text(settle_page)


async def test_enter_in_a_form_waits_for_the_page_it_submits_to(settle_page: BrowserSession) -> None:
    query = await index_of(settle_page, "Query")
    await run(
        settle_page,
        {"action": "input_text", "index": query, "text": "mugs"},
        {"action": "send_keys", "keys": "Enter"},
    )
    assert "/browser/arrived.html?q=mugs" in settle_page.page.url
    assert "Arrived on the next page" in await page_text(settle_page)


async def test_what_a_click_fetches_is_waited_for(settle_page: BrowserSession) -> None:
    await run(settle_page, {"action": "click_element", "index": await index_of(settle_page, "Load data")})
    assert "Data loaded" in await page_text(settle_page)


async def test_dom_changes_after_the_load_event_are_waited_for(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("browser/late.html"))
    text = await page_text(session)
    assert "List ready" in text and "Item 6" in text


async def test_a_long_poll_does_not_hold_the_settle(session: BrowserSession, server: LocalServer) -> None:
    start = time.monotonic()
    await session.navigate(server.url("browser/longpoll.html"))
    elapsed = time.monotonic() - start
    assert elapsed < LONG_REQUEST_S + 0.7, "a request in flight that long stops counting"
    assert session.config.settle_max_ms / 1000 > LONG_REQUEST_S + 0.7  # else the cap alone would pass this


@pytest.mark.parametrize("link", ["Empty answer", "Download notes"])
async def test_a_click_whose_navigation_is_abandoned_returns_at_once(
    browser: Browser, server: LocalServer, tmp_path: Path, link: str
) -> None:
    # Long caps, so that waiting for them (10 s for the commit, 5 s for the settle) stands far apart from
    # returning at once, even on a machine busy with other tests.
    config = BrowserConfig(downloads_dir=tmp_path, action_timeout_ms=10_000, settle_max_ms=5_000)
    async with BrowserSession(config, browser=browser) as session:
        await session.navigate(server.url("browser/settle.html"))
        start = time.monotonic()
        await run(session, {"action": "click_element", "index": await index_of(session, link)})
        assert time.monotonic() - start < 3, "the click must not wait for a commit that never comes"
        assert session.page.url.endswith("/browser/settle.html")


@pytest.mark.parametrize("opener", ["Open basic in a new tab", "Open popup"])
async def test_a_click_that_opens_a_tab_is_followed(
    session: BrowserSession, server: LocalServer, opener: str
) -> None:
    await session.navigate(server.url("browser/tabs.html"))
    first = session.current_tab_id
    [result] = await run(session, {"action": "click_element", "index": await index_of(session, opener)})
    assert result.new_tab is not None and result.new_tab != first
    assert session.current_tab_id == result.new_tab
    assert "new tab" in (result.extracted_content or "")
