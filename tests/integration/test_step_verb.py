"""A click on a nameless icon the task does not name, while a control named as the verb of one of the
task's steps is in view, is held back once, naming that control. Chosen on MiniWoB++'s email-inbox (the
star of an opened mail clicked for "forward that email"); this page is a recipe box with icon buttons
and a "Print all" button."""

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


async def _indices(session: BrowserSession, pattern: str) -> list[int]:
    state = await session.state()
    assert state.snapshot is not None
    return [int(n) for n in re.findall(rf"\[(\d+)\]{pattern}", render(state.snapshot))]


async def _click(session: BrowserSession, index: int, task: str) -> ActionResult:
    action = {"action": "click_element", "index": index}
    [result] = await Controller().run([action], session, model_chose=True, task=task)
    return result


async def test_an_icon_the_task_does_not_name_is_held_once_naming_the_steps_control(
    page: BrowserSession,
) -> None:
    _, bookmark, _ = await _indices(page, "<button icon=bookmark")
    [print_all] = await _indices(page, "<button>Print all")
    task = "Find the Mushroom risotto and print all."
    held = await _click(page, bookmark, task)
    assert held.error == (
        f"element {bookmark} (icon bookmark) is not what the task asks for; the task says to print all, and "
        f'element {print_all} is "Print all": click element {print_all} instead, or element {bookmark} again '
        "if it is the one meant."
    ), held.error
    assert await page.page.inner_text("#said") == "Nothing done yet."
    again = await _click(page, bookmark, task)
    assert again.error is None and await page.page.inner_text("#said") == "Bookmarked Mushroom risotto"


async def test_an_icon_the_task_names_or_no_steps_control_in_view_goes_through(page: BrowserSession) -> None:
    _, bookmark, _ = await _indices(page, "<button icon=bookmark")
    # the task names the icon
    assert (await _click(page, bookmark, "Bookmark the Mushroom risotto, then print all.")).error is None
    # "print" is no step's verb here: the task only mentions it
    _, _, trash = await _indices(page, "<button icon=trash")
    assert (await _click(page, trash, "Remove the Apple crumble before the print.")).error is None
