"""Typing into fields with a value format of their own: date, time, datetime-local, month, week, number,
range and color.

What was written is turned into the field's format (``field_values``), set as a person's input would
set it (the value, then ``input`` and ``change``), and read back: the result says what the field holds
and how that reads (``2010-04-03 (April 3, 2010)``), and a value the field clamped or refused is said.
"""

from __future__ import annotations

from typing import Any

from playwright.async_api import ElementHandle

from browser_agent.browser.playwright_errors import map_action_errors
from browser_agent.controller.actions.field_values import field_value
from browser_agent.controller.context import ActionContext
from browser_agent.errors import ActionError

__all__ = ["put_value"]

_EXAMPLES = {
    "date": "a date, e.g. 2010-04-03 or April 3, 2010",
    "time": "a time, e.g. 18:15 or 6:15 PM",
    "datetime-local": "a date and a time, e.g. 2010-04-03 18:15",
    "month": "a month, e.g. 2010-04 or April 2010",
    "week": "a week, e.g. 2010-W13",
    "number": "a number, e.g. 1234.5",
    "range": "a number, e.g. 50",
    "color": "a colour, e.g. #ff0000 or red",
}

# The native value setter: a framework that wraps the element's own (React) still sees the change.
_PUT_JS = """(el, v) => {
  if (el.disabled || el.readOnly) return { blocked: el.disabled ? 'disabled' : 'read-only' };
  el.focus();
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(el, v);
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { value: el.value, min: el.min, max: el.max };
}"""
# A CSS colour as #rrggbb (the browser knows every name), or null for no opaque colour.
_COLOR_JS = """(el, text) => {
  const c = document.createElement('canvas').getContext('2d');
  const read = (s) => { c.fillStyle = s; c.fillStyle = text; return c.fillStyle; };
  const seen = [read('#000001'), read('#000002')];
  return seen[0] === seen[1] && /^#[0-9a-f]{6}$/.test(seen[0]) ? seen[0] : null;
}"""


async def put_value(
    index: int, handle: ElementHandle, kind: str, text: str, ctx: ActionContext, label: str
) -> str:
    """Put ``text`` into the ``<input type=kind>`` behind ``handle``; what the result says.

    Raises:
        ActionError: ``text`` is no value of that kind, or the field is disabled or read-only.
    """
    value = field_value(kind, text)
    wanted = value.value if value is not None else ""
    with map_action_errors(f"typing into element {index}"):
        if kind == "color" and value is not None:
            wanted = str(await handle.evaluate(_COLOR_JS, wanted) or "")
        if not wanted:
            example = _EXAMPLES[kind]
            noun = example.split(",")[0]
            raise ActionError(
                f"element {index} is a {kind} field and {ctx.quote(text)} is not {noun}; write {example}."
            )
        held: dict[str, Any] = await handle.evaluate(_PUT_JS, wanted)
    if "blocked" in held:
        blocked = held["blocked"]
        raise ActionError(f"element {index} is {blocked}: it takes no typing (click it: a picker may open).")
    shown = ctx.redact(str(held["value"]))
    reads = value.reads if value is not None and shown == wanted and value.reads != shown else ""
    note = f" ({reads})" if reads else ""
    if shown != wanted:
        limits = (
            f"it takes {held['min'] or '…'} to {held['max'] or '…'}" if kind in ("range", "number") else ""
        )
        note = f" (not {wanted!r}: {limits or 'the field refused it'})"
    return f"Typed {ctx.quote(text)} into element {index} ({label}); the field now holds {shown!r}{note}"
