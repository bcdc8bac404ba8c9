"""What to call an input: ``email`` for an email address, ``query`` for a search box, ``url`` for an
address, else the words of the field it goes into (its label, placeholder or name), made an identifier."""

from __future__ import annotations

import re

from browser_agent.browser.addresses import split_address
from browser_agent.reid import Fingerprint

__all__ = [
    "choice_control",
    "element_input_name",
    "field_input_name",
    "field_label",
    "identifier",
    "is_email",
    "is_search_box",
]

_EMAIL = re.compile(r"^[^@\s<>]+@[^@\s<>]+\.[A-Za-z]{2,}$")
_SEARCH_NAMES = frozenset({"q", "query", "search", "s", "keywords", "search_query"})
_WORDS = 3  # a long label keeps its first words: "email address you use at work" -> email_address_you
_ROLE_WORDS = {"a": "link", "link": "link", "button": "button", "option": "option", "tab": "tab"}


def identifier(text: str, fallback: str = "text") -> str:
    """``text`` as an input name: lower case words joined by ``_``, at most three, starting with a letter."""
    words = re.findall(r"[a-z0-9]+", text.lower())[:_WORDS]
    name = "_".join(words)[:40].strip("_")
    if not name:
        return fallback
    return name if name[0].isalpha() else f"{fallback}_{name}"[:40]


def is_email(value: str) -> bool:
    return bool(_EMAIL.match(value.strip()))


def is_search_box(field: Fingerprint | None) -> bool:
    """A search field: ``type=search``, the search box role, a search-like name, or a label saying so."""
    if field is None:
        return False
    kind = (field.attribute("type") or "").lower()
    name = (field.attribute("name") or "").lower()
    return kind == "search" or field.role == "searchbox" or name in _SEARCH_NAMES or "search" in field.name


def field_input_name(field: Fingerprint | None, value: str) -> str:
    """The name of a value typed or selected into ``field``."""
    if is_email(value):
        return "email"
    if is_search_box(field):
        return "query"
    words = field_label(field)
    return identifier(words) if words else "text"


def field_label(field: Fingerprint | None) -> str:
    """The words that name a field: its label, else its placeholder, aria-label or name ("" if none)."""
    if field is None:
        return ""
    label = field.name
    if field.tag == "select":  # a list's accessible name runs on into its options' texts
        label = field.attribute("name") or (field.before[0] if field.before else "") or label
    names = (label, field.attribute("placeholder"), field.attribute("aria-label"), field.attribute("name"))
    return next((words for words in names if words and identifier(words, "")), "")


def element_input_name(target: Fingerprint) -> str:
    """The name of an input that chooses an element by what it says: the kind of thing its address
    lists (``/product/blue-mug`` -> ``product``), else what the element is (``link``, ``button``)."""
    href = target.attribute("href")
    if href:
        split = split_address(href)
        parts = [part for part in split.path.split("/") if part] if split is not None else []
        if len(parts) >= 2 and re.fullmatch(r"[A-Za-z][A-Za-z_-]{1,30}", parts[-2]):
            return identifier(parts[-2])
    return _ROLE_WORDS.get(target.role or target.tag, "choice")


_CHOICE_ROLES = frozenset({"option", "radio", "checkbox", "menuitemradio", "menuitemcheckbox", "switch"})
_PLAIN_TAGS = frozenset({"div", "li", "span", "p", "label"})
_OPENERS = frozenset({"button", "combobox"})


def choice_control(target: Fingerprint, opener: Fingerprint | None) -> str | None:
    """The words naming the control ``target`` is one option of, or None when it is no option.

    An option is a radio or checkbox (its group's form name), an ARIA option, or a plain item clicked
    right after a combobox, or a button showing its current choice, opened its list (``Quantity: 1``
    names the control ``Quantity``).
    """
    kind = (target.attribute("type") or "").lower()
    if target.tag == "input" and kind in ("radio", "checkbox"):
        return target.attribute("name") or kind
    role = (target.role or "").split()[0] if target.role else ""
    # a button that shows its current choice ("Quantity: 1"), or a combobox: not any button (a "Load
    # more" followed by a click on a card is no choice)
    opened = (
        opener is not None
        and bool(opener.name)
        and (opener.role == "combobox" or ((opener.role or opener.tag) in _OPENERS and ":" in opener.name))
    )
    if role in _CHOICE_ROLES or (opened and target.tag in _PLAIN_TAGS and not role):
        if opener is not None and opened:
            return opener.name.split(":")[0].strip() or None
        return role or None
    return None
