"""Typing into a read-only field (one the page sets from a picker of its own) fails at once, after a
click that opens the picker; the value is then picked there. A field that takes typing is typed into as
before. The page is a restaurant's booking form with a calendar of its own, unlike MiniWoB++'s jQuery
date picker."""

from __future__ import annotations

import time

from browser_agent.browser import BrowserSession
from tests.support.actions import run1
from tests.support.pages import index_of
from tests.support.server import LocalServer

PAGE = "controller/picker_field.html"


async def test_typing_into_a_read_only_field_opens_its_picker_and_fails_at_once(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url(PAGE))
    day = await index_of(session, "Day")
    started = time.monotonic()
    typed = await run1(session, {"action": "input_text", "index": day, "text": "June 14, 2027"})
    assert time.monotonic() - started < session.config.action_timeout_ms / 1000  # no wait for editable
    assert typed.error == (
        f"element {day} (Day) is read-only: the page sets it from a control of its own, not from typing; "
        "clicked it instead: what it opened (a calendar, a list) is on the page now, new elements marked *; "
        "choose the value there with click_element."
    )
    assert await session.page.locator("#cal").is_visible()
    assert await session.page.input_value("#day") == ""
    fourteen = await index_of(session, "14")
    picked = await run1(session, {"action": "click_element", "index": fourteen})
    assert picked.error is None
    assert await session.page.input_value("#day") == "2027-06-14"


async def test_a_field_that_takes_typing_is_typed_into(session: BrowserSession, server: LocalServer) -> None:
    await session.navigate(server.url(PAGE))
    guests = await index_of(session, "Guests")
    typed = await run1(session, {"action": "input_text", "index": guests, "text": "4"})
    assert typed.error is None and await session.page.input_value("#guests") == "4"
    assert await session.page.locator("#cal").is_hidden()
