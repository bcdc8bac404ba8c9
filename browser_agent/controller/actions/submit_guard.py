"""A click that would send a form with fields left unset is held back once, with the fields named.

A small model clicked Submit first, before typing the answer or choosing the option its task named (the
answer field of a quiz, a list still at its first option), and a sent form cannot be taken back. The
first such click on a button is refused when a text field in the form is still empty, or when nothing in
it was set at all: lists still at the option the page chose, radio groups with nothing chosen. (A list
left at its default beside fields that were filled is usually meant, so it alone holds nothing back.) A
second click on the same button goes through, since a form may well be sent as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from weakref import WeakKeyDictionary

from playwright.async_api import ElementHandle

from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.controller.actions.field_values import one_date_written, written_date
from browser_agent.controller.actions.refusals import fields_of, named_as, said
from browser_agent.controller.actions.task_quotes import without_quotes
from browser_agent.controller.actions.untyped_text import recipient_for, to_type
from browser_agent.dom.handles import element_handle
from browser_agent.dom.snapshot import DomSnapshot, ElementNode
from browser_agent.errors import ElementNotFoundError, HeldForNowError

__all__ = ["check_no_open_suggestions", "check_not_sending_unset", "icon_sends", "may_send", "note_chosen"]

_SCOPE_LEVELS = 4  # without a <form>: how far above the button its fields are looked for
_SHOWN = 4

# The box a button that may send (``may_send``) sends: its form, else (for a button named as sending, one
# of ``SENDING``) the nearest of its ancestors (a few levels up) holding a field; null for anything else.
_SENDING = ("submit", "send", "log in", "login", "sign in", "sign up", "register", "search", "save")
# "OK" beside fields is how many boxes without a <form> are sent (a login box whose button says OK); a
# task that names the OK button asks for that button itself ("Click on the "ok" button" beside empty
# boxes), so then it does not count as sending.
_CONFIRMING = "ok"
_QUOTED = re.compile(r'"([^"]{1,80})"|“([^”]{1,80})”')
_ASKS_TO_TYPE = re.compile(r"(?<!press )\b(?:type|enter|fill|write)\b(?!\s+key)", re.IGNORECASE)
_SCOPE_JS = f"""(el, [SENDING, drawnAsSending]) => {{
  if (el.form) return el.form;
  // Without a form, only a button that says it sends: a page may put a text box beside any button.
  const words = (el.innerText || el.value || el.getAttribute('aria-label') || '').trim().toLowerCase();
  if (!drawnAsSending && !SENDING.includes(words)) return null;
  const fields = 'textarea, select, input:not([type]), input[type=text], input[type=password], '
    + 'input[type=email], input[type=search], input[type=tel], input[type=url], input[type=number], '
    + 'input[type=radio]';
  let box = el.parentElement;
  for (let up = 0; box && box !== document.body && up < {_SCOPE_LEVELS}; up++, box = box.parentElement) {{
    if (box.querySelector(fields)) return box;
  }}
  return null;
}}"""

# How a field inside the box stands: 'empty', 'default' (a list at the option the page chose), 'unchosen'
# (a radio group with no radio on) or 'set'; null when it is not the form's to send (hidden, disabled,
# outside the box, a radio after the first of its group, a read-only field that holds a value). An empty
# read-only field is one the page fills from a picker of its own (a date field whose calendar opens on a
# click): it is sent empty all the same (book-flight: the date never picked, Search pressed twice).
_UNSET_IN_JS = """(field, box) => {
  if (!box.contains(field) || field.disabled || !field.checkVisibility()) return null;
  if (field.readOnly) return (field.value ?? '').trim() === '' ? 'empty' : null;
  if (field.tagName === 'SELECT') {
    const options = [...field.options];
    if (field.multiple || options.length < 2) return null;
    const chosen = Math.max(0, options.findIndex((o) => o.defaultSelected));
    return field.selectedIndex === chosen ? 'default' : 'set';
  }
  if (field.type === 'radio') {
    const radios = [...box.querySelectorAll('input[type=radio]')];
    const group = field.name ? radios.filter((r) => r.name === field.name) : [field];
    if (group[0] !== field) return null;
    return group.some((r) => r.checked) ? 'set' : 'unchosen';
  }
  return (field.value ?? field.textContent ?? '').trim() === '' ? 'empty' : 'set';
}"""

_SAID = {"empty": "empty", "default": "not chosen yet", "unchosen": "not chosen yet"}

# Per session, the buttons (page address, element id) already held back once.
_HELD: WeakKeyDictionary[object, set[tuple[str, str]]] = WeakKeyDictionary()
# Per session, the buttons (page address, element id) held back once for an open suggestion list.
_HELD_SUGGESTING: WeakKeyDictionary[object, set[tuple[str, str]]] = WeakKeyDictionary()
# Per session, the lists (page address, element id) an action chose in: one chosen at the option the page
# had chosen already is set all the same (the task named that option).
_CHOSEN: WeakKeyDictionary[object, set[tuple[str, str]]] = WeakKeyDictionary()


def note_chosen(owner: object, url: str, element_id: str) -> None:
    """Remember that an action chose an option of the list ``element_id`` on ``url``: the guard no longer
    calls it "not chosen yet", even when the option is the one the page had chosen."""
    _CHOSEN.setdefault(owner, set()).add((url, element_id))


def may_send(node: ElementNode) -> bool:
    """Whether ``node`` is a button that can send a form: the guard asks the page about nothing else (a
    link's click costs no round trip). A box drawn as a button (``<div>Submit</div>``, ``role=button``)
    counts when its name says it sends; a link does not (it goes to a page)."""
    kind = node.attributes.get("type", "").lower()
    if node.tag == "button":
        return kind in ("", "submit")
    if node.tag == "input":
        return kind in ("submit", "image")
    if node.tag in ("a", "select", "textarea", "option", "label"):
        return False
    return " ".join((node.name or node.text).split()).lower() in _SENDING or icon_sends(node)


# Words of an icon's markup (``icon=send-reply``) that draw a sending control with no text of its own.
_SENDING_ICON_WORDS = frozenset({"send", "submit", "post"})


def icon_sends(node: ElementNode) -> bool:
    """Whether ``node`` is a control with no name whose icon says it sends (the paper plane of a reply
    box, ``<span class="send-reply">``): the 1.5B model clicked it over the reply's empty text."""
    if (node.name or node.text).strip() or not node.icon:
        return False
    return not _SENDING_ICON_WORDS.isdisjoint(node.icon_words)


async def check_not_sending_unset(
    index: int,
    node: ElementNode,
    handle: ElementHandle,
    snapshot: DomSnapshot,
    owner: object,
    redact: Callable[[str], str],
    task: str = "",
) -> None:
    """Fail, the first time only, when ``node`` submits a form with an empty text field, or with nothing
    set; ``owner`` (the browser session) keeps which buttons were held back. An OK button counts as
    sending unless ``task`` names it; a button that is all the task quotes is never held.

    Raises:
        ActionError: the unset fields, and that a second click sends the form anyway.
    """
    key = (snapshot.url, node.element_id)
    held = _HELD.setdefault(owner, set())
    if key in held or not may_send(node) or _asks_only_for(node, task):
        return
    named_ok = re.search(rf"\b{_CONFIRMING}\b", task, re.IGNORECASE) is not None
    sending = list(_SENDING) if named_ok else [*_SENDING, _CONFIRMING]
    box = (await handle.evaluate_handle(_SCOPE_JS, [sending, icon_sends(node)])).as_element()
    if box is None:
        return
    chosen = _CHOSEN.get(owner, set())
    fields = [
        (n, "set" if how == "default" and (snapshot.url, n.element_id) in chosen else how)
        for n, how in await _fields_in(snapshot, node, box)
    ]
    nothing_set = all(how != "set" for _, how in fields)
    unset = [
        (_radio_named(n, snapshot, task) if how == "unchosen" else n, how)
        for n, how in fields
        if how == "empty" or (nothing_set and how != "set")
    ]
    if not unset:
        return
    named = ", ".join(f"{said(n, redact, snapshot)} {_said(n, how)}" for n, how in unset[:_SHOWN])
    empty = [n for n, how in unset if how == "empty"]
    given = _given(empty, task, snapshot, await _values(snapshot))
    if given is not None and redact(given[1]) == given[1]:
        # held every time: offered "or click again to send it as it is", the 1.5B model sent the empty
        # reply whose text the task gave (email-inbox seed 10)
        if "readonly" in given[0].states and written_date(given[1]) is not None:
            # "read-only" alone read to the model as "cannot be typed into": it wrote so in its memory
            # and pressed Submit five times (choose-date seed 7, outside both halves)
            raise HeldForNowError(
                f"element {index} would send the form with {said(given[0], redact, snapshot)} empty; it is "
                f"read-only, yet input_text sets it (the day is picked in the page's calendar): send "
                f"input_text(index={given[0].index}, text={given[1]!r}) first (the task gives the date), "
                f"then click element {index}."
            )
        raise HeldForNowError(
            f"element {index} would send the form with fields not set yet: {named}; type {given[1]!r} into "
            f"element {given[0].index} first (the task gives it), then click element {index}."
        )
    held.add(key)
    # one empty field is named by its index: told "set them first", the 1.5B model typed the word it had
    # read into the text area it read it from again (scroll-text seeds 52 and 57)
    first = f"type into element {empty[0].index} first" if len(unset) == 1 and empty else "set them first"
    raise HeldForNowError(
        f"element {index} would send the form with fields not set yet: {named}; {first}, or click element "
        f"{index} again to send it as it is."
    )


def _said(field: ElementNode, how: str) -> str:
    """How an unset field stands, in words; a read-only one says how it is set (typed into, it is clicked
    and a date is picked in the calendar that opens: ``read_only.py``)."""
    if "readonly" in field.states:
        return f"{_SAID[how]} (read-only, set from a picker: input_text with the value picks it there)"
    return _SAID[how]


async def _values(snapshot: DomSnapshot) -> set[str]:
    """What the text fields of ``snapshot`` hold now, in lower case (typed in this very step too)."""
    values = set()
    for field in fields_of(snapshot):
        try:
            live = await element_handle(snapshot, field)
            value = await live.evaluate("(el) => String(el.value ?? '')")
        except (ElementNotFoundError, PlaywrightError):
            continue
        values.add(" ".join(value.split()).lower())
    return values


def _given(
    empty: list[ElementNode], task: str, snapshot: DomSnapshot, values: set[str]
) -> tuple[ElementNode, str] | None:
    """An ``empty`` text field and what ``task`` gives to type into it, where that is plain: whom the task
    forwards or sends to, for a field labelled "to:"; else, for the one empty field, the one date the
    task names when the field is read-only (set from a calendar), or the one text the task quotes to type
    that no field (``values``) holds yet. None otherwise: with two fields empty, or
    two texts untyped, which goes where is the model's to read. (Told "set them first" over the empty
    "to:" of a forwarded mail, the 1.5B model clicked send again, or gave up: email-inbox.)"""
    for field in empty:
        if whom := recipient_for(named_as(field, str, snapshot), task):
            return field, whom
    if len(empty) != 1:
        return None
    # a date field the page sets from its calendar: typed into, the day is picked there. Told "type into
    # element 0 first, or click element 1 again", the 1.5B model said it would use the date picker and
    # clicked Submit again (choose-date-medium seed 8, outside both halves). A date that another field
    # holds already is that field's: the read-only one is something else.
    day = one_date_written(task) if "readonly" in empty[0].states else None
    if day and all(written_date(value) != written_date(day) for value in values):
        return empty[0], day
    untyped = [text for text in to_type(task) if " ".join(text.split()).lower() not in values]
    return (empty[0], untyped[0]) if len(untyped) == 1 else None


def _radio_named(first: ElementNode, snapshot: DomSnapshot, task: str) -> ElementNode:
    """The radio of ``first``'s group whose label ``task`` names as a whole ("Select 3zMgf and click
    Submit"), when exactly one is; else ``first``: the hold then names the radio to choose (told that the
    group's first radio "z6wd5" was not chosen yet, the 1.5B model clicked Submit again)."""
    group = first.attributes.get("name", "")
    named = [
        n
        for n in snapshot.selector_map.values()
        if n.tag == "input"
        and n.attributes.get("type", "").lower() == "radio"
        and n.frame_id == first.frame_id
        and (n is first or (group and n.attributes.get("name", "") == group))
        and (label := (n.name or n.text).strip())
        and re.search(rf"(?<!\w){re.escape(label)}(?!\w)", task)
    ]
    return named[0] if len(named) == 1 else first


def _asks_only_for(node: ElementNode, task: str) -> bool:
    """Whether every text ``task`` quotes is the name of ``node`` ('Click on the "Submit" button.') and
    the task asks to type nothing: it asks for this click, so fields left empty are meant. ('Find the 3rd
    word, type that into the textbox and press "Submit".' quotes the button only, and the 1.5B model,
    told the word it had typed was not the 3rd, clicked Submit over the empty field in 9 of 19
    development episodes of find-word.)"""
    quoted = [" ".join(part.split()).lower() for found in _QUOTED.findall(task) for part in found if part]
    name = " ".join((node.text or node.name).split()).lower()
    if _ASKS_TO_TYPE.search(without_quotes(task)):
        return False
    return bool(quoted) and bool(name) and all(text == name for text in quoted)


def _candidates(snapshot: DomSnapshot) -> list[ElementNode]:
    """Text fields, native lists and radios: what a form sends that a click on it does not set."""
    lists = [n for n in snapshot.selector_map.values() if n.tag == "select" and not n.select_id]
    radios = [
        n
        for n in snapshot.selector_map.values()
        if n.tag == "input" and n.attributes.get("type", "").lower() == "radio"
    ]
    return sorted({id(n): n for n in [*fields_of(snapshot), *lists, *radios]}.values(), key=lambda n: n.index)


async def _fields_in(
    snapshot: DomSnapshot, button: ElementNode, scope: ElementHandle
) -> list[tuple[ElementNode, str]]:
    """The fields ``scope`` sends, each with how it stands (see ``_UNSET_IN_JS``)."""
    found: list[tuple[ElementNode, str]] = []
    for field in _candidates(snapshot):
        if field.frame_id != button.frame_id or field.role == "combobox":
            continue
        try:
            live = await element_handle(snapshot, field)
        except ElementNotFoundError:
            continue
        how = await live.evaluate(_UNSET_IN_JS, scope)
        if how in _SAID or how == "set":
            found.append((field, how))
    return found


_ITEM_ROLES = frozenset({"option", "menuitem"})


def _value_shown(field: ElementNode) -> str:
    """The field's value as the page view shows it (its ``value="..."`` state), or ""."""
    for state in field.states:
        if state.startswith('value="') and state.endswith('"'):
            return state[len('value="') : -1].strip()
    return ""


def check_no_open_suggestions(
    index: int, node: ElementNode, snapshot: DomSnapshot, owner: object, redact: Callable[[str], str]
) -> None:
    """Fail, the first time only, when ``node`` would send a field whose suggestion list is open with items
    that hold the typed text and none that is it ("Bela" typed, "Belarus" offered): the field then holds
    only what was typed. Items are options or menu items, or list items new on the page the model saw
    (jQuery UI's suggestions have no role). The 1.5B model typed the start of a country and pressed
    Submit, the suggestion unchosen (use-autocomplete).

    Raises:
        ActionError: the field, its suggestions, and that a second click sends it as typed.
    """
    key = (snapshot.url, node.element_id)
    held = _HELD_SUGGESTING.setdefault(owner, set())
    if key in held or not may_send(node):
        return
    items = [
        (n, (n.text or n.name).strip())
        for n in snapshot.selector_map.values()
        if n.frame_id == node.frame_id and (n.role in _ITEM_ROLES or (n.tag == "li" and n.is_new))
    ]
    for field in fields_of(snapshot):
        typed = _value_shown(field)
        if not typed or field.frame_id != node.frame_id:
            continue
        if any(text.lower() == typed.lower() for _, text in items):
            continue
        holding = [(n, text) for n, text in items if text and typed.lower() in text.lower()]
        if not holding:
            continue
        held.add(key)
        offered = ", ".join(f"[{n.index}] {redact(text)[:40]!r}" for n, text in holding[:_SHOWN])
        raise HeldForNowError(
            f"element {index} would send {said(field, redact, snapshot)} holding only {redact(typed)[:40]!r} "
            f"while its suggestion list is open: {offered}; click a suggestion to fill the field, or click "
            f"element {index} again to send it as typed."
        )
