"""Actions that cannot apply to their element fail at once, in one line: what the element is, which action
works on it, and which elements the action was meant for.

A small model typed ``Submit`` into the Submit button (the old fallback clicked it, then typed into
nothing: the form was sent empty), chose an option of a button, and switched to browser tab 1 three
times in a row on a page whose tabs were elements. What it is told names the elements it can use.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from playwright.async_api import ElementHandle

from browser_agent.dom.snapshot import DomSnapshot, ElementNode, TextNode
from browser_agent.errors import ActionError

__all__ = [
    "check_listable",
    "check_typeable",
    "fields_of",
    "label_of",
    "lists_of",
    "misfit_actions",
    "named_as",
    "page_tabs",
    "said",
]

_SHOWN = 4  # elements named in a refusal
_SHOWN_VALUE = re.compile(r":\s*\S")  # "Label: value": a line that shows a value, not a label
_NAME_CAP = 30

# What an element is, when typing cannot reach it; '' for what takes text, or may (a click that focuses
# a field inside, a custom editor), which is typed into as before.
_TYPING_KIND_JS = """(el) => {
  const tag = el.tagName.toLowerCase(), role = (el.getAttribute('role') || '').trim().split(' ')[0];
  if (el.isContentEditable || tag === 'textarea') return '';
  if (tag === 'input') {
    if (['button', 'submit', 'reset', 'image'].includes(el.type)) return 'button';
    return ['checkbox', 'radio'].includes(el.type) ? el.type : '';
  }
  if (['textbox', 'searchbox', 'combobox', 'spinbutton'].includes(role)) return '';
  if (tag === 'select') return 'select';
  const named = ['checkbox', 'radio', 'switch', 'tab', 'option', 'menuitem', 'link', 'button'];
  if (named.includes(role)) return role;
  if (tag === 'button') return 'button';
  return tag === 'a' && el.hasAttribute('href') ? 'link' : '';
}"""

# What an element is, when it is plainly no list ('' for anything that may open one).
_LIST_KIND_JS = """(el) => {
  const tag = el.tagName.toLowerCase(), role = (el.getAttribute('role') || '').trim().split(' ')[0];
  const popup = ['aria-haspopup', 'aria-expanded', 'aria-controls', 'aria-owns', 'list']
    .some((a) => el.hasAttribute(a));
  if (popup || tag === 'select' || ['combobox', 'listbox', 'menu', 'tree', 'grid'].includes(role)) return '';
  if (el.querySelector('select, [role=listbox], [role=option], [role=combobox]')) return '';
  if (tag === 'input') {
    if (['button', 'submit', 'reset', 'image'].includes(el.type)) return 'button';
    if (['checkbox', 'radio'].includes(el.type)) return el.type;
    return ['file', 'hidden'].includes(el.type) ? '' : 'field';
  }
  if (tag === 'textarea' || ['textbox', 'searchbox'].includes(role)) return 'field';
  if (['checkbox', 'radio', 'switch', 'tab', 'link', 'button'].includes(role)) return role;
  if (tag === 'button') return 'button';
  return tag === 'a' && el.hasAttribute('href') ? 'link' : '';
}"""

_PRESSED_INPUTS = frozenset({"submit", "button", "image"})
_BUTTON_TYPES = frozenset(
    {"button", "submit", "reset", "image", "checkbox", "radio", "file", "hidden", "range"}
)
_FIELD_ROLES = frozenset({"textbox", "searchbox", "combobox", "spinbutton"})
_LIST_ROLES = frozenset({"combobox", "listbox"})
_USE = {
    "button": "click it with click_element",
    "link": "click it with click_element",
    "checkbox": "click it with click_element",
    "radio": "click it with click_element",
    "switch": "click it with click_element",
    "tab": "click it with click_element",
    "option": "click it with click_element",
    "menuitem": "click it with click_element",
    "select": "choose with select_dropdown_option",
    "field": "type into it with input_text",
}


def label_of(node: ElementNode, redact: Callable[[str], str]) -> str:
    """The element's name, text or placeholder, redacted, then cut short."""
    name = redact((node.name or node.text or node.attributes.get("placeholder", "")).strip())
    return name if len(name) <= _NAME_CAP else name[: _NAME_CAP - 1] + "…"


