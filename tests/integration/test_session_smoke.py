from browser_agent.browser import BrowserSession


async def test_navigate_reports_url_and_title(session: BrowserSession, server) -> None:
    await session.navigate(server.url("basic.html"))
    state = await session.state()
    assert state.url.endswith("/basic.html")
    assert state.title == "Basic"
