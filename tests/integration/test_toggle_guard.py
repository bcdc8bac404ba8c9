"""A click that would uncheck a box the run itself checked is held back once (a small model sent its
clicks on the boxes again in the next step, unchecking them); the same click again unchecks it, and a
task that asks to uncheck, a box the page checked, or a replay is never held."""

from __future__ import annotations

import pytest

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult, Controller
from tests.support.pages import index_of
from tests.support.server import LocalServer

TASK = "Choose Science and Travel for the digest and save"


@pytest.fixture
async def topics(session: BrowserSession, server: LocalServer) -> BrowserSession:
    await session.navigate(server.url("controller/topics.html"))
    return session


async def _click(session: BrowserSession, index: int, task: str = TASK, chose: bool = True) -> ActionResult:
    [result] = await Controller().run(
        [{"action": "click_element", "index": index}], session, model_chose=chose, task=task
    )
    return result


async def _checked(session: BrowserSession, value: str) -> bool:
    return await session.page.is_checked(f"input[value={value}]")


async def test_unchecking_a_box_the_run_checked_is_held_back_once(topics: BrowserSession) -> None:
    science = await index_of(topics, "Science")
    assert (
        await _click(topics, science)
    ).extracted_content == f"Clicked element {science} (Science); it is now checked"
    science = await index_of(topics, "Science")  # the model looks again: the box reads checked
    held = await _click(topics, science)
    assert held.error == (
        f"element {science} (Science) is checked already: an earlier action of this run checked it, and a "
        f"click now would uncheck it. Go on with the rest of the task, or click element {science} again to "
        "uncheck it."
    )
    assert await _checked(topics, "science")
    again = await _click(topics, science)
    assert again.error is None and not await _checked(topics, "science")


async def test_a_switch_the_run_turned_on_is_held_too(topics: BrowserSession) -> None:
    dark = await index_of(topics, "Dark mode")
    await _click(topics, dark, "Turn on dark mode")
    held = await _click(topics, await index_of(topics, "Dark mode"), "Turn on dark mode")
    assert held.error is not None and "is checked already" in held.error
    assert await topics.page.get_attribute("#dark", "aria-checked") == "true"


@pytest.mark.parametrize("case", ["task unchecks", "page checked it", "replay"])
async def test_clicks_meant_to_uncheck_are_not_held(topics: BrowserSession, case: str) -> None:
    if case == "page checked it":  # Food came checked: the run never checked it
        result = await _click(topics, await index_of(topics, "Food"))
        assert result.error is None and not await _checked(topics, "food")
        return
    science = await index_of(topics, "Science")
    await _click(topics, science)
    science = await index_of(topics, "Science")
    if case == "task unchecks":
        result = await _click(topics, science, task="Check Science, then untick it again")
    else:
        result = await _click(topics, science, chose=False)
    assert result.error is None and not await _checked(topics, "science")
