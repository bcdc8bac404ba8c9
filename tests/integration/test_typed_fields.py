"""``input_text`` into date, time, datetime-local, month, week, number, range and color fields: the forms
people write go in as the field's own format, the page hears ``input`` and ``change``, and the result
says what the field now holds."""

from __future__ import annotations

import pytest

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult, Controller
from tests.support.pages import index_of
from tests.support.server import LocalServer


@pytest.fixture
async def fields(session: BrowserSession, server: LocalServer) -> BrowserSession:
    await session.navigate(server.url("controller/fields.html"))
    return session


async def _type(session: BrowserSession, label: str, text: str) -> ActionResult:
    index = await index_of(session, label)
    [result] = await Controller().run([{"action": "input_text", "index": index, "text": text}], session)
    return result


@pytest.mark.parametrize(
    ("label", "field", "written", "held", "said"),
    [
        ("Birthday", "date", "04/03/2010", "2010-04-03", "'2010-04-03' (April 3, 2010)"),
        ("Birthday", "date", "April 3, 2010", "2010-04-03", "'2010-04-03' (April 3, 2010)"),
        ("Alarm", "time", "6:15 PM", "18:15", "'18:15' (6:15 PM)"),
        ("Alarm", "time", "6:15 AM", "06:15", "'06:15' (6:15 AM)"),
        (
            "Meeting",
            "datetime",
            "04/03/2010 6:15 PM",
            "2010-04-03T18:15",
            "'2010-04-03T18:15' (April 3, 2010, 6:15 PM)",
        ),
        ("Billing month", "month", "April 2010", "2010-04", "'2010-04' (April 2010)"),
        ("Sprint week", "week", "Week 13, 2010", "2010-W13", "'2010-W13' (week 13 of 2010)"),
        ("Amount", "number", "1,234", "1234", "'1234'"),
        ("Volume", "range", "75", "75", "'75'"),
        ("Colour", "color", "red", "#ff0000", "'#ff0000'"),
        ("Colour", "color", "#00F", "#0000ff", "'#0000ff'"),
    ],
)
async def test_the_forms_people_write_go_in_and_the_result_says_what_the_field_holds(
    fields: BrowserSession, label: str, field: str, written: str, held: str, said: str
) -> None:
    result = await _type(fields, label, written)
    assert result.error is None, result.error
    assert result.extracted_content is not None
    assert result.extracted_content.endswith(f"; the field now holds {said}"), result.extracted_content
    assert await fields.page.locator(f"#{field}").input_value() == held
    assert field in (await fields.page.locator("#changes").inner_text()).split(), "the page heard the change"


async def test_a_value_the_field_clamps_is_said_with_its_limits(fields: BrowserSession) -> None:
    result = await _type(fields, "Volume", "150")
    assert result.error is None and result.extracted_content is not None
    assert result.extracted_content.endswith("; the field now holds '100' (not '150': it takes 0 to 100)")


@pytest.mark.parametrize(
    ("label", "written", "error"),
    [
        ("Birthday", "next Tuesday", "is a date field and 'next Tuesday' is not a date; write a date, e.g. "),
        ("Alarm", "25:61", "is a time field and '25:61' is not a time; write a time, e.g. 18:15 or 6:15 PM."),
        ("Amount", "twelve", "is a number field and 'twelve' is not a number; write a number, e.g. 1234.5."),
        ("Colour", "blurple", "is a color field and 'blurple' is not a colour; write a colour, e.g. "),
        ("Locked date", "04/03/2010", "is read-only: it takes no typing (click it: a picker may open)."),
    ],
)
async def test_what_cannot_go_in_fails_at_once_saying_what_would(
    fields: BrowserSession, label: str, written: str, error: str
) -> None:
    index = await index_of(fields, label)
    result = await _type(fields, label, written)
    assert result.error is not None and result.error.startswith(f"element {index} {error}"), result.error
    assert await fields.page.locator("#changes").inner_text() == "", "nothing was put in"


async def test_a_plain_field_is_typed_into_as_before(fields: BrowserSession) -> None:
    result = await _type(fields, "Full name", "Ada Lovelace")
    assert result.error is None
    assert result.extracted_content == (
        f"Typed 'Ada Lovelace' into element {await index_of(fields, 'Full name')} (Full name); "
        "the field now holds 'Ada Lovelace'"
    )
