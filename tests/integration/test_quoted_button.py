"""A click on a button other than the one the task quotes word for word, where that one is on the page,
is held back once, naming it; the same click again goes through. Chosen on MiniWoB++'s click-button
("okay" clicked for "Ok", the model's own goal naming "Okay"); this page is a news site's cookie banner
with "Accept all" beside "Accept"."""

from __future__ import annotations

import pytest

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult, Controller
from tests.support.pages import index_of
from tests.support.server import LocalServer


@pytest.fixture
async def page(session: BrowserSession, server: LocalServer) -> BrowserSession:
    await session.navigate(server.url("controller/cookie_banner.html"))
    return session


async def _click(session: BrowserSession, index: int, task: str, chose: bool = True) -> ActionResult:
    [result] = await Controller().run(
        [{"action": "click_element", "index": index}], session, model_chose=chose, task=task
    )
    return result


async def _button(session: BrowserSession, name: str) -> int:
    """The index of the button named ``name``, whole."""
    state = await session.state()
    assert state.snapshot is not None
    [index] = [n.index for n in state.snapshot.selector_map.values() if n.tag == "button" and n.text == name]
    return index


async def _said(session: BrowserSession) -> str:
    return str(await session.page.inner_text("#said"))


TASK = 'Close the cookie banner with "Accept".'


async def test_another_button_than_the_quoted_one_is_held_once(page: BrowserSession) -> None:
    accept_all, accept = await _button(page, "Accept all"), await _button(page, "Accept")
    held = await _click(page, accept_all, TASK)
    assert held.error == (
        f"Not clicked: element {accept_all} is the button 'Accept all', but the task quotes 'Accept', which "
        f"is element {accept} word for word. Click element {accept}, or element {accept_all} again if it is "
        "the one meant."
    ), held.error
    assert await _said(page) == "Nothing chosen."
    assert (await _click(page, accept, TASK)).error is None
    assert await _said(page) == "Chose needed cookies only"


async def test_the_same_click_again_goes_through(page: BrowserSession) -> None:
    accept_all = await _button(page, "Accept all")
    assert (await _click(page, accept_all, TASK)).error is not None
    assert (await _click(page, accept_all, TASK)).error is None
    assert await _said(page) == "Chose all cookies"


async def test_links_unquoted_tasks_and_replays_are_not_held(page: BrowserSession) -> None:
    ferry, reject = await index_of(page, "Ferry timetable changes in March"), await _button(page, "Reject")
    task = 'Search for "ferry" with the Search button, then open the first story.'
    assert (await _click(page, ferry, task)).error is None  # a link: the task's later step
    assert (await _click(page, reject, "Say no to cookies.")).error is None  # nothing quoted
    assert (await _click(page, reject, TASK, chose=False)).error is None  # a replay
    assert await _said(page) == "Chose no cookies"
