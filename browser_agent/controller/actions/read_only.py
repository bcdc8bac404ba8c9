"""Typing into a read-only field: the page fills it from a control of its own (a date picker, a colour
swatch, a counter's buttons), so the typing is not tried; the field is clicked, which opens such a
picker, and the action fails at once saying so.

A small model typed "12/16/2016" into a read-only date field whose calendar opens on a click; Playwright
waited out its whole timeout for the field to become editable, and the model, told only "the element is
read-only", gave up. Now it is told at once what the field is and that what the click opened is on the
page, where the value can be picked. A date, when the click opened a month calendar, is picked there
(``calendar_pick.py``).
"""

from __future__ import annotations

import contextlib

from playwright.async_api import ElementHandle

from browser_agent.browser.playwright_errors import PlaywrightError, map_action_errors
from browser_agent.controller.actions.calendar_pick import NoCalendar, pick_date
from browser_agent.controller.actions.field_values import spoken_date, written_date
from browser_agent.controller.context import ActionContext
from browser_agent.errors import ActionError

__all__ = ["type_into_read_only"]

# A text field (not a button-like input, not disabled) that the page has made read-only.
_READ_ONLY_JS = """(el) => {
  const tag = el.tagName.toLowerCase();
  if (tag !== 'input' && tag !== 'textarea') return false;
  if (tag === 'input' && ['button', 'submit', 'reset', 'image', 'checkbox', 'radio', 'file', 'hidden']
    .includes(el.type)) return false;
  return el.readOnly === true && el.disabled !== true;
}"""


async def type_into_read_only(
    index: int, label: str, handle: ElementHandle, text: str, ctx: ActionContext
) -> str | None:
    """None when the field ``handle`` (element ``index``, named ``label``) is not read-only. Else it is
    clicked, so that a picker it opens is on the page; a date in ``text`` is picked in the month calendar
    the click opened, and what the field then holds is returned.

    Raises:
        ActionError: the field is read-only and was not set: what was done instead.
    """
    read_only = False
    with contextlib.suppress(PlaywrightError):
        read_only = bool(await handle.evaluate(_READ_ONLY_JS))
    if not read_only:
        return None
    start = (
        f"element {index} ({label}) is read-only: the page sets it from a control of its own, not from typing"
    )
    try:
        with map_action_errors(f"clicking element {index}"):
            await handle.click(timeout=ctx.session.config.action_timeout_ms)
        await ctx.session.settle()
    except ActionError:
        raise ActionError(
            f"{start}; clicking it failed too; look for the control beside it that sets it."
        ) from None
    opened = (
        "clicked it instead: what it opened (a calendar, a list) is on the page now, new elements marked *; "
        "choose the value there with click_element"
    )
    day = written_date(text)
    if day is None:
        raise ActionError(f"{start}; {opened}.")
    try:
        value = await pick_date(handle, day, ctx)
    except NoCalendar:
        raise ActionError(f"{start}; {opened}.") from None
    except ActionError as exc:
        raise ActionError(
            f"{start}; clicked it and {exc}; choose the day there with click_element."
        ) from None
    return (
        f"Picked {spoken_date(day)} in the calendar that element {index} ({label}) opens (the field is "
        f"read-only); the field now holds {ctx.quote(value)}"
    )
