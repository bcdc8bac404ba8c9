"""A click that brings empty text fields onto the page says so in its result (Forward opened a form whose
"to" field was empty, and a small model told only "Clicked" called the task done); a click that opens
none, or fields that were on the page already, add nothing."""

from __future__ import annotations

import pytest

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult, Controller
from tests.support.pages import index_of
from tests.support.server import LocalServer


@pytest.fixture
async def notes(session: BrowserSession, server: LocalServer) -> BrowserSession:
    await session.navigate(server.url("controller/note_rows.html"))
    return session


async def _click(session: BrowserSession, index: int) -> ActionResult:
    action = {"action": "click_element", "index": index}
    [result] = await Controller().run([action], session, model_chose=True)
    return result


async def test_a_click_that_opens_an_empty_field_says_so(notes: BrowserSession) -> None:
    row = await index_of(notes, "Budget review")
    clicked = await _click(notes, row)
    assert clicked.extracted_content == (
        f"Clicked element {row} (Budget review Priya, Monday); it opened an empty text field (marked * on "
        "the page): input_text types into it"
    ), clicked.extracted_content


async def test_fields_on_the_page_already_or_filled_are_not_said(notes: BrowserSession) -> None:
    await _click(notes, await index_of(notes, "Budget review"))
    await notes.page.fill("#comment", "Approved")
    # the comment field is on the page the model now sees, and filled: opening the other note says nothing
    await notes.state()
    clicked = await _click(notes, await index_of(notes, "Offsite plan"))
    assert clicked.error is None and clicked.extracted_content is not None
    assert "opened" not in clicked.extracted_content, clicked.extracted_content
    await notes.page.fill("#comment", "")
    clicked = await _click(notes, await index_of(notes, "Budget review"))
    assert clicked.extracted_content is not None and "opened" not in clicked.extracted_content


async def test_fields_a_pop_up_turned_off_and_its_answer_turned_back_on_are_said_to_be_back(
    session: BrowserSession, server: LocalServer
) -> None:
    """A bank's idle question turns the transfer form off as the amount takes the focus; "Stay signed
    in" turns it back on, empty: the click says the fields are back, to type into them again."""
    await session.navigate(server.url("controller/transfer.html"))
    await session.state()
    amount = await index_of(session, "amount")
    [typed] = await Controller().run(
        [{"action": "input_text", "index": amount, "text": "120"}], session, model_chose=True
    )
    assert typed.error is not None and "turned the field off" in typed.error, typed
    clicked = await _click(session, await index_of(session, "Stay signed in"))
    assert clicked.extracted_content == (
        f"Clicked element {clicked.element.index if clicked.element else '?'} (Stay signed in); 2 empty text "
        "fields are back on the page (marked *): type into them again"
    ), clicked.extracted_content
