"""Controls that read alike (an icon in every row, "Add to basket" on every card) say which card they are
for, so that the model can pick the one of the row it was asked about. The page is a recipe box and a
shop shelf, unlike MiniWoB++'s mail inbox the change was chosen on."""

from __future__ import annotations

import re

from browser_agent.browser import BrowserSession
from browser_agent.dom import render
from tests.support.actions import run1
from tests.support.server import LocalServer

PAGE = "dom/look_alikes.html"


async def _view(session: BrowserSession) -> str:
    state = await session.state()
    assert state.snapshot is not None
    return render(state.snapshot)


def _line(view: str, pattern: str) -> str:
    found = [line for line in view.splitlines() if re.search(pattern, line)]
    assert len(found) == 1, (pattern, view)
    return found[0]


async def test_icons_in_every_row_say_which_row_they_are_for(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url(PAGE))
    view = await _view(session)
    for recipe in ("Lentil soup 35 min…", "Mushroom risotto 50…", "Apple crumble with a…"):
        for icon in ("bookmark", "trash"):
            _line(view, rf'<button icon={icon} for="{re.escape(recipe)}"></button>')
    for product in ("Cast-iron pan", "Chef's knife", "Spice rack 'Deluxe'"):
        _line(view, rf'<button for="{re.escape(product)}">Add to basket</button>')


async def test_no_card_label_where_it_tells_nothing_apart(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url(PAGE))
    view = await _view(session)
    # Twins whose cards say the same; buttons in a data table (its row is one line); a control alone.
    assert view.count("<button>Notify me</button>") == 2, view
    assert _line(view, r"Red lentils").endswith("<button>Edit</button> |")
    assert _line(view, r"Print all").endswith("<button>Print all</button>")


async def test_the_icon_for_the_row_asked_about_acts_on_that_row(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url(PAGE))
    view = await _view(session)
    line = _line(view, r'icon=trash for="Mushroom risotto')
    index = int(line[line.index("[") + 1 : line.index("]")])
    clicked = await run1(session, {"action": "click_element", "index": index})
    assert clicked.error is None, clicked.error
    assert await session.page.text_content("#said") == "Deleted Mushroom risotto"
