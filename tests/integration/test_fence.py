"""The domain fence, judged by the disallowed server's own request log: it must receive nothing."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest
from playwright.async_api import Browser

from browser_agent import BrowserConfig, BrowserSession, Controller
from browser_agent.dom.serializer import render
from browser_agent.errors import DomainNotAllowedError
from tests.support.fence_sites import MARKER, AllowedSite, DisallowedSite
from tests.support.pages import index_of


@pytest.fixture
async def fenced(browser: Browser, good: AllowedSite, bad: DisallowedSite) -> AsyncIterator[BrowserSession]:
    bad.requests.clear()
    config = BrowserConfig(allowed_domains=(good.origin,), settle_max_ms=2_000)
    async with BrowserSession(config, browser=browser) as session:
        yield session


async def _blocked_soon(session: BrowserSession, count: int = 1) -> None:
    """Wait (bounded) until the fence has refused ``count`` documents."""
    assert session.fence is not None
    for _ in range(60):
        if len(session.fence.blocked) >= count:
            await asyncio.sleep(0.2)  # anything that slipped through would have arrived by now
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the fence refused {len(session.fence.blocked)} documents, expected {count}")


async def _click(session: BrowserSession, text: str) -> None:
    index = await index_of(session, text)
    [result] = await Controller().run([{"action": "click_element", "index": index}], session)
    assert result.error is None, result.error


async def _open(session: BrowserSession, site: AllowedSite, path: str) -> None:
    await session.navigate(site.url(path))


@pytest.mark.parametrize(
    ("path", "control"),
    [
        ("link", "Go elsewhere"),
        ("form", "Pay"),
        ("redirect-link", "Via a redirect"),
        ("two-hops", "Two hops"),
    ],
)
async def test_a_click_off_the_list_is_refused_and_the_tab_stays(
    fenced: BrowserSession, good: AllowedSite, bad: DisallowedSite, path: str, control: str
) -> None:
    await _open(fenced, good, path)
    await _click(fenced, control)
    await _blocked_soon(fenced)
    assert bad.requests == []
    assert fenced.page.url == good.url(path)
    state = await fenced.state()
    assert any(f"blocked: {bad.origin} is outside the allowed domains" in e for e in state.events), (
        state.events
    )
    assert state.snapshot is not None and MARKER not in render(state.snapshot)


@pytest.mark.parametrize("path", ["js", "meta"])
async def test_a_redirect_by_the_page_itself_is_refused(
    fenced: BrowserSession, good: AllowedSite, bad: DisallowedSite, path: str
) -> None:
    await _open(fenced, good, path)
    await _blocked_soon(fenced)
    assert bad.requests == []
    assert fenced.page.url == good.url(path)


@pytest.mark.parametrize(
    ("path", "control"),
    [("blank", "Open in a new tab"), ("open", "Open window"), ("open-redirect", "Open")],
)
async def test_new_tabs_and_popups_off_the_list_are_refused(
    fenced: BrowserSession, good: AllowedSite, bad: DisallowedSite, path: str, control: str
) -> None:
    await _open(fenced, good, path)
    started = time.monotonic()
    await _click(fenced, control)
    # The click knows the refused window will never be a tab: it does not wait for one until its cap.
    assert time.monotonic() - started < fenced.config.action_timeout_ms / 1000
    await _blocked_soon(fenced)
    assert bad.requests == []
    for tab in await fenced.tabs():
        assert not tab.url.startswith(bad.origin), tab


async def test_a_frame_off_the_list_shows_as_one_line_never_its_content(
    fenced: BrowserSession, good: AllowedSite, bad: DisallowedSite
) -> None:
    await _open(fenced, good, "frame")
    await _blocked_soon(fenced)
    state = await fenced.state()
    assert state.snapshot is not None
    text = render(state.snapshot)
    assert MARKER not in text
    assert f"a frame here was blocked: {bad.origin} is outside the allowed domains" in text
    assert "After the frame" in text
    assert bad.requests == []


async def test_a_frame_redirected_off_the_list_is_refused(
    fenced: BrowserSession, good: AllowedSite, bad: DisallowedSite
) -> None:
    await _open(fenced, good, "frame-redirect")
    await _blocked_soon(fenced)
    state = await fenced.state()
    assert state.snapshot is not None
    assert "a frame here was blocked" in render(state.snapshot)
    assert bad.requests == []


async def test_go_to_url_off_the_list_and_through_a_redirect(
    fenced: BrowserSession, good: AllowedSite, bad: DisallowedSite
) -> None:
    await _open(fenced, good, "")
    results = await Controller().run(
        [
            {"action": "go_to_url", "url": bad.url("typed")},
            {"action": "go_to_url", "url": good.url(f"redirect?to={bad.origin}/hop")},
        ],
        fenced,
    )
    assert results[0].error is not None and f"blocked: {bad.origin}" in results[0].error
    await Controller().run(
        [{"action": "go_to_url", "url": good.url(f"redirect?to={bad.origin}/hop")}], fenced
    )
    [redirected] = await Controller().run(
        [{"action": "go_to_url", "url": good.url(f"redirect?to={bad.origin}/hop")}], fenced
    )
    assert redirected.error is not None and "redirected there" in redirected.error
    assert bad.requests == []
    assert fenced.page.url == good.url("")


@pytest.mark.parametrize(
    "url",
    [
        "data:text/html,<script>location.href='{bad}/data'</script>",
        "file:///etc/passwd",
        "javascript:alert(1)",
    ],
)
async def test_local_schemes_are_refused_unless_listed(
    fenced: BrowserSession, bad: DisallowedSite, url: str
) -> None:
    with pytest.raises(DomainNotAllowedError, match="outside the allowed domains"):
        await fenced.navigate(url.format(bad=bad.origin))
    assert bad.requests == []


async def test_a_listed_data_scheme_loads_but_its_redirect_is_still_fenced(
    browser: Browser, good: AllowedSite, bad: DisallowedSite
) -> None:
    bad.requests.clear()
    config = BrowserConfig(allowed_domains=(good.origin, "data:"))
    async with BrowserSession(config, browser=browser) as session:
        await session.navigate(
            "data:text/html,<h1>inline</h1><script>"
            f"setTimeout(() => location.href='{bad.origin}/x', 50)</script>"
        )
        await _blocked_soon(session)
    assert bad.requests == []


async def test_sub_resources_pass_by_default_and_are_fenced_on_request(
    browser: Browser, good: AllowedSite, bad: DisallowedSite
) -> None:
    bad.requests.clear()
    async with BrowserSession(BrowserConfig(allowed_domains=(good.origin,)), browser=browser) as open_session:
        await open_session.navigate(good.url("subresources"))
        for _ in range(40):  # the socket's handshake may come after the load
            if len(bad.requests) >= 3:
                break
            await asyncio.sleep(0.05)
    assert {r.split()[1] for r in bad.requests} >= {"/pixel.gif", "/api", "/socket"}

    bad.requests.clear()
    config = BrowserConfig(allowed_domains=(good.origin,), fence_subresources=True)
    async with BrowserSession(config, browser=browser) as closed_session:
        await closed_session.navigate(good.url("subresources"))
        await asyncio.sleep(0.3)
        events = closed_session.drain_events()
    assert bad.requests == []
    assert any(f"to {bad.origin} (outside the allowed domains)" in e for e in events), events
    assert any(f"blocked 1 WebSocket(s) of the page to ws://{bad.origin[7:]}" in e for e in events), events


async def test_a_session_on_a_local_only_browser_never_lets_its_proxy_dial_out(
    browser: Browser, good: AllowedSite
) -> None:
    # The shared browser was launched with block_external_network; this session's own config does not
    # say so. Its fence proxy, which resolves and connects for the browser, must still keep to loopback
    # (a saved real page's scripts once waited 13 s on it, and a CI run's load timed out).
    async with BrowserSession(BrowserConfig(allowed_domains=(good.origin,)), browser=browser) as session:
        await session.navigate(good.url("far-subresources"))
        await asyncio.sleep(0.2)
        events = session.drain_events()
    assert any("to http://pictures.invalid (outside the allowed domains)" in e for e in events), events
    assert any("to https://scripts.invalid" in e for e in events), events


async def test_an_allowed_site_works_as_before(fenced: BrowserSession, good: AllowedSite) -> None:
    await _open(fenced, good, "")
    await _click(fenced, "Second page")
    assert fenced.page.url == good.url("second")
    assert fenced.fence is not None and fenced.fence.blocked == []
