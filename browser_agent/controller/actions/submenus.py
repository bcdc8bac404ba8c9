"""A click on a menu item whose submenu is closed points at it first: the submenu opens, nothing is chosen.

Asked to "Select Alvera>Terza>Ludovika", a small model clicked Alvera: the menu took the click as the
choice of Alvera itself and the task was lost; a person points at Alvera and its submenu opens. So a click
on a menu item that announces a submenu (``role=menuitem`` with ``aria-haspopup``) whose submenu is shut
hovers over it first. When that opens the submenu, the click stops there and says so: the submenu's items
are on the page for the next action, and a second click on the item (its submenu now open) chooses it as
any click does. When hovering opens nothing (a menu that opens on click), the click goes on as usual.
"""

from __future__ import annotations

from playwright.async_api import ElementHandle

from browser_agent.action_specs.elements import POINTED_AT
from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.controller.action_types import ActionResult
from browser_agent.dom.snapshot import ElementNode

__all__ = ["announces_submenu", "open_submenu_by_pointing", "opened_by_pointing", "submenu_items"]

_OPEN_WAIT_MS = 1_000  # jQuery UI opens a submenu 300 ms after the pointer comes

# The item's submenu: the element it controls, else the list right after it, else one inside it or
# beside it in its parent (null: none found).
_SUBMENU_OF_JS = """(el) => {
  const doc = el.ownerDocument, list = 'ul, ol, [role=menu], [role=group]';
  const controlled = el.getAttribute('aria-controls');
  let menu = controlled ? doc.getElementById(controlled) : null;
  const next = el.nextElementSibling;
  if (!menu && next && next.matches(list)) menu = next;
  if (!menu) menu = el.querySelector(list);
  if (!menu && el.parentElement) menu = el.parentElement.querySelector(':scope > ul, :scope > [role=menu]');
  return menu;
}"""
# Whether the item's submenu shows (null: none found).
_SUBMENU_SHOWN_JS = (
    "(el) => {\n  const menu = ("
    + _SUBMENU_OF_JS
    + """)(el);
  if (!menu) return null;
  const box = menu.getBoundingClientRect();
  return box.width > 0 && box.height > 0 && menu.checkVisibility({ visibilityProperty: true });
}"""
)
# The first line of each item the open submenu shows, its own items only (not those of a submenu in it).
_SUBMENU_ITEMS_JS = (
    "(el) => {\n  const menu = ("
    + _SUBMENU_OF_JS
    + """)(el);
  if (!menu) return [];
  const own = (sel) => [...menu.querySelectorAll(sel)].filter((item) =>
    item.parentElement.closest('ul, ol, [role=menu], [role=group]') === menu && item.checkVisibility());
  const items = own('[role=menuitem]').length ? own('[role=menuitem]') : own('li');
  const names = items.map((item) => (item.innerText || '').trim().split('\\n')[0].trim()).filter(Boolean);
  return [...new Set(names)];
}"""
)
_ITEMS_SHOWN = 8
# Waits up to ``ms`` for the submenu to show; whether it did.
_WAIT_SHOWN_JS = (
    "async (el, ms) => {\n  const shown = "
    + _SUBMENU_SHOWN_JS
    + """;
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (shown(el)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !!shown(el);
}"""
)


def announces_submenu(node: ElementNode) -> bool:
    """Whether ``node`` is a menu item that says it opens a submenu (``aria-haspopup`` true or menu)."""
    popup = node.attributes.get("aria-haspopup", "").lower()
    return node.role == "menuitem" and popup in ("true", "menu")


async def open_submenu_by_pointing(handle: ElementHandle) -> bool:
    """Hover over a menu item whose submenu is shut; whether that opened it (False: the submenu was open
    already, none was found, or pointing did not open it; the caller then clicks as usual)."""
    try:
        if await handle.evaluate(_SUBMENU_SHOWN_JS) is not False:
            return False
        await handle.hover()
        return bool(await handle.evaluate(_WAIT_SHOWN_JS, _OPEN_WAIT_MS))
    except PlaywrightError:  # the item went away or cannot be pointed at: the click says what is wrong
        return False


async def submenu_items(handle: ElementHandle) -> list[str]:
    """The names of the items the open submenu of ``handle`` shows (the first ``_ITEMS_SHOWN``): told
    only "nothing chosen (a click on it now chooses it)", a small model clicked the item again, and chose
    it, where its task named an item of the submenu."""
    try:
        names: list[str] = await handle.evaluate(_SUBMENU_ITEMS_JS)
    except PlaywrightError:  # the menu went away: the next page view says what there is
        return []
    return names[:_ITEMS_SHOWN]


def opened_by_pointing(results: list[ActionResult]) -> list[int]:
    """The menu items whose submenu a click in ``results`` opened by pointing at them. A click on one, the
    step after, chooses the item itself, which a small model did (three of six development episodes)
    where its task named an item of the submenu: the agent's grammar leaves that click out for a step."""
    indices = []
    for result in results:
        said = result.extracted_content or ""
        number = said[len(POINTED_AT) :].split(" ", 1)[0] if said.startswith(POINTED_AT) else ""
        if number.isdigit():
            indices.append(int(number))
    return indices
