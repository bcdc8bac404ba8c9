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

from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.dom.snapshot import ElementNode

__all__ = ["announces_submenu", "open_submenu_by_pointing"]

_OPEN_WAIT_MS = 1_000  # jQuery UI opens a submenu 300 ms after the pointer comes

# The item's submenu: the element it controls, else the list right after it, else one inside it or
# beside it in its parent; whether it shows (null: none found).
_SUBMENU_SHOWN_JS = """(el) => {
  const doc = el.ownerDocument, list = 'ul, ol, [role=menu], [role=group]';
  const controlled = el.getAttribute('aria-controls');
  let menu = controlled ? doc.getElementById(controlled) : null;
  const next = el.nextElementSibling;
  if (!menu && next && next.matches(list)) menu = next;
  if (!menu) menu = el.querySelector(list);
  if (!menu && el.parentElement) menu = el.parentElement.querySelector(':scope > ul, :scope > [role=menu]');
  if (!menu) return null;
  const box = menu.getBoundingClientRect();
  return box.width > 0 && box.height > 0 && menu.checkVisibility({ visibilityProperty: true });
}"""
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
