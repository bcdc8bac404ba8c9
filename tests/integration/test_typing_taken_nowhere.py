"""Typing into an element that is no field, where nothing takes the keys (a row of a list that opens on
the click), fails saying so, instead of "Typed ..." for a text that went nowhere; an element that takes
the focus and the keys itself (a list with type-ahead) is typed into as before."""

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


async def _type(session: BrowserSession, index: int, text: str) -> ActionResult:
    [result] = await Controller().run(
        [{"action": "input_text", "index": index, "text": text}], session, model_chose=True
    )
    return result


async def test_typing_into_a_row_that_opens_on_the_click_fails_saying_nothing_took_it(
    notes: BrowserSession,
) -> None:
    row = await index_of(notes, "Offsite plan")
    typed = await _type(notes, row, "Looks good")
    assert typed.error is not None, typed.extracted_content
    assert f"element {row} (" in typed.error and "is no text field and did not take the typing" in typed.error
    # the click was done: the note is open, and its comment field is still empty
    assert await notes.page.inner_text("#title") == "Offsite plan"
    assert await notes.page.input_value("#comment") == ""


async def test_an_element_that_takes_the_keys_itself_is_typed_into(notes: BrowserSession) -> None:
    picker = await index_of(notes, "Colour")
    typed = await _type(notes, picker, "b")
    assert typed.error is None, typed.error
    assert await notes.page.inner_text("#picker") == "Blue"


async def test_typing_into_a_chip_that_keeps_the_focus_where_it_was_fails(notes: BrowserSession) -> None:
    await notes.page.click("text=Budget review")
    await notes.page.focus("#comment")  # a chip that prevents the focus moving: the keys go to the comment
    chip = await index_of(notes, "#urgent")
    typed = await _type(notes, chip, "x")
    assert typed.error is not None and "did not take the typing" in typed.error, typed.extracted_content
