"""A click on a control repeated on several cards, where the task names what another card shows, is
held back once, naming the control of that card. Chosen on MiniWoB++'s email-inbox (the first star of
the list clicked for "the email by Ailey"); this page is a recipe box."""

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


async def _bookmarks(session: BrowserSession) -> list[int]:
    state = await session.state()
    assert state.snapshot is not None
    view = render(state.snapshot)
    return [int(n) for n in re.findall(r"\[(\d+)\]<button icon=bookmark", view)]


async def _click(session: BrowserSession, index: int, task: str, chose: bool = True) -> ActionResult:
    action = {"action": "click_element", "index": index}
    [result] = await Controller().run([action], session, model_chose=chose, task=task)
    return result


async def _said(session: BrowserSession) -> str:
    return str(await session.page.inner_text("#said"))


async def test_a_click_on_another_cards_control_is_held_back_once(page: BrowserSession) -> None:
    lentils, risotto, _ = await _bookmarks(page)
    task = "Bookmark the Mushroom risotto."
    held = await _click(page, lentils, task)
    assert held.error == (
        f'element {lentils} is for "Lentil soup 35 min…", but the task names "Mushroom": element {risotto} '
        f'is the one for "Mushroom risotto 50…". Click element {risotto} instead, or element {lentils} again '
        "if it is the one meant."
    ), held.error
    assert await _said(page) == "Nothing done yet."
    right = await _click(page, risotto, task)
    assert right.error is None and await _said(page) == "Bookmarked Mushroom risotto"


async def test_the_same_click_again_goes_through(page: BrowserSession) -> None:
    lentils, _, _ = await _bookmarks(page)
    task = "Bookmark the mushroom risotto."
    assert (await _click(page, lentils, task)).error is not None
    again = await _click(page, lentils, task)
    assert again.error is None and await _said(page) == "Bookmarked Lentil soup"


async def test_no_card_named_or_no_model_choosing_holds_nothing_back(page: BrowserSession) -> None:
    lentils, risotto, crumble = await _bookmarks(page)
    assert (await _click(page, risotto, "Bookmark the mushroom risotto.")).error is None  # the right one
    assert (await _click(page, crumble, "Bookmark any recipe.")).error is None  # no card named
    assert (
        await _click(page, lentils, "Bookmark the mushroom risotto.", chose=False)
    ).error is None  # a replay
    assert await _said(page) == "Bookmarked Lentil soup"


async def test_a_named_cards_control_that_is_turned_off_is_not_offered(page: BrowserSession) -> None:
    # a pop-up turned a form's button off: the guard pointed the model to it, and the click failed
    await page.page.evaluate("document.querySelectorAll('.recipe button')[2].disabled = true")
    lentils, _, _ = await _bookmarks(page)
    clicked = await _click(page, lentils, "Bookmark the Mushroom risotto.")
    assert clicked.error is None and await _said(page) == "Bookmarked Lentil soup"
