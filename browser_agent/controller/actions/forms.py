"""Dropdowns: list and choose options of native ``<select>`` elements, of widgets standing for a hidden
native select (select2, tom-select, choices.js...), and of ARIA/custom listboxes.

A widget is driven through its select: the option is set there and the events a widget listens to are
fired; when the widget still shows the old value (it does not listen), it is opened and the option
clicked, as a user would.
"""

from __future__ import annotations

from collections.abc import Callable

from playwright.async_api import ElementHandle
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from browser_agent.action_specs import forms as specs
from browser_agent.browser.playwright_errors import map_action_errors
from browser_agent.controller.actions import listbox
from browser_agent.controller.actions.refusals import check_listable
from browser_agent.controller.actions.submit_guard import note_chosen
from browser_agent.controller.context import ActionContext
from browser_agent.controller.registry import Registry
from browser_agent.dom.handles import select_behind
from browser_agent.errors import ActionError

__all__ = ["get_dropdown_options", "register", "select_dropdown_option"]

_NATIVE_OPTIONS_JS = "(el) => Array.from(el.options).map((o) => o.label || o.text)"
# What a user's choice does: the option becomes selected, then input and change bubble from the select.
_SET_AND_FIRE_JS = """(el, i) => {
  el.selectedIndex = i;
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
}"""
# Whether the widget shows the text, reading only what is drawn and not the select it may hold.
_REDRAW_TIMEOUT_MS = 1_500
_SHOWS_JS = """(el, text) => {
  const seen = [];
  const walker = el.ownerDocument.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  const drawn = { visibilityProperty: true, opacityProperty: true }; // Chrome 121+
  Object.assign(drawn, { checkVisibilityCSS: true, checkOpacity: true }); // the older names
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = n.parentElement;
    if (parent && !parent.closest('select') && parent.checkVisibility(drawn)) seen.push(n.nodeValue);
  }
  return seen.join(' ').replace(/\\s+/g, ' ').includes(text);
}"""


async def get_dropdown_options(index: int, ctx: ActionContext) -> str:
    """List the options of a dropdown (a native select or a custom listbox/combobox)."""
    node, handle = await ctx.element(index)
    snapshot = await ctx.current_snapshot()
    await check_listable(index, node, handle, snapshot, ctx.redact)
    native = await select_behind(snapshot, node)
    with map_action_errors(f"reading the options of element {index}"):
        if native is not None or await _is_native_select(handle):
            options: list[str] = await (native or handle).evaluate(_NATIVE_OPTIONS_JS)
        else:
            options = [text for text, _ in await listbox.open_options(handle)]
    if not options:
        raise ActionError(f"element {index} shows no options; click it or type into it first.")
    listed = "\n".join(f"- {ctx.quote(text)}" for text in options)
    return (
        f"Options of element {index}:\n{listed}\nChoose one with select_dropdown_option and its exact text."
    )


async def select_dropdown_option(index: int, text: str, ctx: ActionContext) -> str:
    """Choose an option of a dropdown by its visible text."""
    node, handle = await ctx.element(index)
    snapshot = await ctx.current_snapshot()
    await check_listable(index, node, handle, snapshot, ctx.redact)
    native = await select_behind(snapshot, node)
    with map_action_errors(f"selecting {ctx.quote(text)} in element {index}"):
        if native is not None:
            chosen = await _select_wrapped(handle, native, text, index, ctx.quote)
        elif await _is_native_select(handle):
            chosen = await _select_native(handle, text)
        else:
            chosen = await listbox.choose(handle, text)
    if chosen is None:
        raise ActionError(
            f"element {index} has no option {ctx.quote(text)}; use get_dropdown_options to list them."
        )
    note_chosen(ctx.session, snapshot.url, node.element_id)
    await ctx.session.settle()
    return f"Selected {ctx.quote(chosen)} in element {index}"


async def _is_native_select(handle: ElementHandle) -> bool:
    return bool(await handle.evaluate("(el) => el.tagName === 'SELECT'"))


