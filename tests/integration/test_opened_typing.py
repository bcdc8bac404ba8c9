"""Typing planned in the same step as the click that opens its field ("click Add comment, type the
comment") goes into the one empty field the click opened, when the typing names the element clicked or
anything else that takes no text; the rest of the step still waits for the model to look again. A text
field the model saw, or a secret placeholder, is typed where the model put it."""

from __future__ import annotations

import pytest

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult, Controller
from tests.support.pages import index_of
from tests.support.server import LocalServer

COMMENT = "Restarted the printer; jams gone"


@pytest.fixture
async def ticket(session: BrowserSession, server: LocalServer) -> BrowserSession:
    """The help desk with ticket T-311 open: its "Add comment" brings up a comment box and Post."""
    await session.navigate(server.url("agent/helpdesk.html"))
    await Controller().run(
        [{"action": "click_element", "index": await index_of(session, "Printer on floor 2 jams")}], session
    )
    await session.state()
    return session


async def _click_then_type(session: BrowserSession, typed_at: int, text: str = COMMENT) -> list[ActionResult]:
    add = await index_of(session, "Add comment")
    actions = [
        {"action": "click_element", "index": add},
        {"action": "input_text", "index": typed_at, "text": text},
        {"action": "click_element", "index": add},  # an index from before the click: must not run
    ]
    return await Controller().run(actions, session, model_chose=True, sensitive_data={"note": "zq-5521"})


async def test_typing_at_the_clicked_button_goes_into_the_field_it_opened(ticket: BrowserSession) -> None:
    add = await index_of(ticket, "Add comment")
    clicked, typed, rest = await _click_then_type(ticket, add)
    assert clicked.error is None and typed.error is None, (clicked, typed)
    assert await ticket.page.input_value("#comment") == COMMENT
    assert typed.element is not None and typed.element.attributes.get("id") == "comment"
    assert typed.extracted_content == (
        f"Typed '{COMMENT}' into element {typed.element.index} (Comment); the field now holds '{COMMENT}' "
        f"(the field the click opened: element {add} was no place to type)"
    ), typed.extracted_content
    assert rest.skipped and "new element(s) appeared" in (rest.extracted_content or ""), rest
    # the index the result gives is the field's in the view the model sees next
    state = await ticket.state()
    assert state.snapshot is not None
    assert state.snapshot.selector_map[typed.element.index].attributes.get("id") == "comment"


async def test_an_index_the_page_did_not_have_counts_as_meant_for_the_opened_field(
    ticket: BrowserSession,
) -> None:
    _, typed, _ = await _click_then_type(ticket, 40)
    assert typed.error is None and not typed.skipped, typed
    assert await ticket.page.input_value("#comment") == COMMENT


async def test_a_text_field_the_model_saw_is_not_moved_from(ticket: BrowserSession) -> None:
    find = await index_of(ticket, "Find a ticket")
    _, typed, _ = await _click_then_type(ticket, find)
    assert await ticket.page.input_value("#comment") == ""
    # the box comes before what appeared, so its index still names it (controller/same_indices.py)
    assert typed.error is None and await ticket.page.input_value("#q") == COMMENT, typed


async def test_a_secret_goes_only_where_the_model_put_it(ticket: BrowserSession) -> None:
    add = await index_of(ticket, "Add comment")
    _, typed, _ = await _click_then_type(ticket, add, text="<secret>note</secret>")
    assert await ticket.page.input_value("#comment") == ""
    assert typed.error is not None and "is a <button>" in typed.error, (
        typed
    )  # typed where it was put: refused


async def test_a_click_that_opens_no_field_moves_nothing(
    session: BrowserSession, server: LocalServer
) -> None:
    """Opening the ticket brings up the section (new elements) but no empty field of its own besides
    those already seen: the typing aimed at the row waits, as before."""
    await session.navigate(server.url("agent/helpdesk.html"))
    await session.state()
    row = await index_of(session, "Printer on floor 2 jams")
    actions = [
        {"action": "click_element", "index": row},
        {"action": "input_text", "index": row, "text": COMMENT},
    ]
    _, typed = await Controller().run(actions, session, model_chose=True)
    assert typed.skipped, typed
    assert await session.page.input_value("#comment") == ""
