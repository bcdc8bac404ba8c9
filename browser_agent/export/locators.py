"""From a ``Fingerprint`` to the most robust Playwright locator it supports, written as Python source.

The order is Playwright's own advice: the element's role and accessible name, its label, its
placeholder, its test id, its text; a CSS selector only when none of those was recorded, and then the
line says so. An element inside frames is reached through ``frame_locator`` for each of them.

A name that runs on from an item's words into a price ("Blue Ceramic Mug $14.00 New", a product card) is
matched by the words, then a price and whatever follows it: the price and the badge vary from layout to
layout (a promotion), and a longer item's name ("Blue Ceramic Mug Set $38.00") does not match. An option
of a list a button opened (``role=option``) is matched by its role or, failing that, by its text: the
same list drawn with plain ``div`` options has no role.

Uniqueness is judged only from what the fingerprint recorded: when the page held look-alikes (``twins``)
and the element's own card had labels no other card showed (``group``), the locator is scoped to the
innermost container showing that label; when nothing told them apart, the line says so and the locator
stays strict, so that Playwright stops on it instead of acting on a look-alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from browser_agent.export.literals import py_string, regex_literal
from browser_agent.record import Fingerprint

__all__ = ["LocatorCode", "implicit_role", "locate", "py_string"]  # py_string: its old home

_NAME_CAP = 100  # fingerprints keep at most this many characters of a name
_INPUT_ROLES = {
    "": "textbox",
    "text": "textbox",
    "email": "textbox",
    "tel": "textbox",
    "url": "textbox",
    "search": "searchbox",
    "number": "spinbutton",
    "range": "slider",
    "checkbox": "checkbox",
    "radio": "radio",
    "button": "button",
    "submit": "button",
    "reset": "button",
    "image": "button",
}
_TAG_ROLES = {
    "button": "button",
    "textarea": "textbox",
    "select": "combobox",
    "option": "option",
    "img": "img",
    "summary": "group",
    **{f"h{level}": "heading" for level in range(1, 7)},
}
_FIELDS = frozenset({"input", "textarea", "select"})
_PLAIN_NAME = re.compile(r"[a-z_][a-z0-9_]*")
_CSS_ESCAPES = {"\\": "\\\\", '"': '\\"'}
_CSS_KEYS = ("id", "name", "data-test", "data-qa", "data-cy", "for", "href", "type")


@dataclass(frozen=True, slots=True)
class LocatorCode:
    """A Playwright locator as Python source, a chain of calls starting at ``page``.

    ``robust`` is False for a CSS selector (nothing better was recorded); ``note`` is the comment to
    put on the line that uses it ("" for none); ``frames`` how many ``frame_locator`` calls follow
    ``page`` (the root of every locator of that frame).
    """

    chain: tuple[str, ...]
    robust: bool = True
    note: str = ""
    frames: int = 0

    @property
    def expression(self) -> str:
        return "".join(self.chain)


def implicit_role(fingerprint: Fingerprint) -> str | None:
    """The ARIA role the element has (its ``role`` attribute, else the one its tag implies), or None."""
    if fingerprint.role and fingerprint.role.split():
        return fingerprint.role.split()[0]
    if fingerprint.tag == "a":
        return "link" if fingerprint.attribute("href") is not None else None
    if fingerprint.tag == "input":
        return _INPUT_ROLES.get((fingerprint.attribute("type") or "").lower())
    return _TAG_ROLES.get(fingerprint.tag)


def locate(
    fingerprint: Fingerprint, shown_name: str | None = None, *, named_by: tuple[str, str] | None = None
) -> LocatorCode:
    """The locator for the recorded element; ``shown_name`` is its name as the page wrote it, when known.

    ``named_by`` is ``(variable, recorded value)`` when an input's value names the element (a workflow's
    product link): the locator then matches that variable's words, ignoring case, whole when the
    recorded name was the whole value, else anywhere in the name; look-alikes are told apart by it.
    """
    root = _frame_chain(fingerprint.frame_path)
    if named_by is not None and not _PLAIN_NAME.fullmatch(named_by[0]):
        raise ValueError(f"named_by must name a variable of the script, not {named_by[0]!r}")
    if named_by is not None:
        named = _named_call(fingerprint, *named_by)
        if named is not None:
            either = _either_named_option(fingerprint, named, "".join(root), *named_by)
            why = f"the element whose name holds the value of {named_by[0]}, whatever it is set to"
            return LocatorCode((*root, named, *either), True, why, len(root) - 1)
    call, robust, note = _element_call(fingerprint, shown_name)
    calls = (call, *_either_option(fingerprint, call, "".join(root), shown_name))
    if fingerprint.twins and fingerprint.group:
        card = (
            *root,
            '.locator("*")',
            f".filter(has_text={py_string(fingerprint.group[0])})",
            f".filter(has={''.join(root)}{''.join(calls)})",
            ".last",
        )
        scoped = "inside the innermost part of the page showing its own card's label"
        why = f"the page showed {int(fingerprint.twins)} more like it: {scoped}"
        return LocatorCode((*card, *calls), robust, _join(note, why), len(root) - 1)
    if fingerprint.twins:
        why = (
            f"the page showed {int(fingerprint.twins)} more like it and nothing in their own parts told them "
            "apart: Playwright stops here rather than pick one"
        )
        return LocatorCode((*root, *calls), robust, _join(note, why), len(root) - 1)
    return LocatorCode((*root, *calls), robust, note, len(root) - 1)


def _join(*notes: str) -> str:
    return "; ".join(note for note in notes if note)


def _frame_chain(frame_path: tuple[str, ...]) -> tuple[str, ...]:
    """``page`` and one ``frame_locator`` per frame: an iframe's name (or id), else its document's path."""
    chain = ["page"]
    for frame in frame_path:
        if "://" in frame or frame.startswith(("about:", "data:")):
            path = frame.split("://", 1)[-1].partition("/")[2]
            tail = path.rstrip("/").rsplit("/", 1)[-1]
            selector = f'iframe[src*="{_css_value(tail)}"]' if tail else "iframe"
        else:
            value = _css_value(frame)
            selector = f'iframe[name="{value}"], iframe[id="{value}"]'
        chain.append(f".frame_locator({py_string(selector)})")
    return tuple(chain)


def _element_call(fingerprint: Fingerprint, shown: str | None) -> tuple[str, bool, str]:
    """The last call of the chain (``.get_by_role(...)``), whether it is robust, and its note."""
    name, tag = fingerprint.name, fingerprint.tag
    role = implicit_role(fingerprint)
    if tag == "select" and not fingerprint.role:
        return _select_call(fingerprint)
    priced = _priced_pattern(name)
    if role and name:
        named = f"name={priced}" if priced else _name_arg(name, shown)
        return f".get_by_role({py_string(role)}, {named})", True, ""
    placeholder = fingerprint.attribute("placeholder")
    if tag in _FIELDS and placeholder and " ".join(placeholder.lower().split()) == name:
        return f".get_by_placeholder({py_string(placeholder)}, exact=True)", True, ""
    if tag in _FIELDS and name:
        return f".get_by_label({_text_arg(name, shown)})", True, ""
    test_id = fingerprint.attribute("data-testid")
    if test_id:
        return f".get_by_test_id({py_string(test_id)})", True, ""
    text = fingerprint.text or name
    if text and tag not in _FIELDS:
        spelled = shown if shown and shown.lower() == text else None
        return f".get_by_text({_priced_pattern(text) or _text_arg(text, spelled)})", True, ""
    return _css_call(fingerprint)


def _named_call(fingerprint: Fingerprint, variable: str, value: str) -> str | None:
    """The last call finding the element by a variable's words; None when it has no role or label."""
    pattern = f"re.compile({_named_words(fingerprint.name, variable, value)}, re.IGNORECASE)"
    role = implicit_role(fingerprint)
    if role and fingerprint.name and fingerprint.tag != "select":
        return f".get_by_role({py_string(role)}, name={pattern})"
    if fingerprint.tag in _FIELDS and fingerprint.name:
        return f".get_by_label({pattern})"
    if fingerprint.tag not in _FIELDS and (fingerprint.text or fingerprint.name):
        # a plain option of a list a button opened: the visible one, not a text of the same words that
        # the page holds hidden or elsewhere (still strict: two visible ones stop the script)
        return f'.get_by_text({pattern}).locator("visible=true")'
    return None


