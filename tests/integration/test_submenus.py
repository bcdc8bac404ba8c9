"""A click on a menu item whose submenu is shut points at it first: when that opens the submenu, nothing
is chosen and the result says so; the submenu's items can then be clicked, and a second click on the item
chooses it. A menu that opens on a click only, and an item with no submenu, are clicked as usual."""

from __future__ import annotations

import pytest
from langchain_core.messages import BaseMessage

from browser_agent import Agent
from browser_agent.agent.conversation import page_of_state
from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult, Controller
from browser_agent.export import export_history
from browser_agent.testing import ScriptedChatModel, find_index
from tests.support.pages import index_of
from tests.support.server import LocalServer


async def _click(session: BrowserSession, name: str) -> ActionResult:
    index = await index_of(session, name)
    results = await Controller().run([{"action": "click_element", "index": index}], session)  # type: ignore[list-item]
    assert len(results) == 1 and results[0].error is None, results
    return results[0]


async def _chosen(session: BrowserSession) -> str:
    return str(await session.page.locator("#chosen").inner_text())


@pytest.fixture
async def shop(session: BrowserSession, server: LocalServer) -> BrowserSession:
    await session.navigate(server.url("controller/nav_menu.html"))
    return session


async def test_a_click_on_a_shut_hover_menu_opens_it_and_chooses_nothing(shop: BrowserSession) -> None:
    result = await _click(shop, "Tools")
    assert result.extracted_content is not None
    assert result.extracted_content.startswith("Opened the submenu of element ")
    # the submenu's own items are named (not those of the submenu inside it, still shut), and no
    # second click on Tools is suggested: a small model clicked it again and chose it
    assert result.extracted_content.endswith(
        "(Tools) by pointing at it; nothing chosen; its items are on the page now: 'Spades', 'Shears'"
    )
    assert await shop.page.locator("#tools").is_visible() and await _chosen(shop) == "nothing"
    await _click(shop, "Shears")  # a submenu inside the submenu opens the same way
    assert await shop.page.locator("#shears").is_visible() and await _chosen(shop) == "nothing"
    await _click(shop, "Pruning shears")
    assert await _chosen(shop) == "Pruning shears"


async def test_a_second_click_on_the_opened_item_chooses_it(shop: BrowserSession) -> None:
    await _click(shop, "Tools")
    result = await _click(shop, "Tools")
    assert result.extracted_content is not None and result.extracted_content.startswith("Clicked element")
    assert await _chosen(shop) == "Tools"


async def test_a_menu_that_opens_on_a_click_and_a_plain_item_are_clicked_at_once(
    shop: BrowserSession,
) -> None:
    result = await _click(shop, "Seeds")  # pointing opens nothing: the click does
    assert result.extracted_content is not None and result.extracted_content.startswith("Clicked element")
    assert await shop.page.locator("#seeds").is_visible() and await _chosen(shop) == "nothing"
    await _click(shop, "Contact")
    assert await _chosen(shop) == "Contact"


async def test_a_run_that_opened_a_submenu_exports_a_hover_and_then_the_click(
    session: BrowserSession, server: LocalServer
) -> None:
    """An exported script does what the run did: it points at the item whose submenu the click opened
    (a click there would choose the item), then clicks the submenu's item."""
    told: list[int] = []

    def policy(messages: list[BaseMessage]) -> dict[str, object]:
        page = page_of_state(str(messages[-1].content))
        told.append(1)
        brain = {"evaluation_previous_goal": "Unknown", "memory": "", "next_goal": "choose"}
        if len(told) == 1:
            action: dict[str, object] = {"action": "click_element", "index": find_index(page, "a", "Tools")}
        elif len(told) == 2:
            action = {"action": "click_element", "index": find_index(page, "a", "Spades")}
        else:
            action = {"action": "done", "text": "Spades chosen", "success": True}
        return {"current_state": brain, "action": [action]}

    await session.navigate(server.url("controller/nav_menu.html"))
    history = await Agent("Choose Tools > Spades.", ScriptedChatModel(policy=policy), browser=session).run(5)
    assert await _chosen(session) == "Spades"
    source = export_history(history).source
    assert source.count(".hover()") == 1 and source.count(".click()") == 1
    assert source.index(".hover()") < source.index(".click()")


