"""A click on an element other than the one the step's goal names is held back once, naming the element
the goal names; a click the goal agrees with, or one the goal says nothing against, runs at once."""

from __future__ import annotations

import pytest
from langchain_core.messages import BaseMessage

from browser_agent import Agent
from browser_agent.agent.conversation import page_of_state
from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult, Controller
from browser_agent.testing import ScriptedChatModel, find_index
from tests.support.pages import index_of
from tests.support.server import LocalServer


@pytest.fixture
async def page(session: BrowserSession, server: LocalServer) -> BrowserSession:
    await session.navigate(server.url("controller/goal_names.html"))
    return session


async def _click(session: BrowserSession, index: int, goal: str) -> ActionResult:
    [result] = await Controller().run(
        [{"action": "click_element", "index": index}], session, model_chose=True, goal=goal
    )
    return result


async def _exact(session: BrowserSession, text: str) -> int:
    state = await session.state()
    assert state.snapshot is not None
    return next(n.index for n in state.snapshot.selector_map.values() if (n.text or n.name) == text)


async def _clicked(session: BrowserSession) -> str:
    return str(await session.page.inner_text("#log")).strip()


async def test_a_click_the_goal_does_not_name_is_held_once_naming_the_one_it_does(
    page: BrowserSession,
) -> None:
    billing, security = await index_of(page, "Billing"), await index_of(page, "Security")
    held = await _click(page, security, "Open the Billing tab.")
    assert held.error == (
        f"element {security} is 'Security', but your goal names 'Billing', which is element {billing}: "
        f"not clicked. Click element {billing}, or element {security} again if you meant it."
    )
    assert await _clicked(page) == ""
    again = await _click(page, security, "Open the Billing tab.")
    assert again.error is None and await _clicked(page) == "Security;"


async def test_clicks_the_goal_agrees_with_or_says_nothing_against_run_at_once(page: BrowserSession) -> None:
    save, discard = await _exact(page, "Save"), await index_of(page, "Discard")
    assert (await _click(page, save, "Press 'Save' to keep the new name.")).error is None
    assert (await _click(page, discard, "Close the form.")).error is None  # names nothing on the page
    # a goal of two clauses plans two actions: the click is the first one's, not the OK of the second
    assert (await _click(page, await index_of(page, "Cancel"), "Close the form and press OK.")).error is None
    # a word of the page in lower case in a sentence is not its button: "search" is no "Search"
    assert (await _click(page, discard, "Click the 3rd search result.")).error is None
    # "Save changes" and "Discard" both named: which one the model meant is not for the check to say
    assert (await _click(page, await index_of(page, "OK"), "Save changes, then Discard.")).error is None
    assert await _clicked(page) == "Save;Discard;Cancel;Discard;OK;"


async def test_short_names_count_only_quoted_or_in_capitals(page: BrowserSession) -> None:
    at, go = await _exact(page, "at"), await _exact(page, "go")
    ok, cancel = await index_of(page, "OK"), await index_of(page, "Cancel")
    assert (await _click(page, go, "Click the link at the end of the sentence.")).error is None
    held = await _click(page, go, "Click on the link 'at'.")
    assert held.error is not None and f"which is element {at}" in held.error
    held = await _click(page, cancel, "Press OK.")
    assert held.error is not None and f"which is element {ok}" in held.error


async def test_the_actions_after_a_held_click_are_not_run(page: BrowserSession) -> None:
    billing, security = await index_of(page, "Billing"), await index_of(page, "Security")
    results = await Controller().run(
        [{"action": "click_element", "index": security}, {"action": "click_element", "index": billing}],
        page,
        model_chose=True,
        goal="Open Billing.",
    )
    assert results[0].error is not None and results[1].skipped and await _clicked(page) == ""


async def test_actions_no_model_chose_are_run_as_given(page: BrowserSession) -> None:
    security = await index_of(page, "Security")
    [result] = await Controller().run(
        [{"action": "click_element", "index": security}], page, goal="Open the Billing tab."
    )
    assert result.error is None and await _clicked(page) == "Security;"


