"""Dropdowns: list and choose options of native ``<select>`` elements and of ARIA/custom listboxes."""

from __future__ import annotations

from playwright.async_api import ElementHandle

from browser_agent.browser.playwright_errors import map_action_errors
from browser_agent.controller.actions import listbox
from browser_agent.controller.context import ActionContext
from browser_agent.controller.registry import Registry
from browser_agent.errors import ActionError

__all__ = ["get_dropdown_options", "register", "select_dropdown_option"]

_NATIVE_OPTIONS_JS = "(el) => Array.from(el.options).map((o) => o.label || o.text)"


async def get_dropdown_options(index: int, ctx: ActionContext) -> str:
    """List the options of a dropdown (a native select or a custom listbox/combobox).

    Args:
        index: The index of the dropdown.
    """
    _, handle = await ctx.element(index)
    with map_action_errors(f"reading the options of element {index}"):
        if await _is_native_select(handle):
            options: list[str] = await handle.evaluate(_NATIVE_OPTIONS_JS)
        else:
            options = [text for text, _ in await listbox.open_options(handle)]
    if not options:
        raise ActionError(f"element {index} shows no options; click it or type into it first.")
    listed = "\n".join(f"- {text!r}" for text in options)
    return (
        f"Options of element {index}:\n{listed}\nChoose one with select_dropdown_option and its exact text."
    )


async def select_dropdown_option(index: int, text: str, ctx: ActionContext) -> str:
    """Choose an option of a dropdown by its visible text.

    Args:
        index: The index of the dropdown (the select, combobox or listbox).
        text: The option's visible text, as listed by get_dropdown_options.
    """
    _, handle = await ctx.element(index)
    with map_action_errors(f"selecting {text!r} in element {index}"):
        if await _is_native_select(handle):
            chosen = await _select_native(handle, text)
        else:
            chosen = await listbox.choose(handle, text)
    if chosen is None:
        raise ActionError(f"element {index} has no option {text!r}; use get_dropdown_options to list them.")
    await ctx.session.settle()
    return f"Selected {chosen!r} in element {index}"


async def _is_native_select(handle: ElementHandle) -> bool:
    return bool(await handle.evaluate("(el) => el.tagName === 'SELECT'"))


async def _select_native(handle: ElementHandle, text: str) -> str | None:
    options: list[str] = await handle.evaluate(_NATIVE_OPTIONS_JS)
    match = listbox.best_match(options, text)
    if match is None:
        return None
    await handle.select_option(index=options.index(match))
    return match


def register(registry: Registry) -> None:
    registry.add(get_dropdown_options, "List the options of a dropdown (select or listbox).")
    registry.add(select_dropdown_option, "Choose a dropdown option by its text.")
