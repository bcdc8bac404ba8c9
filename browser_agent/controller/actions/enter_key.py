"""Enter pressed in a text field that no form holds, when nothing on the page changed: said so.

A mail client's "to" field, a chat box or a reply box outside any ``<form>`` is sent by its own button;
Enter there does nothing unless the page listens for it. Told only "Pressed Enter", a small model took the
mail for forwarded and called the task done (MiniWoB++'s email-inbox). When the focus was in such a field
and neither the page's address, its markup nor the field's value changed, the result says that nothing
was sent, and which element holds what was typed.
"""

from __future__ import annotations

import contextlib
import re

from playwright.async_api import Page

from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.dom.snapshot import DomSnapshot, ElementNode

__all__ = ["EnterWatch", "named_keys"]

# keys sent as the characters they type
_CONTROL_KEYS = (("\r\n", "Enter"), ("\r", "Enter"), ("\n", "Enter"), ("\t", "Tab"), ("\x1b", "Escape"))
_SENDING = re.compile(r"\b(?:send|submit|post|reply)\b")

# The focused text field outside any form: its in-page id ('' if no capture saw it) and a fingerprint of
# the page around it; null when the focus is elsewhere (a form's field: Enter submits it natively).
_FIELD_JS = """() => {
  const el = document.activeElement;
  if (!el || el.tagName !== 'INPUT' || el.form) return null;
  const text = ['text', 'email', 'search', 'tel', 'url', 'number', 'password'];
  if (!text.includes(el.type)) return null;
  const reg = window.__browserAgent;
  const id = reg ? reg.ids.get(el) || '' : '';
  return [id, location.href + '|' + document.documentElement.outerHTML.length + '|'
    + document.getElementsByTagName('*').length + '|' + el.value + '|' + (document.activeElement === el)];
}"""
_AGAIN_JS = """(id) => {
  const el = document.activeElement;
  const reg = window.__browserAgent;
  const now = el && reg && reg.ids.get(el) === id ? el : (reg ? reg.get(id) : null);
  if (!now) return '';
  return location.href + '|' + document.documentElement.outerHTML.length + '|'
    + document.getElementsByTagName('*').length + '|' + now.value + '|' + (document.activeElement === now);
}"""


class EnterWatch:
    """Before Enter: the focused field outside a form; after it, whether anything changed."""

    def __init__(self, page: Page) -> None:
        self._page = page
        self._field: tuple[str, str] | None = None

    async def before(self, keys: str) -> None:
        if keys.strip().lower() != "enter":
            return
        with contextlib.suppress(PlaywrightError):
            found = await self._page.main_frame.evaluate(_FIELD_JS)
            if found and found[0]:
                self._field = (str(found[0]), str(found[1]))

    async def note(self, seen: DomSnapshot | None) -> str:
        """``; nothing on the page changed ...`` when Enter in the field left the page as it was;
        ``seen`` (the page the model chose from, if any) gives the indices it names."""
        if self._field is None:
            return ""
        element_id, before = self._field
        after = None
        with contextlib.suppress(PlaywrightError):  # navigated away or closed: something changed
            after = await self._page.main_frame.evaluate(_AGAIN_JS, element_id)
        if after != before:
            return ""
        elements = seen.selector_map if seen is not None else {}
        index = next((i for i, node in elements.items() if node.element_id == element_id), None)
        field = f"element {index}" if index is not None else "the field"
        sender = next((i for i, node in elements.items() if _sends(node)), None)
        button = f"; element {sender} reads like one" if sender is not None else ""
        return (
            f"; nothing on the page changed: {field} is in no form that Enter sends, so nothing was sent. "
            f"Click the button that sends what it holds{button}"
        )


def named_keys(keys: str) -> str:
    """Keys sent as the characters they type ("\\r", "\\n", "\\t") by their names: the 1.5B model sent "\\r"
    for Enter, which was pressed, and its result read "Pressed \\r", with no word on whether it sent
    anything (the check below looks for Enter by its name)."""
    named = keys
    for char, name in _CONTROL_KEYS:
        named = named.replace(char, f" {name} ")
    return " ".join(named.split()) or keys


def _sends(node: ElementNode) -> bool:
    """Whether the element says it sends: its text, name or icon has a word such as Send or Submit."""
    said = " ".join((node.text, node.name, node.icon or "", node.attributes.get("value", ""))).lower()
    return bool(_SENDING.search(said))
