"""A click on an empty text field says that it is empty and how to fill it (a click only puts the caret
there); a field that holds text, and what is no text field, get no such word."""

from __future__ import annotations

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult, Controller
from tests.support.pages import index_of
from tests.support.server import LocalServer

EMPTY = "; the field is empty: input_text types into it"


async def _run(session: BrowserSession, *actions: dict[str, object]) -> list[ActionResult]:
    results = await Controller().run(list(actions), session)  # type: ignore[arg-type]
    assert all(r.error is None for r in results), results
    return results


async def test_a_click_on_an_empty_field_says_how_to_fill_it(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("agent/login.html"))
    user, password = await index_of(session, "Username"), await index_of(session, "Password")
    for index in (user, password):
        (clicked,) = await _run(session, {"action": "click_element", "index": index})
        assert clicked.extracted_content is not None and clicked.extracted_content.endswith(EMPTY)
    await _run(session, {"action": "input_text", "index": user, "text": "ada"})
    (clicked,) = await _run(session, {"action": "click_element", "index": user})
    assert clicked.extracted_content is not None and EMPTY not in clicked.extracted_content


async def test_a_text_area_is_a_field_and_a_checkbox_or_button_is_not(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("agent/feedback.html"))
    comments = await index_of(session, "Comments")
    (clicked,) = await _run(session, {"action": "click_element", "index": comments})
    assert clicked.extracted_content is not None and clicked.extracted_content.endswith(EMPTY)
    for name in ("Reply to me", "Clear"):
        (clicked,) = await _run(session, {"action": "click_element", "index": await index_of(session, name)})
        assert clicked.extracted_content is not None and EMPTY not in clicked.extracted_content
