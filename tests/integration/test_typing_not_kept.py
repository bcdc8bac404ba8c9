"""Typing that leaves the field empty fails and says why: a page that turns its form off when a field
takes the focus (a dialog to answer first), or one that wipes text it does not take. Text that stays is
typed as before."""

from __future__ import annotations

from browser_agent.browser import BrowserSession
from tests.support.actions import run1
from tests.support.pages import index_of
from tests.support.server import LocalServer


async def test_a_field_turned_off_by_a_dialog_fails_and_names_the_reason(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("controller/field_lock.html"))
    amount = await index_of(session, "Amount")
    typed = await run1(session, {"action": "input_text", "index": amount, "text": "120"})
    assert typed.error is not None
    assert f"typing into element {amount}" in typed.error and "left it empty" in typed.error
    assert "turned the field off" in typed.error and "pop-up" in typed.error
    # The dialog is answered: the same typing now holds.
    await run1(session, {"action": "click_element", "index": await index_of(session, "Yes, go on")})
    amount = await index_of(session, "Amount")
    again = await run1(session, {"action": "input_text", "index": amount, "text": "120"})
    assert again.error is None and again.extracted_content is not None
    assert again.extracted_content.endswith("the field now holds '120'")


async def test_text_the_page_wipes_fails_and_digits_it_takes_are_kept(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("controller/field_lock.html"))
    reference = await index_of(session, "Reference")
    wiped = await run1(session, {"action": "input_text", "index": reference, "text": "rent May"})
    assert wiped.error is not None and "left it empty" in wiped.error
    assert "emptied it again" in wiped.error
    kept = await run1(session, {"action": "input_text", "index": reference, "text": "2024"})
    assert kept.error is None and kept.extracted_content is not None
    assert "the field now holds '2024'" in kept.extracted_content


async def test_typing_nothing_into_an_empty_field_is_no_failure(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("controller/field_lock.html"))
    payee = await index_of(session, "Payee")
    cleared = await run1(session, {"action": "input_text", "index": payee, "text": ""})
    assert cleared.error is None
