"""After a step's action changed the page, the next action's index runs when it, and every index before
it, still names what the model saw (the page drew the same results anew; a toast came in at the end); it
waits for the model to look when new elements came before it."""

from __future__ import annotations

import pytest

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult, Controller
from tests.support.pages import index_of
from tests.support.server import LocalServer


@pytest.fixture
async def catalogue(session: BrowserSession, server: LocalServer) -> BrowserSession:
    """The catalogue with its results shown once."""
    await session.navigate(server.url("controller/catalogue.html"))
    await session.page.fill("#q", "Le Guin")
    await session.page.click("text=Search")
    await session.state()
    return session


async def _run(session: BrowserSession, *actions: dict[str, object]) -> list[ActionResult]:
    return await Controller().run(list(actions), session, model_chose=True)


async def test_a_search_run_again_draws_the_same_results_and_the_click_after_it_runs(
    catalogue: BrowserSession,
) -> None:
    search, lathe = await index_of(catalogue, "Search"), await index_of(catalogue, "The Lathe of Heaven")
    searched, clicked = await _run(
        catalogue,
        {"action": "click_element", "index": search},
        {"action": "click_element", "index": lathe},
    )
    assert searched.error is None and not clicked.skipped and clicked.error is None, (searched, clicked)
    assert await catalogue.page.locator("#opened").inner_text() == "The Lathe of Heaven"
    assert clicked.extracted_content == f"Clicked element {lathe} (The Lathe of Heaven)"


async def test_a_toast_after_the_element_does_not_stop_the_click(catalogue: BrowserSession) -> None:
    save, first = await index_of(catalogue, "Save this search"), await index_of(catalogue, "The Dispossessed")
    _, clicked = await _run(
        catalogue,
        {"action": "click_element", "index": save},
        {"action": "click_element", "index": first},
    )
    assert not clicked.skipped and clicked.error is None, clicked
    assert await catalogue.page.locator("#opened").inner_text() == "The Dispossessed"


async def test_a_new_element_before_the_index_stops_the_list(catalogue: BrowserSession) -> None:
    """A pinned result comes first: the index of "The Left Hand of Darkness" now names another book."""
    pin, left = await index_of(catalogue, "Pin a staff pick"), await index_of(catalogue, "Left Hand")
    _, clicked = await _run(
        catalogue,
        {"action": "click_element", "index": pin},
        {"action": "click_element", "index": left},
    )
    assert clicked.skipped and "indices may differ" in (clicked.extracted_content or ""), clicked
    assert await catalogue.page.locator("#opened").inner_text() == ""


async def test_an_index_the_page_the_model_saw_did_not_have_waits(catalogue: BrowserSession) -> None:
    """The model guessed the toast's Dismiss before the toast was there: nothing it saw had that index."""
    save = await index_of(catalogue, "Save this search")
    state = await catalogue.state()
    assert state.snapshot is not None
    beyond = max(state.snapshot.selector_map) + 1
    _, dismissed = await _run(
        catalogue,
        {"action": "click_element", "index": save},
        {"action": "click_element", "index": beyond},
    )
    assert dismissed.skipped, dismissed
    assert await catalogue.page.locator("text=Search saved.").count() == 1
