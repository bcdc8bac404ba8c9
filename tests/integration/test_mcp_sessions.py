"""The MCP server's browser contexts: opened per client, closed when the client ends or idles."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Browser

from browser_agent.browser import BrowserConfig
from browser_agent.mcp.server import _ClosesContextOnSessionEnd
from browser_agent.mcp.sessions import SessionPool
from tests.support.server import LocalServer


def _answering(status: int) -> Any:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": status, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    return app


async def _delete(app: Any, session_id: bytes) -> None:
    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    async def send(message: Any) -> None:
        return None

    scope = {"type": "http", "method": "DELETE", "headers": [(b"mcp-session-id", session_id)]}
    await app(scope, receive, send)


async def test_each_client_has_its_own_context(browser: Browser, server: LocalServer) -> None:
    pool = SessionPool(BrowserConfig(), browser=browser)
    try:
        first, again, second = await pool.acquire("a"), await pool.acquire("a"), await pool.acquire("b")
        assert first is again and first.session.context is not second.session.context
        await first.session.navigate(server.url("agent/login.html"))
        assert second.session.page.url == "about:blank"
    finally:
        await pool.aclose()
    assert len(pool) == 0 and browser.is_connected()  # a browser it was given stays up


async def test_a_session_the_client_ended_closes_its_context(browser: Browser) -> None:
    pool = SessionPool(BrowserConfig(), browser=browser)
    try:
        context = (await pool.acquire("a")).session.context
        await pool.acquire("b")
        await _delete(_ClosesContextOnSessionEnd(_answering(404), pool), b"a")  # unknown to the SDK: kept
        assert "a" in pool
        await _delete(_ClosesContextOnSessionEnd(_answering(200), pool), b"a")
        assert "a" not in pool and "b" in pool
        assert context not in browser.contexts
    finally:
        await pool.aclose()


async def test_idle_contexts_are_closed_but_not_busy_ones(browser: Browser) -> None:
    now = [0.0]
    pool = SessionPool(BrowserConfig(), browser=browser, clock=lambda: now[0])
    try:
        await pool.acquire("idle")
        busy = await pool.acquire("busy")
        now[0] = 100.0
        await pool.acquire("recent")
        async with busy.lock:  # a call in progress
            assert await pool.close_idle(60) == 1
        assert "idle" not in pool and "busy" in pool and "recent" in pool
        fresh = await pool.acquire("idle")
        assert fresh.session.page.url == "about:blank"
    finally:
        await pool.aclose()


async def test_a_browser_that_went_away_is_started_again(server: LocalServer) -> None:
    pool = SessionPool(BrowserConfig(block_external_network=True))  # it launches its own Chromium
    try:
        first, other = await pool.acquire("a"), await pool.acquire("b")
        await first.session.navigate(server.url("agent/login.html"))
        await first.session.context.browser.close()  # type: ignore[union-attr]  # a crash, as the pool sees it
        again = await pool.acquire("a")
        assert again is not first and again.session.page.url == "about:blank"
        await again.session.navigate(server.url("agent/account.html"))
        assert "Welcome back" in await again.session.page.content()
        assert await pool.acquire("b") is not other  # every context of the dead browser is replaced
    finally:
        await pool.aclose()
    assert len(pool) == 0