def _named_words(name: str, variable: str, value: str) -> str:
    """The pattern matching a name that says the variable's words: the whole name when the recorded
    one was the value; the value first, then a price or a badge (a token that is no plain word: a
    card's "Blue Ceramic Mug $14.00 New") when the recorded name went on so, which a longer item's
    name ("Blue Ceramic Mug Set") does not match; else the words anywhere, as whole words."""
    words = " ".join(value.lower().split())
    if words == name:
        return f'"^" + re.escape({variable}) + "$"'
    rest = name[len(words) :] if name.startswith(words + " ") else ""
    if rest and not rest.split()[0][0].isalpha():
        return f'"^" + re.escape({variable}) + {regex_literal(_PRICED)}'
    return f"{regex_literal(_ALONE[0])} + re.escape({variable}) + {regex_literal(_ALONE[1])}"


_PRICED = r"(?:\s+[^\sA-Za-z].*)?$"
_CURRENCY = "$€£¥₹"
_PRICE = re.compile(
    rf"[{_CURRENCY}]\d[\d,]*(?:\.\d+)?|\d[\d,]*(?:[.,]\d\d|(?:\.\d+)?[{_CURRENCY}])"
)  # after the item's words: nothing, or a price and what follows it
_ALONE = (r"(?<!\w)", r"(?!\w)")


