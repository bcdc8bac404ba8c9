"""A click that would close a box whose text field is still empty is held back once, when the task gives
something to type.

The 1.5B model opened the reply to a mail ("reply to them with the text "Gravida.""), the page showed the
reply box (``*[0]<span icon=close-reply>×</span> *[1]<span icon=send-reply> *[2]<textarea>``), and the
model clicked element 0, the box's ×, before typing: the box it had just opened was gone, and so was
the run (four of the fourteen development episodes of email-inbox it lost). The first click on a control
drawn as closing (a × glyph, or a name or icon saying close, discard or dismiss) is refused when the box
it closes holds an empty text field and the task gives a text to type or asks to reply, forward or
write; the refusal names the field. A task that asks to close, dismiss or cancel is not checked, and the
same click again closes the box.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from weakref import WeakKeyDictionary

from playwright.async_api import ElementHandle

from browser_agent.controller.actions.refusals import fields_of, said
from browser_agent.dom.handles import element_handle
from browser_agent.dom.serializer import CLOSE_ICONS
from browser_agent.dom.snapshot import DomSnapshot, ElementNode
from browser_agent.errors import ElementNotFoundError, HeldBackError

__all__ = ["check_not_closing_unfilled", "closes"]

_LEVELS = 4  # how far above the control the box it closes is looked for
_SHOWN = 3
_CLOSING_WORDS = frozenset({"close", "discard", "dismiss"})
_CLOSING_GLYPHS = frozenset({"×", "✕", "✖", "╳", "x"})
# A task that gives text for a field: a quoted text, or a verb of typing or of writing a message.
_GIVES_TEXT = re.compile(
    r'"[^"]+"|“[^”]+”|\b(?:type|enter|fill|write|reply|forward|compose|comment)\b', re.IGNORECASE
)
_ASKS_TO_CLOSE = re.compile(r"\b(?:close|dismiss|discard|cancel|exit|x)\b", re.IGNORECASE)

# The nearest box above the control (a few levels up) that holds a text field, or null.
_BOX_JS = f"""(el) => {{
  const fields = 'textarea, input:not([type]), input[type=text], input[type=email], input[type=search], '
    + 'input[type=tel], input[type=url], [contenteditable=""], [contenteditable=true]';
  let box = el.parentElement;
  for (let up = 0; box && box !== document.body && up < {_LEVELS}; up++, box = box.parentElement) {{
    if (box.querySelector(fields)) return box;
  }}
  return null;
}}"""
_EMPTY_IN_JS = """(field, box) => box.contains(field) && !field.disabled && !field.readOnly
  && field.checkVisibility()
  && (field.isContentEditable ? field.textContent : field.value ?? '').trim() === ''"""

# Per session, the controls (page address, element id) held back once.
_HELD: WeakKeyDictionary[object, set[tuple[str, str]]] = WeakKeyDictionary()


def closes(node: ElementNode) -> bool:
    """Whether ``node`` is drawn as closing something: a × glyph, a name of close, discard or dismiss, or
    an icon the page view draws as × (``dom/serializer.py``) or names discard. A "Cancel" button is not:
    it answers a question as often as it closes a box."""
    label = " ".join((node.name or node.text).split()).lower()
    if label in _CLOSING_GLYPHS or label in _CLOSING_WORDS:
        return True
    return not label and not (_CLOSING_WORDS | CLOSE_ICONS).isdisjoint(node.icon_words)


async def check_not_closing_unfilled(
    index: int,
    node: ElementNode,
    handle: ElementHandle,
    snapshot: DomSnapshot,
    task: str,
    owner: object,
    redact: Callable[[str], str],
) -> None:
    """Fail, the first time only, when ``node`` (element ``index``, a control that ``closes``) would close
    a box holding an empty text field while ``task`` gives something to type; ``owner`` (the browser
    session) keeps which controls were held back.

    Raises:
        HeldBackError: the empty fields, and that a second click closes the box anyway.
    """
    key = (snapshot.url, node.element_id)
    held = _HELD.setdefault(owner, set())
    if key in held or not _GIVES_TEXT.search(task) or _ASKS_TO_CLOSE.search(task):
        return
    box = (await handle.evaluate_handle(_BOX_JS)).as_element()
    if box is None:
        return
    empty = [field for field in fields_of(snapshot) if await _empty_in(snapshot, field, node, box)]
    if not empty:
        return
    held.add(key)
    named = ", ".join(said(field, redact, snapshot) for field in empty[:_SHOWN])
    first = empty[0].index
    raise HeldBackError(
        f"element {index} would close the box holding {named}, still empty: type what the task gives into "
        f"it first (input_text with index {first}), or click element {index} again to close the box."
    )


async def _empty_in(
    snapshot: DomSnapshot, field: ElementNode, control: ElementNode, box: ElementHandle
) -> bool:
    """Whether ``field``, in the frame of ``control``, is an empty text field of ``box``."""
    if field.frame_id != control.frame_id:
        return False
    try:
        live = await element_handle(snapshot, field)
    except ElementNotFoundError:
        return False
    return bool(await live.evaluate(_EMPTY_IN_JS, box))