async def test_in_a_run_the_model_is_told_and_clicks_what_its_goal_names(
    session: BrowserSession, server: LocalServer
) -> None:
    def policy(messages: list[BaseMessage]) -> dict[str, object]:
        page = page_of_state(str(messages[-1].content))
        if "Billing;" in page:
            return {
                "current_state": brain("end"),
                "action": [{"action": "done", "text": "open", "success": True}],
            }
        told = "your goal names 'Billing'" in str(messages)
        index = find_index(page, "button", "Billing" if told else "Security")
        return {
            "current_state": brain("Open the Billing tab."),
            "action": [{"action": "click_element", "index": index}],
        }

    task = f"Open {server.url('controller/goal_names.html')} and open the billing tab"
    history = await Agent(task, ScriptedChatModel(policy=policy), browser=session).run(max_steps=5)
    held = history.steps[1].results[0].error
    assert held is not None and "your goal names 'Billing'" in held
    assert history.steps[2].results[0].error is None and history.final_result() == "open"
    assert await _clicked(session) == "Billing;"


def brain(goal: str) -> dict[str, str]:
    return {"evaluation_previous_goal": "Unknown", "memory": "", "next_goal": goal}


async def test_a_click_beside_a_list_the_goal_names_is_left_out_once_and_the_list_is_clicked(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("controller/goal_list.html"))
    email, sms = await index_of(session, "Email"), await index_of(session, "SMS")
    push, digest = await index_of(session, "Push alerts"), await index_of(session, "Weekly digest")
    goal = "Tick Email, Push alerts, Weekly digest and save."
    results = await Controller().run(
        [{"action": "click_element", "index": i} for i in (email, sms, push, digest)],
        session,
        model_chose=True,
        goal=goal,
    )
    assert [r.error for r in results] == [None] * 4
    assert [r.skipped for r in results] == [False, True, False, False]
    assert results[1].extracted_content == (
        f"element {sms} ('SMS') not clicked: your goal does not name it, it names 'Email' ({email}), "
        f"'Push alerts' ({push}), 'Weekly digest' ({digest}). Click element {sms} again if you meant it."
    )
    assert await _clicked(session) == "Email;Push alerts;Weekly digest;"
    # another kind than the list (the form's button, a link) is not the list's neighbour: it runs
    [result] = await Controller().run(
        [{"action": "click_element", "index": await index_of(session, "Save preferences")}],
        session,
        model_chose=True,
        goal=goal,
    )
    assert result.error is None and not result.skipped
    assert await _clicked(session) == "Email;Push alerts;Weekly digest;saved;"
    # left out once: the same click again goes through
    [again] = await Controller().run(
        [{"action": "click_element", "index": sms}], session, model_chose=True, goal=goal
    )
    assert not again.skipped and await _clicked(session) == "Email;Push alerts;Weekly digest;saved;SMS;"


async def test_an_option_two_boxes_down_a_form_is_not_inside_its_button(page: BrowserSession) -> None:
    # "Click the Upgrade button." and a click on a plan of the form: a button opens nothing to be in
    monthly, upgrade = await _exact(page, "Monthly"), await _exact(page, "Upgrade")
    held = await _click(page, monthly, "Click the Upgrade button.")
    assert held.error is not None and f"your goal names 'Upgrade', which is element {upgrade}" in held.error
    assert not await page.page.is_checked("input[value=monthly]")


async def test_a_click_inside_what_the_named_item_opened_agrees_with_the_goal(
    session: BrowserSession, server: LocalServer
) -> None:
    """ "Select Marietta from the submenu." and a click on Meridel, in the submenu Marietta opened, is
    what the goal meant; a click on the menu item beside the named one is not."""
    await session.navigate(server.url("controller/goal_menu.html"))
    recent, edit = await index_of(session, "Open recent"), await index_of(session, "Edit")
    [inside] = await Controller().run(
        [{"action": "click_element", "index": recent}],
        session,
        model_chose=True,
        goal="Choose from the File menu.",
    )
    assert inside.error is None and await _clicked(session) == "Open recent;"
    [beside] = await Controller().run(
        [{"action": "click_element", "index": edit}],
        session,
        model_chose=True,
        goal="Choose from the File menu.",
    )
    assert beside.error is not None and "your goal names 'File'" in beside.error