def _priced_pattern(name: str) -> str | None:
    """``re.compile(...)`` matching an item's words then a price and anything after it, when ``name``
    went on so ("blue ceramic mug $14.00 new"); None for any other name ("page 2" has no price)."""
    words = name.split()
    at = next((n for n, word in enumerate(words) if _PRICE.fullmatch(word)), None)
    if not at or any(not char.isalpha() for char in words[at - 1][-1:]):
        return None
    item = " ".join(words[:at])
    return f"re.compile({regex_literal('^' + _pattern(item) + _PRICED)}, re.IGNORECASE)"


def _is_custom_option(fingerprint: Fingerprint) -> bool:
    return implicit_role(fingerprint) == "option" and fingerprint.tag != "option"


def _either_option(fingerprint: Fingerprint, call: str, root: str, shown: str | None) -> tuple[str, ...]:
    """The call to add after ``call`` for a custom list's option (by its role, or by its text where the
    list is drawn without roles); none for other elements."""
    text = fingerprint.text or fingerprint.name
    if not _is_custom_option(fingerprint) or not text or not call.startswith('.get_by_role("option"'):
        return ()
    spelled = shown if shown and shown.lower() == text else None
    return (f'.or_({root}.get_by_text({_text_arg(text, spelled)}).locator("visible=true"))',)


def _either_named_option(
    fingerprint: Fingerprint, call: str, root: str, variable: str, value: str
) -> tuple[str, ...]:
    """``_either_option`` for an option found by a variable's words."""
    if not _is_custom_option(fingerprint) or not call.startswith('.get_by_role("option"'):
        return ()
    pattern = f"re.compile({_named_words(fingerprint.name, variable, value)}, re.IGNORECASE)"
    return (f'.or_({root}.get_by_text({pattern}).locator("visible=true"))',)


def _select_call(fingerprint: Fingerprint) -> tuple[str, bool, str]:
    """A native select: its recorded label ran on into its options' text, which its accessible name
    leaves out, so it is found by its form name or id when it has one, else by the label's first word."""
    for key in ("name", "id"):
        value = fingerprint.attribute(key)
        if value:
            selector = f'select[{key}="{_css_value(value)}"]'
            return f".locator({py_string(selector)})", True, ""
    words = fingerprint.name.split()
    if not words:
        return _css_call(fingerprint)
    pattern = py_string("^" + _pattern(words[0]) + r"\b")
    note = "the label is matched by its first word only: the recording ran it on into the options"
    return f'.get_by_role("combobox", name=re.compile({pattern}, re.IGNORECASE))', True, note


def _name_arg(name: str, shown: str | None) -> str:
    """``name="Add to cart", exact=True`` when the page's own spelling is known, else a pattern that
    ignores case (fingerprints keep names lower-cased), open-ended when the name was cut."""
    if shown is not None and len(name) < _NAME_CAP:
        return f"name={py_string(shown)}, exact=True"
    return f"name={_pattern_arg(name)}"


def _text_arg(text: str, shown: str | None) -> str:
    """The first argument of ``get_by_label``/``get_by_text``, written as ``_name_arg`` writes a name."""
    if shown is not None and len(text) < _NAME_CAP:
        return f"{py_string(shown)}, exact=True"
    return _pattern_arg(text)


def _pattern_arg(text: str) -> str:
    end = "" if len(text) >= _NAME_CAP else "$"
    return f"re.compile({py_string('^' + _pattern(text) + end)}, re.IGNORECASE)"


def _pattern(text: str) -> str:
    return re.escape(text).replace("\\ ", " ")


def _css_value(value: str) -> str:
    """``value`` inside a CSS string in double quotes: quotes and backslashes escaped, and the
    characters a CSS string cannot hold as they are (line ends, NUL, controls) as CSS escapes."""
    return "".join(
        _CSS_ESCAPES.get(char) or (char if char.isprintable() else f"\\{ord(char):x} ") for char in value
    )


def _css_call(fingerprint: Fingerprint) -> tuple[str, bool, str]:
    """The last resort: the tag with its stable attributes and classes."""
    selector = fingerprint.tag
    for key in _CSS_KEYS:
        value = fingerprint.attribute(key)
        if value:
            selector += f'[{key}="{_css_value(value)}"]'
    selector += "".join(f".{cls}" for cls in fingerprint.classes if re.fullmatch(r"[A-Za-z_][\w-]*", cls))
    note = (
        "no role, name, label, placeholder, test id or text was recorded for this element: "
        "a CSS selector, which a change of the page can break"
    )
    return f".locator({py_string(selector)})", False, note
