"""A date typed into a read-only field, picked in the calendar the field opens.

Booking and travel pages keep their date fields read-only and fill them from a month calendar of their
own. A model types the date (``12/01/2016``, ``June 3, 2027``); a small one, told the field is read-only
and that a calendar opened, did not then find its way through the calendar (three of three episodes). A
person would: read the month written above the days, go a month on or back until it is the right one,
and click the day. ``pick_date`` does that (``calendar.js`` reads the calendar), then reads the field back.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
from dataclasses import dataclass
from importlib import resources

from playwright.async_api import ElementHandle, JSHandle

from browser_agent.browser.playwright_errors import PlaywrightError, map_action_errors
from browser_agent.controller.actions.field_values import spoken_date
from browser_agent.controller.context import ActionContext
from browser_agent.errors import ActionError, ElementNotFoundError

__all__ = ["NoCalendar", "pick_date"]

_CALENDAR_JS = resources.files(__package__).joinpath("calendar.js").read_text(encoding="utf-8")
_MOST_MOVES = 36  # months gone on or back before giving up (three years)
_CLOSE_LOOK_S = 0.1  # after the pick, how often the calendar is looked at
_CLOSED_FOR_S = 0.4  # and how long it must stay closed
_CLOSE_LOOKS = 15


class NoCalendar(Exception):
    """No month calendar is shown on the page."""


@dataclass(frozen=True, slots=True, order=True)
class _Month:
    year: int
    month: int

    def __str__(self) -> str:
        return f"{dt.date(self.year, self.month, 1):%B %Y}"


async def pick_date(handle: ElementHandle, day: dt.date, ctx: ActionContext) -> str:
    """Pick ``day`` in the calendar shown on the page; return what the field ``handle`` holds then.

    Raises:
        NoCalendar: the page shows no month calendar.
        ActionError: the calendar cannot be brought to ``day``'s month, has no such day, or the click on
            the day left the field empty.
    """
    wanted = _Month(day.year, day.month)
    shown_before: _Month | None = None
    for _ in range(_MOST_MOVES + 1):
        calendar = await ctx.session.page.evaluate_handle(_CALENDAR_JS)
        try:
            months = [
                _Month(y, m)
                for y, m in await calendar.evaluate("(c) => c.months.map((m) => [m.year, m.month])")
            ]
            if not months:
                raise NoCalendar
            if wanted in months:
                try:
                    await _click_day(calendar, months.index(wanted), day, ctx)
                except ElementNotFoundError:
                    continue  # the page drew the calendar again meanwhile: read it again
                await _field_value(handle, day)  # the click set nothing: fail with the calendar open
                await _close(handle, ctx)
                return await _field_value(handle, day)  # what Escape left in it
            if months[0] == shown_before:
                raise ActionError(f"the calendar stayed on {months[0]} after its control was clicked")
            later = wanted > months[0]
            try:
                await _click(
                    calendar, "next" if later else "prev", f"the calendar shows {months[0]} and", ctx
                )
            except ElementNotFoundError:
                continue
            shown_before = months[0]
        finally:
            await _dispose(calendar)
    raise ActionError(f"the calendar did not reach {wanted} in {_MOST_MOVES} moves")


async def _click_day(calendar: JSHandle, month: int, day: dt.date, ctx: ActionContext) -> None:
    cell = await calendar.evaluate_handle("(c, [i, d]) => c.months[i].cells[d - 1] || null", [month, day.day])
    element = cell.as_element()
    if element is None:
        raise ActionError(f"the calendar's {_Month(day.year, day.month)} has no day {day.day}")
    with map_action_errors(f"clicking day {day.day} in the calendar"):
        await element.click(timeout=ctx.session.config.action_timeout_ms)
    await ctx.session.settle()


async def _close(handle: ElementHandle, ctx: ActionContext) -> None:
    """Close a calendar still open once the day is in the field, with Escape in the field, as a person
    would: open, it covers what comes next. jQuery UI's focuses the field again as it closes, and may open
    again a moment later: the calendar is watched until it has stayed closed for a while."""
    closed_since = 0.0
    for _ in range(_CLOSE_LOOKS):
        if await _months_shown(ctx):
            closed_since = 0.0
            with contextlib.suppress(PlaywrightError):
                await handle.press("Escape", timeout=ctx.session.config.action_timeout_ms)
        else:
            closed_since += _CLOSE_LOOK_S
            if closed_since >= _CLOSED_FOR_S:
                return
        await asyncio.sleep(_CLOSE_LOOK_S)


async def _months_shown(ctx: ActionContext) -> bool:
    calendar = await ctx.session.page.evaluate_handle(_CALENDAR_JS)
    try:
        return bool(await calendar.evaluate("(c) => c.months.length > 0"))
    finally:
        await _dispose(calendar)


async def _click(calendar: JSHandle, which: str, where: str, ctx: ActionContext) -> None:
    """Click the calendar's control to the next or previous month."""
    control = (await calendar.evaluate_handle("(c, key) => c[key]", which)).as_element()
    if control is None:
        direction = "on" if which == "next" else "back"
        raise ActionError(f"{where} has no control that goes a month {direction}")
    with map_action_errors(f"clicking the calendar's {which} month"):
        await control.click(timeout=ctx.session.config.action_timeout_ms)
    await ctx.session.settle()


async def _field_value(handle: ElementHandle, day: dt.date) -> str:
    value = ""
    with contextlib.suppress(PlaywrightError):  # the field went away with the calendar: read as empty
        value = str(await handle.evaluate("(el) => el.value"))
    if not value.strip():
        raise ActionError(f"clicked {spoken_date(day)} in the calendar, but the field is still empty")
    return value


async def _dispose(calendar: JSHandle) -> None:
    with contextlib.suppress(PlaywrightError):  # the page navigated meanwhile: the handle went with it
        await calendar.dispose()
