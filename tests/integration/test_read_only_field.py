"""Typing into a read-only field (one the page sets from a picker of its own) clicks it, which opens the
picker; a date is then picked in the month calendar that opened, any other text fails at once. A field
that takes typing is typed into as before. The pages are a restaurant's booking form with a one-month
calendar, and a train search with two months side by side and arrows between them: neither is
MiniWoB++'s jQuery date picker."""

from __future__ import annotations

import asyncio
import time

import pytest

from browser_agent import Agent, Controller
from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult
from browser_agent.export import export_history
from browser_agent.playback import replay
from browser_agent.testing import ScriptedChatModel
from tests.support.actions import run1
from tests.support.pages import index_of
from tests.support.server import LocalServer

BOOKING = "controller/picker_field.html"
TRAINS = "controller/travel_dates.html"


async def test_a_date_typed_into_a_read_only_field_is_picked_in_the_calendar_it_opens(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url(BOOKING))
    day = await index_of(session, "Day")
    typed = await run1(session, {"action": "input_text", "index": day, "text": "06/14/2027"})
    assert typed.error is None, typed.error
    assert typed.extracted_content == (
        f"Picked June 14, 2027 in the calendar that element {day} (Day) opens (the field is read-only); "
        "the field now holds '2027-06-14'"
    )
    assert await session.page.input_value("#day") == "2027-06-14"
    assert await session.page.locator("#cal").is_hidden()


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        ("August 14, 2027", "Sat 14 Aug 2027"),  # the second month shown
        ("7/3/2027", "Sat 3 Jul 2027"),  # the first; its greyed 1-8 of August are not August's
        ("2027-12-31", "Fri 31 Dec 2027"),  # four months on
        ("1 March 2027", "Mon 1 Mar 2027"),  # four back
    ],
)
async def test_a_two_month_calendar_is_paged_to_the_month_and_the_day_clicked(
    session: BrowserSession, server: LocalServer, written: str, shown: str
) -> None:
    await session.navigate(server.url(TRAINS))
    field = await index_of(session, "Outbound")
    typed = await run1(session, {"action": "input_text", "index": field, "text": written})
    assert typed.error is None, typed.error
    assert await session.page.input_value("#out") == shown
    assert typed.extracted_content is not None and typed.extracted_content.endswith(f"now holds {shown!r}")
    await asyncio.sleep(0.3)  # the page opens its calendar again 80 ms after a pick: it was closed
    assert await session.page.locator("#picker").is_hidden()
    search = await index_of(session, "Search trains")
    assert (await run1(session, {"action": "click_element", "index": search})).error is None
    assert await session.page.text_content("#sent") == f"Trains on {shown}"


async def test_text_that_is_no_date_clicks_the_field_and_fails_at_once(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url(BOOKING))
    day = await index_of(session, "Day")
    started = time.monotonic()
    typed = await run1(session, {"action": "input_text", "index": day, "text": "the 14th"})
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


async def test_a_month_the_calendar_cannot_reach_is_said_and_the_calendar_left_open(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url(BOOKING))  # June 2027 only, no arrows
    day = await index_of(session, "Day")
    typed = await run1(session, {"action": "input_text", "index": day, "text": "July 2, 2027"})
    assert typed.error == (
        f"element {day} (Day) is read-only: the page sets it from a control of its own, not from typing; "
        "clicked it and the calendar shows June 2027 and has no control that goes a month on; choose the "
        "day there with click_element."
    )
    assert await session.page.locator("#cal").is_visible()
    assert await session.page.input_value("#day") == ""


async def test_a_field_that_takes_typing_is_typed_into(session: BrowserSession, server: LocalServer) -> None:
    await session.navigate(server.url(BOOKING))
    guests = await index_of(session, "Guests")
    typed = await run1(session, {"action": "input_text", "index": guests, "text": "4"})
    assert typed.error is None and await session.page.input_value("#guests") == "4"
    assert await session.page.locator("#cal").is_hidden()


async def test_a_run_that_picked_in_the_calendar_replays_it_and_exports_no_fill_of_it(
    session: BrowserSession, server: LocalServer
) -> None:
    """A replay picks the day again; an exported script cannot fill a read-only field, so the step is
    left out with a warning rather than written as a fill that fails."""
    await session.navigate(server.url(TRAINS))
    field, search = await index_of(session, "Outbound"), await index_of(session, "Search trains")
    brain = {"evaluation_previous_goal": "", "memory": "", "next_goal": "book"}
    replies = [
        {"current_state": brain, "action": [{"action": "input_text", "index": field, "text": "8/14/2027"}]},
        {"current_state": brain, "action": [{"action": "click_element", "index": search}]},
        {"current_state": brain, "action": [{"action": "done", "text": "searched", "success": True}]},
    ]
    history = await Agent(
        "Search trains on August 14, 2027", ScriptedChatModel(replies=replies), browser=session
    ).run(max_steps=4)
    assert await session.page.text_content("#sent") == "Trains on Sat 14 Aug 2027"
    script = export_history(history)
    assert "# NOT EXPORTED: step 1 (the run set the value through the page's own calendar" in script.source
    assert ".fill(" not in script.source and 'name="Search trains"' in script.source
    assert any("the page's own calendar or slider" in w for w in script.warnings)

    await session.navigate(server.url(TRAINS))
    report = await replay(history, session, Controller())
    assert report.ok, report
    assert await session.page.text_content("#sent") == "Trains on Sat 14 Aug 2027"