def said(node: ElementNode, redact: Callable[[str], str], snapshot: DomSnapshot | None = None) -> str:
    """``[3] <input> "Name"``: an element as a refusal names it. One with no name of its own is named, when
    ``snapshot`` is given, by the short text just above it in the page view ("Password" over an unlabelled
    field): told "[1] <input> empty", the 1.5B model typed the user name again into the first field."""
    name = named_as(node, redact, snapshot)
    return f"[{node.index}] <{node.tag}>" + (f' "{name}"' if name else "")


def named_as(node: ElementNode, redact: Callable[[str], str], snapshot: DomSnapshot | None = None) -> str:
    """The name ``said`` gives ``node``: its own, else (``snapshot`` given) the short text just above it."""
    return label_of(node, redact) or (_text_above(node, snapshot, redact) if snapshot is not None else "")


def _text_above(node: ElementNode, snapshot: DomSnapshot, redact: Callable[[str], str]) -> str:
    """The text line right before ``node`` in the page view, when it is short enough to be a label. A table's
    cell is no label of a field out of the table: read-table's field under a table was named "Zamora",
    the last cell of its last row. Nor is a line that shows a value: email-inbox's reply box was named
    "subject: Re: Morbi." by the line above it, and the model typed the subject into it."""
    above = ""
    for item in snapshot.items:
        if isinstance(item, TextNode):
            labels = item.frame_id == node.frame_id and (item.cell is None or node.cell is not None)
            above = item.text if labels else ""
        elif item.element_id == node.element_id:
            text = redact(above.strip())
            if _SHOWN_VALUE.search(text):  # "subject: Re: Morbi." says a value, it names no field below
                return ""
            return text if 0 < len(text) <= _NAME_CAP else ""
        else:
            above = ""
    return ""


# Inputs that take no typed text (a range does: input_text sets it to the number typed).
_UNTYPED_INPUTS = _BUTTON_TYPES - {"range"}


def misfit_actions(snapshot: DomSnapshot | None) -> tuple[tuple[str, int], ...]:
    """The ``(action, index)`` pairs of ``snapshot`` that plainly cannot apply: ``input_text`` into a
    button, a link, a native list, a checkbox, radio or other input that is no field; choosing an option
    (``select_dropdown_option``, ``get_dropdown_options``) of a button, link, checkbox or radio that opens
    no popup. A ``json_schema`` grammar leaves them out, so a constrained model cannot type its answer
    into a link, or its Submit into the button (``check_typeable`` and ``check_listable`` refuse them at
    run time, for every other method). Only the tag counts: an element whose role alone says button or
    tab may be an editor or a list that says so wrongly."""
    if snapshot is None:
        return ()
    left_out: list[tuple[str, int]] = []
    for n in snapshot.selector_map.values():
        link = n.tag == "a" and "href" in n.attributes
        no_field = n.tag == "input" and n.attributes.get("type", "").lower() in _UNTYPED_INPUTS
        if n.tag in ("button", "select") or link or no_field:
            left_out.append(("input_text", n.index))
        opens = "aria-haspopup" in n.attributes or n.role in _LIST_ROLES
        if (n.tag == "button" or link or no_field) and not opens:
            left_out += [("select_dropdown_option", n.index), ("get_dropdown_options", n.index)]
    return tuple(left_out)


def _nearest(nodes: Iterable[ElementNode], index: int) -> list[ElementNode]:
    """The ``_SHOWN`` elements nearest to ``index`` in reading order, in that order."""
    near = sorted(nodes, key=lambda n: abs(n.index - index))[:_SHOWN]
    return sorted(near, key=lambda n: n.index)


_TEXT_INPUTS = frozenset({"", "text", "password", "email", "search", "tel", "url", "number"})


def is_text_field(node: ElementNode) -> bool:
    """Whether ``node`` takes free text: a textarea, a text-like input, or a textbox or searchbox role
    (a date, a range or a checkbox is no such field)."""
    kind = node.attributes.get("type", "").lower()
    return (
        node.tag == "textarea"
        or (node.tag == "input" and kind in _TEXT_INPUTS)
        or node.role in ("textbox", "searchbox")
    )


def shows_value(node: ElementNode) -> bool:
    """Whether the page view shows a value in ``node`` (a ``value="..."`` state that is not empty)."""
    return any(state.startswith('value="') and len(state) > len('value=""') for state in node.states)


