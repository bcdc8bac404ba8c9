"""Typing over a long text that the page wrote is held back once (once for each text), with what the
field holds.

Told to "find the last word in the text area and enter it into the text field", a small model typed the
word into the text area itself: ``input_text`` replaced the text it was to read with one word, and the
form was sent wrong. A field holding a long text that no action of this session typed (a letter to
answer, a passage to read, a description to edit) is not replaced on the first try: the action fails
saying what the field holds, and the page's one empty text field when there is one. The same action
again replaces it, since a user may well ask for that; another text is held once more: told to put the
word elsewhere, the 1.5B model typed that word over the text area (scroll-text seeds 52 and 57).
Typing with ``clear=false`` adds to the text and is never held.

Told to copy a text area's text into a field, the 1.5B model typed that text into the text area itself
(copy-paste seed 8): the page's own text typed back where it stands, short or long, is held once too, when
the page has one empty text field to name as the place for the copy.
"""

from __future__ import annotations

import contextlib
from weakref import WeakKeyDictionary

from playwright.async_api import ElementHandle

from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.controller.actions.refusals import fields_of, shows_value
from browser_agent.controller.context import ActionContext
from browser_agent.dom.snapshot import DomSnapshot, ElementNode
from browser_agent.dom.text_limits import NAME_CAP, cut_value
from browser_agent.errors import HeldBackError

__all__ = ["check_not_overwriting", "field_for_answer", "note_typed"]

LONG_TEXT = 100  # characters: a value this long that the session did not type is the page's text

# Per session, the fields (page address, element id) held back, with each text held back once over them,
# and those an action typed into.
_HELD: WeakKeyDictionary[object, set[tuple[str, str]]] = WeakKeyDictionary()
_HELD_TEXTS: WeakKeyDictionary[object, set[tuple[str, str, str]]] = WeakKeyDictionary()
_TYPED: WeakKeyDictionary[object, set[tuple[str, str]]] = WeakKeyDictionary()

_TEXT_JS = """(el) => (el.isContentEditable ? el.innerText
  : (el.tagName === 'TEXTAREA' || el.tagName === 'INPUT') ? String(el.value ?? '') : '')"""


def note_typed(owner: object, url: str, element_id: str) -> None:
    """Remember that an action typed into ``element_id`` on ``url``: what it holds is the session's own."""
    _TYPED.setdefault(owner, set()).add((url, element_id))


async def check_not_overwriting(
    index: int,
    label: str,
    node: ElementNode,
    handle: ElementHandle,
    snapshot: DomSnapshot,
    ctx: ActionContext,
    typed: str = "",
) -> None:
    """Fail, the first time only for each text ``typed``, when typing it with ``clear`` would replace a
    long text in the field ``node`` (element ``index``, named ``label``) that no action typed; the browser
    session keeps which fields were held back or typed into.

    Raises:
        ActionError: what the field holds, and that the same action again replaces it.
    """
    key, owner = (snapshot.url, node.element_id), ctx.session
    held = _HELD_TEXTS.setdefault(owner, set())
    if (*key, typed) in held or key in _TYPED.get(owner, set()):
        return
    if node.attributes.get("type", "").lower() == "password":
        return
    text = ""
    with contextlib.suppress(PlaywrightError):
        text = " ".join(str(await handle.evaluate(_TEXT_JS)).split())
    other = _other_empty_field(snapshot, node)
    if other is not None and (node.tag == "textarea" or len(text) > NAME_CAP) and _same(text, typed):
        held.add((*key, typed))
        raise HeldBackError(
            f"element {index} ({label}) holds this text already, written by the page: typing it there "
            f"changes nothing. To copy it, type it into element {other.index}, the page's empty text field; "
            f"to type into element {index} anyway, repeat this action."
        )
    if len(text) < LONG_TEXT:
        return
    _HELD.setdefault(owner, set()).add(key)
    held.add((*key, typed))
    shown = cut_value(ctx.redact(text), NAME_CAP)  # redacted before it is cut: no part of a secret is quoted
    meant = f"element {other.index}, the page's empty text field" if other else "the field meant for it"
    raise HeldBackError(
        f"element {index} ({label}) holds a text of {len(text)} characters that the page wrote "
        f"({shown!r}); typing with clear=true would replace all of it. If the task asks to read it, read it "
        f"on the page and type the answer into {meant}; to replace it anyway, repeat this action."
    )


def _same(held: str, typed: str) -> bool:
    """Whether ``typed`` is the text ``held`` again, spaces, letter case and a closing stop aside."""

    def flat(text: str) -> str:
        return " ".join(text.split()).rstrip(".").lower()

    return bool(typed.strip()) and flat(held) == flat(typed)


def field_for_answer(snapshot: DomSnapshot, node: ElementNode, owner: object) -> ElementNode | None:
    """The page's one empty text field other than ``node``, when ``node`` was held back here as the
    page's own text (the answer read from it goes elsewhere); None otherwise."""
    if (snapshot.url, node.element_id) not in _HELD.get(owner, set()):
        return None
    return _other_empty_field(snapshot, node)


def _other_empty_field(snapshot: DomSnapshot, node: ElementNode) -> ElementNode | None:
    """The one text field in view other than ``node`` that shows no value; None when there are several
    or none. Told "type the answer into the field meant for it", the 1.5B model typed the last word of a
    text area into the text area again (scroll-text seeds 52 and 57)."""
    others = (n for n in fields_of(snapshot) if n.element_id != node.element_id)
    empty = [n for n in others if not shows_value(n)]
    return empty[0] if len(empty) == 1 else None
