"""A number typed into a slider the page draws itself (jQuery UI's, an ARIA ``role=slider``): the knob is
moved with the arrow keys, as a person using the keyboard would, until the page shows the number.

A native ``<input type=range>`` takes its value directly (``typed_fields.py``). A drawn slider has no value
to fill: its knob answers the arrow keys, and its value is either said on the knob (``aria-valuenow``) or
only shown by the page somewhere near it ("-8" beside a jQuery UI slider). For the latter, one key press
tells which number on the page follows the knob, and by how much a press moves it.
"""

from __future__ import annotations

import re
from importlib import resources

from playwright.async_api import ElementHandle, Page

from browser_agent.action_specs.elements import SET_BY_WIDGET
from browser_agent.browser.playwright_errors import map_action_errors
from browser_agent.controller.context import ActionContext
from browser_agent.errors import ActionError

__all__ = ["set_slider"]

_SOURCE = resources.files(__package__).joinpath("slider.js").read_text(encoding="utf-8")
_KNOB_JS = f"(el) => {_SOURCE}.knob(el)"
_SAID_JS = f"(el) => {_SOURCE}.said(el)"
_NUMBERS_JS = f"() => {_SOURCE}.numbers()"
_NUMBER = re.compile(r"[-−+]?\d+(?:[.,]\d+)?")
_MOST_PRESSES = 400  # a slider of 0-100 in steps of 0.25 is reached; anything longer is given up
_ROUNDS = 3  # moves and looks: a slider's steps may not be even


async def set_slider(
    index: int, label: str, handle: ElementHandle, text: str, ctx: ActionContext
) -> str | None:
    """None when element ``index`` (``handle``) is no drawn slider; else its knob is moved to the number
    in ``text``, and what the page shows then is returned.

    Raises:
        ActionError: ``text`` holds no number, the slider's value shows nowhere, or it stops elsewhere.
    """
    knob = (await handle.evaluate_handle(_KNOB_JS)).as_element()
    if knob is None:
        return None
    found = _NUMBER.search(text)
    if found is None:
        raise ActionError(
            f"element {index} ({label}) is a slider: give input_text the number to move it to, such as '5'."
        )
    target = float(found[0].replace("−", "-").replace(",", "."))
    page = ctx.session.page
    with map_action_errors(f"moving the slider (element {index})"):
        reading = await _Reading.of(page, knob)
        if reading is None:
            raise ActionError(
                f"element {index} ({label}) is a slider whose value the page does not show; move it with "
                "send_keys (ArrowRight, ArrowLeft, Home, End) after clicking it."
            )
        value = await reading.move_to(target)
    if value is None:
        raise ActionError(f"the slider (element {index}) moved, and its value no longer shows on the page.")
    shown = _plain(value)
    if value != target:
        raise ActionError(
            f"the slider (element {index}) stopped at {shown}, not {_plain(target)}: it moves by "
            f"{_plain(abs(reading.step))} a step, between its ends."
        )
    return f"{SET_BY_WIDGET[1]}(element {index}) to {shown}; the page shows {shown}"


class _Reading:
    """Where the slider's value is read (the knob's ``aria-valuenow``, or the number ``place`` on the
    page that followed the probing key press) and by how much an ArrowRight moves it."""

    def __init__(self, page: Page, knob: ElementHandle, place: str | None, step: float) -> None:
        self.page, self.knob, self.place, self.step = page, knob, place, step

    @classmethod
    async def of(cls, page: Page, knob: ElementHandle) -> _Reading | None:
        """Press ArrowRight (or ArrowLeft, at the right end) once and see what moved; None when nothing."""
        for key, sign in (("ArrowRight", 1), ("ArrowLeft", -1)):
            said, shown = await knob.evaluate(_SAID_JS), await page.evaluate(_NUMBERS_JS)
            await knob.press(key)
            said_after, shown_after = await knob.evaluate(_SAID_JS), await page.evaluate(_NUMBERS_JS)
            if said is not None and said_after is not None and said_after != said:
                return cls(page, knob, None, sign * (said_after - said))
            moved = [
                place
                for place, number in shown.items()
                if place in shown_after and shown_after[place] != number
            ]
            if moved:
                return cls(page, knob, moved[0], sign * (shown_after[moved[0]] - shown[moved[0]]))
        return None

    async def value(self) -> float | None:
        if self.place is None:
            said = await self.knob.evaluate(_SAID_JS)
            return None if said is None else float(said)
        number = (await self.page.evaluate(_NUMBERS_JS)).get(self.place)
        return None if number is None else float(number)

    async def move_to(self, target: float) -> float | None:
        """Press the arrow keys towards ``target``; the value reached."""
        value = await self.value()
        for _ in range(_ROUNDS):
            if value is None or value == target or not self.step:
                break
            presses = min(_MOST_PRESSES, max(1, round(abs((target - value) / self.step))))
            key = "ArrowRight" if (target - value) * self.step > 0 else "ArrowLeft"
            for _ in range(presses):
                await self.knob.press(key)
            moved = await self.value()
            if moved == value:
                break  # at an end
            value = moved
        return value


def _plain(number: float) -> str:
    return str(int(number)) if number == int(number) else f"{number:g}"