def is_button(node: ElementNode) -> bool:
    """A button: ``<button>``, ``role=button``, or an input of type submit, button or image."""
    kind = node.attributes.get("type", "").lower()
    return node.tag == "button" or node.role == "button" or (node.tag == "input" and kind in _PRESSED_INPUTS)


def fields_of(snapshot: DomSnapshot) -> list[ElementNode]:
    """The elements of ``snapshot`` that take typed text."""
    return [
        n
        for n in snapshot.selector_map.values()
        if n.tag == "textarea"
        or (n.tag == "input" and n.attributes.get("type", "").lower() not in _BUTTON_TYPES)
        or (n.role in _FIELD_ROLES and n.tag != "select")
    ]


def lists_of(snapshot: DomSnapshot) -> list[ElementNode]:
    """The elements of ``snapshot`` that hold options: selects, wrapped selects, comboboxes, listboxes."""
    return [
        n
        for n in snapshot.selector_map.values()
        if n.tag == "select" or n.role in _LIST_ROLES or "aria-haspopup" in n.attributes
    ]


def page_tabs(snapshot: DomSnapshot) -> list[ElementNode]:
    """The page's own tabs (``role=tab``, or in a tab bar: ``ui-tabs-nav``, ``nav-tabs``, ``tabs``), one
    per name (jQuery UI indexes the tab and the link inside it)."""
    found: dict[str, ElementNode] = {}
    for n in snapshot.selector_map.values():
        classes = n.attributes.get("class", "").split()
        tab = n.role == "tab" or any(c in ("ui-tabs-anchor", "ui-tabs-tab", "tablinks") for c in classes)
        in_bar = n.tag in ("a", "button", "li") and any(
            f".{bar}" in a for a in n.ancestors[:2] for bar in ("ui-tabs-nav", "nav-tabs", "tabs")
        )
        if tab or in_bar:
            found.setdefault((n.name or n.text).strip(), n)
    return list(found.values())


def _kind_words(kind: str, node: ElementNode, redact: Callable[[str], str]) -> str:
    """``a <button> "Submit"``, ``a checkbox "Remember me"``: what the element is."""
    shown = said(node, redact).split("] ", 1)[1]
    if kind in ("button", "link") or kind == node.tag:
        return f"a {shown}"
    return f"a {kind} {shown}"


async def check_typeable(
    index: int, node: ElementNode, handle: ElementHandle, snapshot: DomSnapshot, redact: Callable[[str], str]
) -> None:
    """Fail when ``node`` cannot take typed text (a button, a link, a checkbox, a select...).

    Raises:
        ActionError: what it is, which action works on it, and the fields of the page.
    """
    kind = "select" if node.select_id else str(await handle.evaluate(_TYPING_KIND_JS))
    if not kind:
        return
    where = _others(
        fields_of(snapshot),
        index,
        redact,
        "input_text types into fields: ",
        "no field to type into",
        snapshot,
    )
    raise ActionError(f"element {index} is {_kind_words(kind, node, redact)}: {_USE[kind]}; {where}.")


def _others(
    nodes: Sequence[ElementNode],
    index: int,
    redact: Callable[[str], str],
    lead: str,
    none: str,
    snapshot: DomSnapshot | None = None,
) -> str:
    """The elements of ``nodes`` nearest ``index`` (not itself) after ``lead``, or that there are none."""
    others = [n for n in nodes if n.index != index]
    if not others:
        return f"this page shows {none}"
    return lead + ", ".join(said(n, redact, snapshot) for n in _nearest(others, index))


async def check_listable(
    index: int, node: ElementNode, handle: ElementHandle, snapshot: DomSnapshot, redact: Callable[[str], str]
) -> None:
    """Fail when ``node`` is plainly no list (a text field, a button with no pop-up, a checkbox...).

    Raises:
        ActionError: what it is, which action works on it, and the lists of the page.
    """
    if node.select_id or node.tag == "select":
        return
    kind = str(await handle.evaluate(_LIST_KIND_JS))
    if not kind:
        return
    where = _others(lists_of(snapshot), index, redact, "lists here: ", "no list", snapshot)
    what = "a text field" if kind == "field" else _kind_words(kind, node, redact)
    raise ActionError(f"element {index} is {what}, not a list: {_USE[kind]}; {where}.")