async def test_with_a_grammar_the_opened_item_is_not_clicked_the_step_after(
    session: BrowserSession, server: LocalServer
) -> None:
    """A click on the item whose submenu just opened chooses the item itself; a small model did that where
    its task named an item of the submenu. A ``json_schema`` grammar leaves that one click out for the
    next step only."""
    from typing import Any

    from browser_agent import AgentSettings
    from browser_agent.models import chat_model
    from tests.support.fake_openai import FakeOpenAI

    await session.navigate(server.url("controller/nav_menu.html"))
    tools = await index_of(session, "Tools")

    def policy(request: dict[str, Any]) -> dict[str, object]:
        brain = {"evaluation_previous_goal": "Unknown", "memory": "", "next_goal": "choose"}
        step = len(fake.requests)
        page = str(request["messages"][-1]["content"])
        if step == 1:
            action: dict[str, object] = {"action": "click_element", "index": tools}
        elif step == 2:
            action = {"action": "click_element", "index": find_index(page, "a", "Spades")}
        else:
            action = {"action": "done", "text": "Spades", "success": True}
        return {"current_state": brain, "action": [action]}

    def clickable(request: dict[str, Any]) -> list[int]:
        schema = request["response_format"]["json_schema"]["schema"]
        branches = schema["properties"]["action"]["items"]["anyOf"]
        click = next(b for b in branches if b["properties"]["action"]["enum"] == ["click_element"])
        return list(click["properties"]["index"]["enum"])

    with FakeOpenAI(policy) as fake:
        llm = chat_model("openai:local", base_url=fake.base_url, api_key="local", max_retries=0)
        settings = AgentSettings(tool_calling_method="json_schema")
        history = await Agent("Choose Tools > Spades", llm, browser=session, settings=settings).run(4)
    assert fake.schema_errors == [] and history.final_result() == "Spades"
    assert await _chosen(session) == "Spades"
    first, second, third = (clickable(r) for r in fake.requests)
    assert tools in first and tools not in second and tools in third


async def test_a_click_on_an_opened_step_of_the_path_the_task_names_is_held_back(
    shop: BrowserSession,
) -> None:
    """Asked for a path, the 1.5B model opened its first two steps, then clicked the first again, which
    chose it; held back, it is told the furthest step in view."""
    task = "In the shop menu, choose Tools > Shears > Pruning shears."
    await _click(shop, "Tools")
    await _click(shop, "Shears")
    tools, pruning = await index_of(shop, "Tools"), await index_of(shop, "Pruning shears")
    action = {"action": "click_element", "index": tools}
    [held] = await Controller().run([action], shop, model_chose=True, task=task)  # type: ignore[list-item]
    assert held.error == (
        f"element {tools} is a step of the menu path the task names whose items are open already: a click on "
        f"it would choose it. The path goes on to element {pruning} ('Pruning shears') in view: click that."
    )
    assert await _chosen(shop) == "nothing"
    # held every time: the 1.5B model, held once, pointed at the next step and then clicked the first again
    [again] = await Controller().run([action], shop, model_chose=True, task=task)  # type: ignore[list-item]
    assert again.error == held.error and await _chosen(shop) == "nothing"
    [plain] = await Controller().run([action], shop, model_chose=False, task=task)  # type: ignore[list-item]
    assert plain.error is None and await _chosen(shop) == "Tools"  # a replay clicks what it recorded


async def test_a_step_of_the_path_with_no_later_step_in_view_is_clicked_as_usual(
    shop: BrowserSession,
) -> None:
    action = {"action": "click_element", "index": await index_of(shop, "Tools")}
    task = "Choose Tools > Shears > Pruning shears."
    [opened] = await Controller().run([action], shop, model_chose=True, task=task)  # type: ignore[list-item]
    assert opened.error is None and (opened.extracted_content or "").startswith("Opened the submenu")
