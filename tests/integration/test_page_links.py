"""Page-number links under a list of results read `page 2`, not `2`: asked for "the 3rd result", a small
model clicked page 3. A rating row or loose number links are left as they are. The page is a library
catalogue, unlike MiniWoB++'s search engine the change was chosen on."""

from __future__ import annotations

from browser_agent.browser import BrowserSession
from browser_agent.dom import render
from tests.support.actions import run1
from tests.support.server import LocalServer

PAGE = "dom/paged_results.html"


async def _view(session: BrowserSession, server: LocalServer) -> list[str]:
    await session.navigate(server.url(PAGE))
    state = await session.state()
    assert state.snapshot is not None
    return render(state.snapshot).splitlines()


async def test_page_numbers_beside_an_arrow_or_in_a_pager_read_as_pages(
    session: BrowserSession, server: LocalServer
) -> None:
    lines = await _view(session, server)
    pages = [line.split("]", 1)[1] for line in lines if "page " in line]
    # In a <nav> with "Next", the current one marked by aria-current; then a bare row with an arrow.
    assert pages == [
        "<a current>page 1</a>",
        "<a>page 2</a>",
        "<a>page 3</a>",
        "<a>page 1</a>",
        "<a>page 2</a>",
        "<a>page 3</a>",
    ], lines


async def test_number_rows_that_open_no_page_keep_their_numbers(
    session: BrowserSession, server: LocalServer
) -> None:
    lines = await _view(session, server)
    ratings = [line.split("]", 1)[1] for line in lines if line.endswith("</button>")]
    assert ratings == [f"<button>{n}</button>" for n in range(1, 6)], lines
    assert any(line.endswith("]<a>12</a>") for line in lines) and any(
        line.endswith("]<a>40</a>") for line in lines
    )
    # Numbered tabs in jQuery UI's ul.ui-tabs-nav are tabs, not pages.
    tabs = [line.split("]", 1)[1] for line in lines if "role=tab" in line]
    assert tabs == ["<a role=tab selected>1</a>", "<a role=tab>2</a>", "<a role=tab>3</a>"], lines


async def test_a_page_link_read_as_a_page_is_clicked_as_ever(
    session: BrowserSession, server: LocalServer
) -> None:
    lines = await _view(session, server)
    line = next(line for line in lines if line.endswith("<a>page 2</a>"))
    index = int(line[line.index("[") + 1 : line.index("]")])
    clicked = await run1(session, {"action": "click_element", "index": index})
    assert clicked.error is None, clicked.error
    assert session.page.url.endswith("?p=2")
