"""Custom dropdowns (ARIA comboboxes and listboxes): open them, find their options, pick one.

The options are found from the widget itself: the element when it is the listbox, the listbox named by
``aria-controls``/``aria-owns`` (also on a combobox wrapper), or one inside it; as a last resort any
visible ``[role=option]`` in the same document, but only one the click brought out: another widget's
option that was showing already (choices.js shows its current choice as one) is not this widget's.
Opening waits for the options to appear, with a cap.
"""

from __future__ import annotations

import re

from playwright.async_api import ElementHandle, JSHandle

from browser_agent.browser.playwright_errors import PlaywrightError, PlaywrightTimeoutError
from browser_agent.dom.text_limits import unmarked

__all__ = ["best_match", "choose", "open_options"]

_OPEN_TIMEOUT_MS = 3_000  # only a widget that never opens waits this long

# ``seen``: the options showing anywhere before the click (null: take them all).
_OPTIONS_JS = """([el, anywhere, seen]) => {
  const visible = (e) => !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length)
    && getComputedStyle(e).visibility !== 'hidden';
  const root = el.getRootNode();
  const byId = (id) =>
    (root.getElementById && root.getElementById(id)) || el.ownerDocument.getElementById(id);
  const boxes = [];
  const addFrom = (node) => {
    if (!node) return;
    if (['listbox', 'menu', 'tree', 'grid'].includes(node.getAttribute('role'))) boxes.push(node);
    for (const attr of ['aria-controls', 'aria-owns'])
      for (const id of (node.getAttribute(attr) || '').split(/\\s+/)) {
        const b = id && byId(id);
        if (b) boxes.push(b);
      }
    const inner = node.querySelector('[role=listbox]');
    if (inner) boxes.push(inner);
  };
  const shown = (box) =>
    [...box.querySelectorAll('[role=option], [role=menuitem], [role=treeitem]')].filter(visible);
  addFrom(el);
  addFrom(el.closest('[role=combobox]'));
  addFrom(el.closest('[role=listbox]'));
  for (const box of boxes) {
    const found = shown(box);
    if (found.length) return found;
  }
  if (!anywhere) return null;
  const before = new Set(seen || []);
  const wide = root === el.ownerDocument ? [root] : [root, el.ownerDocument];
  const found = wide.flatMap(shown).filter((e) => !before.has(e));
  return found.length ? found : null;
}"""
# The options showing now in the widget's shadow root and its document (when it has none of its own).
_SHOWN_ANYWHERE_JS = f"(el) => ({_OPTIONS_JS})([el, true, null]) || []"


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def best_match(options: list[str], text: str) -> str | None:
    """The option that is ``text`` (ignoring case and spacing, and the marks the view puts on options:
    ``✓`` chosen, ``…`` cut), else the only one containing it (a cut option is its beginning)."""
    wanted = _normal(unmarked(text))
    exact = [o for o in options if _normal(o) == wanted]
    if exact:
        return exact[0]
    partial = [o for o in options if wanted and wanted in _normal(o)]
    return partial[0] if len(partial) == 1 else None


async def _elements(array: JSHandle) -> list[ElementHandle]:
    props = await array.get_properties()
    found = [p.as_element() for _, p in sorted(props.items(), key=lambda kv: int(kv[0]))]
    return [e for e in found if e is not None]


async def _options_now(handle: ElementHandle, *, anywhere: bool) -> list[ElementHandle]:
    array = await handle.evaluate_handle(f"(el, anywhere) => ({_OPTIONS_JS})([el, anywhere, null])", anywhere)
    return [] if await array.json_value() is None else await _elements(array)


async def _wait_for_options(handle: ElementHandle, seen: JSHandle) -> list[ElementHandle]:
    """The options a click brought out: the widget's own, else new ones anywhere in its document; when
    none come, those that were showing already (a list open all along)."""
    frame = await handle.owner_frame()
    if frame is None:
        return []
    try:
        array = await frame.wait_for_function(_OPTIONS_JS, arg=[handle, True, seen], timeout=_OPEN_TIMEOUT_MS)
    except PlaywrightTimeoutError:
        return await _options_now(handle, anywhere=True)
    return await _elements(array)


async def open_options(handle: ElementHandle) -> list[tuple[str, ElementHandle]]:
    """The visible options of the widget behind ``handle``, opening it (a click) when they are hidden.

    Raises:
        playwright Error: the widget could not be clicked (callers map it).
    """
    return (await _open(handle, force=False))[0]


async def _open(handle: ElementHandle, *, force: bool) -> tuple[list[tuple[str, ElementHandle]], bool]:
    """The visible options and whether a click opened them; ``force`` clicks even when some show already
    (a widget that shows its current choice as an option while closed)."""
    options = [] if force else await _options_now(handle, anywhere=False)
    clicked = not options
    if clicked:
        seen = await handle.evaluate_handle(_SHOWN_ANYWHERE_JS)
        await handle.click()
        options = await _wait_for_options(handle, seen)
    texts = []
    for option in options:
        try:
            texts.append(((await option.inner_text()).strip(), option))
        except PlaywrightError:
            continue  # an option that re-rendered while we read it: skip it, the rest are still valid
    return texts, clicked


async def choose(handle: ElementHandle, text: str) -> str | None:
    """Open the widget, click the option whose text best matches ``text``; None when none does."""
    options, clicked = await _open(handle, force=False)
    match = best_match([t for t, _ in options], text)
    if match is None and not clicked:
        options, _ = await _open(handle, force=True)
        match = best_match([t for t, _ in options], text)
    if match is None:
        return None
    option = next(o for t, o in options if t == match)
    await option.click()
    return match
