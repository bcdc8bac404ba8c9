"""A click that would check a box the task does not name, where the task names other boxes of the page
(or asks to select nothing), is held back once, naming the boxes it does name; the same click again
checks it. Chosen on MiniWoB++'s click-checkboxes ("Select nothing and click Submit": the model checked
the first box); this page is a pizza order's toppings."""

from __future__ import annotations

import pytest

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult, Controller
from tests.support.pages import index_of
from tests.support.server import LocalServer


@pytest.fixture
async def page(session: BrowserSession, server: LocalServer) -> BrowserSession:
    await session.navigate(server.url("controller/pizza_toppings.html"))
    return session


async def _click(session: BrowserSession, index: int, task: str, chose: bool = True) -> ActionResult:
    [result] = await Controller().run(
        [{"action": "click_element", "index": index}], session, model_chose=chose, task=task
    )
    return result


async def _checked(session: BrowserSession) -> list[str]:
    return list(
        await session.page.eval_on_selector_all(
            "input[name=t]:checked", "(boxes) => boxes.map((b) => b.value)"
        )
    )


async def test_a_box_the_task_does_not_name_is_held_once_naming_those_it_does(page: BrowserSession) -> None:
    task = "Order a pizza with olives and mushrooms."
    mushrooms, peppers = await index_of(page, "Mushrooms"), await index_of(page, "Green peppers")
    olives = await index_of(page, "Olives")
    held = await _click(page, peppers, task)
    assert held.error == (
        f"Not clicked: element {peppers} ('Green peppers') is a box the task does not name, and the task "
        f"names elements {mushrooms} ('Mushrooms'), {olives} ('Olives'). Go on with the rest of the task, or "
        f"click element {peppers} again if it is meant."
    ), held.error
    assert await _checked(page) == []
    assert (await _click(page, olives, task)).error is None  # a box the task names: at once
    assert (await _click(page, peppers, task)).error is None  # the same click again: it is meant
    assert await _checked(page) == ["Green peppers", "Olives"]


async def test_a_task_that_selects_nothing_holds_the_first_box(page: BrowserSession) -> None:
    anchovies = await index_of(page, "Anchovies")
    order = await index_of(page, "Order")
    held = await _click(page, anchovies, "Select none of the toppings and press Order.")
    assert held.error == (
        f"Not clicked: element {anchovies} ('Anchovies') is a box, and the task asks to select none: leave "
        f"the boxes as they are and click element {order} ('Order') as it asks next, or click element "
        f"{anchovies} again if it is meant."
    ), held.error
    assert await _checked(page) == []


async def test_nothing_is_held_where_the_task_names_no_box_or_no_model_chose(page: BrowserSession) -> None:
    olives, anchovies = await index_of(page, "Olives"), await index_of(page, "Anchovies")
    assert (await _click(page, anchovies, "Add a fish topping to the pizza.")).error is None  # described
    assert (
        await _click(page, olives, "Order a pizza with mushrooms.", chose=False)
    ).error is None  # a replay
    assert await _checked(page) == ["Olives", "Anchovies"]