async def test_a_search_sent_with_its_read_only_date_empty_is_held_once(
    session: BrowserSession, server: LocalServer
) -> None:
    """The date the page sets from its calendar is a field the form sends: pressing Search before it is
    picked is held back once, saying how it is set; the second press sends the form as it is."""
    await session.navigate(server.url(TRAINS))
    field, search = await index_of(session, "Outbound"), await index_of(session, "Search trains")
    task = "Search trains from Lyon to Turin for the first day you can"
    held = await _press(session, search, task)
    assert held.error == (
        f'element {search} would send the form with fields not set yet: [{field}] <input> "Outbound" empty '
        "(read-only, set from a picker: input_text with the value picks it there); type into element "
        f"{field} first, or click element {search} again to send it as it is."
    )
    assert await session.page.text_content("#sent") == ""
    sent = await _press(session, search, task)
    assert sent.error is None
    assert await session.page.text_content("#sent") == "Trains on "


async def test_a_read_only_field_that_holds_a_value_holds_nothing_back(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url(TRAINS))
    field, search = await index_of(session, "Outbound"), await index_of(session, "Search trains")
    typed = await run1(session, {"action": "input_text", "index": field, "text": "July 3, 2027"})
    assert typed.error is None
    task = "Search trains from Lyon to Turin on July 3, 2027"
    sent = await _press(session, search, task)
    assert sent.error is None
    assert await session.page.text_content("#sent") == "Trains on Sat 3 Jul 2027"


async def test_a_click_on_an_empty_read_only_field_says_how_it_is_set(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url(BOOKING))
    day = await index_of(session, "Day")
    clicked = await _press(session, day, "Book a table")
    assert clicked.error is None
    assert clicked.extracted_content == (
        f"Clicked element {day} (Day); the field is read-only and empty: the page sets it from a picker of "
        "its own (what the click opened is marked * on the page); input_text with the value picks it there"
    )
    assert await session.page.locator("#cal").is_visible()


async def test_the_date_the_task_gives_is_named_and_held_for_until_it_is_picked(
    session: BrowserSession, server: LocalServer
) -> None:
    """With the one date the task names, the hold says what to type and holds every time: offered "or
    click again", the model pressed Search again over the empty date."""
    await session.navigate(server.url(TRAINS))
    field, search = await index_of(session, "Outbound"), await index_of(session, "Search trains")
    task = "Find trains from Lyon to Turin leaving on August 14, 2027."
    for _ in range(2):
        held = await _press(session, search, task)
        assert held.error == (
            f'element {search} would send the form with [{field}] <input> "Outbound" empty; it is read-only, '
            "yet input_text sets it (the day is picked in the page's calendar): send "
            f"input_text(index={field}, text='August 14, 2027') first (the task gives the date), then click "
            f"element {search}."
        )
    assert await session.page.text_content("#sent") == ""
    typed = await run1(session, {"action": "input_text", "index": field, "text": "August 14, 2027"})
    assert typed.error is None, typed.error
    await asyncio.sleep(0.3)  # the page opens its calendar again 80 ms after a pick
    sent = await _press(session, search, task)
    assert sent.error is None
    assert await session.page.text_content("#sent") == "Trains on Sat 14 Aug 2027"


async def _press(session: BrowserSession, index: int, task: str) -> ActionResult:
    """A click on element ``index`` as the agent's model chose it for ``task`` (the holds apply)."""
    return await run1(session, {"action": "click_element", "index": index}, model_chose=True, task=task)


async def test_a_date_another_field_holds_is_not_given_for_the_read_only_one(
    session: BrowserSession, server: LocalServer
) -> None:
    """The one date of the task, already in a field that takes typing, is that field's: the empty
    read-only field is held for once, as a field whose value the task does not give."""
    await session.navigate(server.url(TRAINS))
    field, search = await index_of(session, "Outbound"), await index_of(session, "Search trains")
    await session.page.fill("input[name=to]", "14/08/2027")
    task = "Search trains to Turin on 14/08/2027"
    held = await _press(session, search, task)
    assert held.error is not None and held.error.endswith(
        f"type into element {field} first, or click element {search} again to send it as it is."
    )
    assert (await _press(session, search, task)).error is None
    assert await session.page.text_content("#sent") == "Trains on "