async def _select_native(handle: ElementHandle, text: str) -> str | None:
    options: list[str] = await handle.evaluate(_NATIVE_OPTIONS_JS)
    match = listbox.best_match(options, text)
    if match is None:
        return None
    await handle.select_option(index=options.index(match))
    return match


async def _select_wrapped(
    widget: ElementHandle, native: ElementHandle, text: str, index: int, quote: Callable[[str], str]
) -> str | None:
    """Choose in the select behind a widget, then make sure the widget shows it (driving it if need be);
    ``quote`` redacts and quotes an option's text for the error message."""
    options: list[str] = await native.evaluate(_NATIVE_OPTIONS_JS)
    match = listbox.best_match(options, text)
    if match is None:
        return None
    await native.evaluate(_SET_AND_FIRE_JS, options.index(match))
    if await widget.evaluate(_SHOWS_JS, match):
        return match
    # A widget without ARIA roles (selectric) by its drawn option; else, or when that did not take (a list
    # opened on a timer, tom-select's, was seen taking the click late under load), as a listbox.
    if await _click_drawn_option(widget, native, match) is not None and await _shows_soon(widget, match):
        return match
    driven = await listbox.choose(widget, match)
    if driven is None or not await _shows_soon(widget, match):
        raise ActionError(
            f"element {index} is a dropdown widget that did not take {quote(match)} (its options could not "
            "be opened); click it and then click the option."
        )
    return match


# The option a widget drew for ``text`` beside its select, without ARIA roles (selectric's
# ``.selectric-items li``): in the nearest box holding both, the innermost visible element reading it.
_DRAWN_OPTION_JS = """(widget, [select, text]) => {
  const norm = (s) => s.replace(/\\s+/g, ' ').trim().toLowerCase();
  let box = widget.parentElement;
  while (box && !box.contains(select)) box = box.parentElement;
  if (!box || box === document.body) return null;
  const want = norm(text);
  for (const el of box.querySelectorAll('li, [role=option], div, span, a')) {
    if (el.closest('select') || widget.contains(el) || !el.checkVisibility()) continue;
    if (norm(el.textContent) !== want) continue;
    if (![...el.children].some((c) => norm(c.textContent) === want)) return el;
  }
  return null;
}"""


async def _click_drawn_option(widget: ElementHandle, native: ElementHandle, text: str) -> str | None:
    """Click the option a widget drew for ``text``; when its list is shut, open it with a click and wait
    for the option to be drawn (tom-select draws its list on a timer, late on a busy machine)."""
    found = await widget.evaluate_handle(_DRAWN_OPTION_JS, [native, text])
    if found.as_element() is None:
        frame = await widget.owner_frame()
        if frame is None:
            return None
        await widget.click()
        try:
            found = await frame.wait_for_function(
                f"([el, select, text]) => ({_DRAWN_OPTION_JS})(el, [select, text])",
                arg=[widget, native, text],
                timeout=_REDRAW_TIMEOUT_MS,
            )
        except PlaywrightTimeoutError:
            return None
    option = found.as_element()
    if option is None:
        return None
    await option.click()
    return text


async def _shows_soon(widget: ElementHandle, text: str) -> bool:
    """Whether the widget shows ``text`` within a short while: widgets redraw after the click's own task
    (a timer, an animation frame), later still on a busy machine."""
    if await widget.evaluate(_SHOWS_JS, text):
        return True
    frame = await widget.owner_frame()
    if frame is None:
        return False
    try:
        await frame.wait_for_function(
            f"([el, text]) => ({_SHOWS_JS})(el, text)", arg=[widget, text], timeout=_REDRAW_TIMEOUT_MS
        )
    except PlaywrightTimeoutError:
        return False
    return True


def register(registry: Registry) -> None:
    registry.add_spec(get_dropdown_options, specs.GET_DROPDOWN_OPTIONS)
    registry.add_spec(select_dropdown_option, specs.SELECT_DROPDOWN_OPTION)
