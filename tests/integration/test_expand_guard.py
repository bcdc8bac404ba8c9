"""A click that would send a form while the part the task asks to expand is still collapsed is held back
once, naming it; a second click sends, and nothing is held back once the part is open or when the task
asks for no expanding. The page is a printer's settings form, unlike MiniWoB++'s accordion."""

from __future__ import annotations

import pytest
from langchain_core.messages import BaseMessage

from browser_agent import Agent
from browser_agent.agent.conversation import page_of_state
from browser_agent.browser import BrowserSession
from browser_agent.browser.page_text import page_text
from browser_agent.controller import ActionResult, Controller
from browser_agent.testing import ScriptedChatModel, find_index
from tests.support.pages import index_of
from tests.support.server import LocalServer

TASK = "Expand the advanced options, turn on printing on both sides and click Save."


@pytest.fixture
async def page(session: BrowserSession, server: LocalServer) -> BrowserSession:
    await session.navigate(server.url("controller/advanced_settings.html"))
    return session


async def _click(session: BrowserSession, index: int, task: str = TASK) -> ActionResult:
    [result] = await Controller().run(
        [{"action": "click_element", "index": index}], session, model_chose=True, task=task
    )
    return result


async def _sent(session: BrowserSession) -> str:
    return str(await session.page.inner_text("#sent")).strip()


async def test_save_before_expanding_is_held_back_once_naming_the_closed_part(page: BrowserSession) -> None:
    save, more = await index_of(page, "Save"), await index_of(page, "Advanced options")
    held = await _click(page, save)
    assert held.error == (
        f"element {save} would send the form before what the task asks to expand is open: [{more}] "
        f'<button> "Advanced options" is collapsed; click it first, or click element {save} again to send '
        "the form as it is."
    )
    assert await _sent(page) == ""
    again = await _click(page, save)
    assert again.error is None and await _sent(page) == "Saved simplex"


async def test_nothing_is_held_back_once_the_part_is_open(page: BrowserSession) -> None:
    """A nameless collapsed element (an icon) is no part a task asks for."""
    assert "<button collapsed></button>" in page_text(await page.state()).body
    assert (await _click(page, await index_of(page, "Advanced options"))).error is None
    await page.state()  # the model sees the opened part
    assert (await _click(page, await index_of(page, "Print on both sides"))).error is None
    await page.state()
    saved = await _click(page, await index_of(page, "Save"))
    assert saved.error is None and await _sent(page) == "Saved duplex"


async def test_a_task_that_asks_for_no_expanding_sends_at_once(page: BrowserSession) -> None:
    saved = await _click(page, await index_of(page, "Save"), task="Click Save.")
    assert saved.error is None and await _sent(page) == "Saved simplex"


async def test_in_a_run_the_agent_passes_its_task_to_the_guard(page: BrowserSession) -> None:
    def policy(messages: list[BaseMessage]) -> dict[str, object]:
        brain = {"evaluation_previous_goal": "ok", "memory": "", "next_goal": "save"}
        state = page_of_state(str(messages[-1].content))
        return {
            "current_state": brain,
            "action": [{"action": "click_element", "index": find_index(state, "button", "Save")}],
        }

    history = await Agent(TASK, ScriptedChatModel(policy=policy), browser=page).run(max_steps=2)
    first, second = (step.results[0] for step in history.steps)
    assert first.error is not None and "is collapsed; click it first" in first.error
    assert second.error is None and await _sent(page) == "Saved simplex"
