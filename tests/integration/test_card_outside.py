"""A click on no card of a list, while the task names what exactly one card in view shows, is held back
once, naming that card's elements. Chosen on MiniWoB++'s email-inbox (the search icon above the mail
clicked for "the email by Audrey"); this page is a recipe box, whose "Print all" stands outside the
list."""

from __future__ import annotations

import re

import pytest

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult, Controller
from browser_agent.dom import render
from tests.support.server import LocalServer


@pytest.fixture
async def page(session: BrowserSession, server: LocalServer) -> BrowserSession:
    await session.navigate(server.url("dom/look_alikes.html"))
    return session


async def _view(session: BrowserSession) -> str:
    state = await session.state()
    assert state.snapshot is not None
    return render(state.snapshot)


async def _click(session: BrowserSession, index: int, task: str) -> ActionResult:
    action = {"action": "click_element", "index": index}
    [result] = await Controller().run([action], session, model_chose=True, task=task)
    return result


def _index(view: str, pattern: str) -> list[int]:
    return [int(n) for n in re.findall(rf"\[(\d+)\]{pattern}", view)]


async def test_a_click_outside_the_cards_is_held_once_naming_the_card(page: BrowserSession) -> None:
    view = await _view(page)
    [alone] = _index(view, "<button>Print all")
    _, bookmark, _ = _index(view, "<button icon=bookmark")
    _, trash, _ = _index(view, "<button icon=trash")
    held = await _click(page, alone, "Bookmark the Mushroom risotto.")
    assert held.error == (
        f'element {alone} is in none of the list\'s cards, but the task names "Mushroom", which the card '
        f'"Mushroom risotto 50…" shows: its elements are {bookmark} (bookmark), {trash} (trash). Click the '
        f"one the task needs, or element {alone} again if it is the one meant."
    ), held.error
    assert (await _click(page, bookmark, "Bookmark the Mushroom risotto.")).error is None
    assert await page.page.inner_text("#said") == "Bookmarked Mushroom risotto"
    again = await _click(page, alone, "Bookmark the Mushroom risotto.")
    assert again.error is None, again  # held once: the same click again goes through


async def test_a_control_the_task_names_or_a_name_on_no_card_is_let_through(page: BrowserSession) -> None:
    [alone] = _index(await _view(page), "<button>Print all")
    # the task asks for this very control
    assert (await _click(page, alone, "Print all the recipes but the Mushroom risotto.")).error is None
    # no card shows the name the task gives
    assert (await _click(page, alone, "Show the recipes from Grandma.")).error is None
    # two cards show the names the task gives: which one is meant is the model's to read
    assert (await _click(page, alone, "Compare the Lentil soup with the Mushroom risotto.")).error is None


async def test_a_click_inside_a_card_is_not_held(page: BrowserSession) -> None:
    view = await _view(page)
    lentils, _, _ = _index(view, "<button icon=bookmark")
    done = await _click(page, lentils, "Bookmark the Lentil soup.")
    assert done.error is None and await page.page.inner_text("#said") == "Bookmarked Lentil soup"


async def test_a_click_outside_the_cards_with_the_name_further_down_scrolls_the_list_to_it(
    session: BrowserSession, server: LocalServer
) -> None:
    """The model clicked the search icon over a list whose mail from Jemima was further down, and typed
    the reply into the search box (email-inbox seed 3): the hold scrolls the list to the name. This page
    is a feed of artists with a Filters button above it."""
    await session.navigate(server.url("dom/artist_feed.html"))
    view = await _view(session)
    [filters] = _index(view, "<button label=Filters>")
    assert "Marisol" not in view
    task = "Find the painter Marisol Vega and follow her."
    held = await _click(session, filters, task)
    assert held.error == (
        f'element {filters} is in none of the list\'s cards, but the task names "Marisol", which no card in '
        "view showed; the list went on below, and is scrolled to 'Marisol' now (see the page; its indices "
        "changed): click in that card."
    ), held.error
    assert held.held and await session.page.inner_text("#said") == "Nobody followed yet."
    assert "Marisol Vega" in await _view(session)


async def test_a_click_in_another_card_than_the_one_named_is_held_once(
    session: BrowserSession, server: LocalServer
) -> None:
    """After the list was scrolled to "Ella", the model clicked the index it had used before, by then
    another mail's (email-inbox seed 5); a card's own link or title is no control repeated on the cards,
    which the card guard holds. This page is a support queue whose tickets open by their title."""
    await session.navigate(server.url("dom/ticket_queue.html"))
    view = await _view(session)
    [printer] = _index(view, "<a>Printer jams")
    [vpn] = _index(view, "<a>VPN drops")
    task = "Open the ticket from Priya and assign it to yourself."
    held = await _click(session, printer, task)
    assert held.error == (
        f'element {printer} is in the card "Printer jams on floor…", but the task names "Priya", which the '
        f'card "VPN drops every hour…" shows: its elements are {vpn} (VPN drops every hour), {vpn + 1} '
        f"(Assign to me). Click the one the task needs, or element {printer} again if it is the one meant."
    ), held.error
    assert await session.page.inner_text("#said") == "Nothing opened."
    opened = await _click(session, vpn, task)  # the card the task names: not held
    assert opened.error is None and await session.page.inner_text("#said") == "Opened VPN drops every hour"
    again = await _click(session, printer, task)
    assert again.error is None and await session.page.inner_text("#said") == "Opened Printer jams on floor 2"
