"""A click on a control repeated on several cards, where the task names someone no card in view shows
and the list goes on below, is held back once: the list is scrolled to the name when the page has it,
else the hold says where the rest of the list is. Chosen on MiniWoB++'s
email-inbox (a scroll panel of mails: the star of the first mail clicked for "the email by Cathryn", who
was further down); this page is a feed of artists that scrolls with the page."""

from __future__ import annotations

import re

import pytest

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult, Controller
from browser_agent.controller.actions.card_guard import task_names
from browser_agent.dom import render
from tests.support.server import LocalServer


@pytest.fixture
async def page(session: BrowserSession, server: LocalServer) -> BrowserSession:
    await session.navigate(server.url("dom/artist_feed.html"))
    return session


async def _follows(session: BrowserSession) -> dict[str, int]:
    """The index of each Follow button in view, by the artist its card is for."""
    state = await session.state()
    assert state.snapshot is not None
    view = render(state.snapshot)
    return {who: int(n) for n, who in re.findall(r'\[(\d+)\]<button[^\n]*for="(\w+)', view)}


async def _run(
    session: BrowserSession, action: dict[str, object], task: str, chose: bool = True
) -> ActionResult:
    [result] = await Controller().run([action], session, model_chose=chose, task=task)
    return result


async def _click(session: BrowserSession, index: int, task: str, chose: bool = True) -> ActionResult:
    return await _run(session, {"action": "click_element", "index": index}, task, chose)


async def _said(session: BrowserSession) -> str:
    return str(await session.page.inner_text("#said"))


TASK = "Find the painter Marisol Vega and follow her."


async def test_a_name_below_the_view_holds_the_click_once_and_scrolls_the_list_to_it(
    page: BrowserSession,
) -> None:
    """Told to call scroll_to_text, the 1.5B model clicked the list's panel, then the first card (email-inbox
    seed 5): the hold scrolls the list to the name itself."""
    follows = await _follows(page)
    assert "Marisol" not in follows and "Idris" in follows, follows
    held = await _click(page, follows["Idris"], TASK)
    assert held.error == (
        f'element {follows["Idris"]} is for "Idris Okafor", but the task names "Marisol", which no card in '
        "view showed; the list went on below, and is scrolled to 'Marisol' now (see the page; its indices "
        "changed): click the control of that card."
    ), held.error
    assert held.held and await _said(page) == "Nobody followed yet."
    follows = await _follows(page)
    assert "Marisol" in follows, follows
    right = await _click(page, follows["Marisol"], TASK)
    assert right.error is None and await _said(page) == "Following Marisol Vega"


async def test_a_name_the_page_lacks_holds_the_click_once_and_the_same_click_again_goes_through(
    page: BrowserSession,
) -> None:
    follows = await _follows(page)
    task = "Find the painter Zelda Quist and follow her."
    held = await _click(page, follows["Idris"], task)
    assert held.error is not None
    assert held.error.startswith(
        f'element {follows["Idris"]} is for "Idris Okafor", but the task names "Zelda", and no card in '
        "view shows it; the list goes on below ("
    ), held.error
    assert held.error.endswith(
        f"more elements). Call scroll_to_text with 'Zelda' to bring that card into view, or click element "
        f"{follows['Idris']} again if it is the one meant."
    ), held.error
    assert await _follows(page) == follows and await _said(page) == "Nobody followed yet."
    again = await _click(page, follows["Idris"], task)
    assert again.error is None and await _said(page) == "Following Idris Okafor"


async def test_nothing_is_held_without_a_name_or_more_below_or_a_model_choosing(page: BrowserSession) -> None:
    follows = await _follows(page)
    assert (await _click(page, follows["Hanne"], "Follow an artist who takes photographs.")).error is None
    assert (await _click(page, follows["Idris"], TASK, chose=False)).error is None  # a replay
    await page.page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    follows = await _follows(page)
    assert "Elin" in follows, follows  # the end of the list: nowhere further to look
    assert (await _click(page, follows["Elin"], "Follow the potter Zainab Hassan.")).error is None
    assert await _said(page) == "Following Elin Berg"


def test_the_names_a_task_gives() -> None:
    assert task_names("Find the email by Cathryn and click the star icon.") == ["Cathryn"]
    assert task_names('Reply to Bettine with the text "Nunc Dolor".') == ["Bettine"]  # not the quote
    assert task_names("For the user @leo, click Like. Then stop.") == ["@leo", "Like"]
    assert task_names("Find the email by Anne-Marie.") == ["Anne-Marie"]
