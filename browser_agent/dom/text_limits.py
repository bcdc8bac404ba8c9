"""How long the texts of a capture may be, and the cut that keeps them so.

The walk (``extract.js``) cuts each text as it reads it. When the caller has secrets it asks for the
texts uncut instead and passes a redactor: each text is then redacted whole and cut here, the way the
walk would have cut it. A cut first would leave part of a value in the text, no longer recognisable as
the secret; a redacted text can be cut anywhere without leaking one. The walk still decides everything
else (which texts merge, when the text budget runs out) on the lengths after its cut, so a capture with a
redactor reads like one without, secrets aside.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from browser_agent.dom.wire import WireItem

__all__ = [
    "ATTRIBUTE_CAP",
    "ELLIPSIS",
    "NAME_CAP",
    "OPTION_CAP",
    "VALUE_TAIL",
    "Recut",
    "cut",
    "cut_value",
    "unmarked",
]

NAME_CAP = 60  # an element's name, its own text, a field's value
OPTION_CAP = 40  # one option of a select
ATTRIBUTE_CAP = 120  # a kept attribute (href, title, placeholder...), cut without a mark
VALUE_TAIL = 20  # a field's value cut to NAME_CAP keeps this many characters of its end
ELLIPSIS = "…"  # ends a cut text (``extract.js`` writes the same)
_VALUE_STATE = re.compile(r'value="(.*)"', re.DOTALL)
_SELECTED = "✓"


def unmarked(text: str) -> str:
    """A text the model copied from the view, without the view's own marks: the ``✓`` before the
    chosen option of a list, the ``…`` that ends a cut text. The 1.5B model sent "✓Heard Island and
    McDonald Islands" to choose in a list, three times, and no option reads that."""
    text = text.strip()
    text = text.removeprefix(_SELECTED).lstrip()
    return text.removesuffix(ELLIPSIS).rstrip()


def cut(text: str, cap: int) -> str:
    """``text`` in at most ``cap`` characters, the last one an ellipsis when it was cut."""
    return text if len(text) <= cap else text[: cap - 1] + ELLIPSIS


def cut_value(text: str, cap: int) -> str:
    """A field's value in at most ``cap`` characters: its beginning, a spaced ellipsis, and about its
    last ``VALUE_TAIL`` characters (where typing goes on; the last word of a text area), whole words on
    both sides of the cut. Cut inside words, "…fringilla tortor…rna. Mauris viverra." made a small
    model take "tortor" for the last word of the text area."""
    if len(text) <= cap:
        return text
    head, start = text[: cap - VALUE_TAIL - 3], len(text) - VALUE_TAIL
    if text[len(head)] != " ":  # the head ends inside a word: end it at the word before
        space = head.rfind(" ")
        if space > len(head) / 2:
            head = head[:space]
    if text[start - 1] != " ":  # the tail starts inside a word: start it at the next one
        space = text.find(" ", start)
        if space != -1 and space < len(text) - 1:
            start = space + 1
    return f"{head.rstrip()} {ELLIPSIS} {text[start:].lstrip()}"


@dataclass(frozen=True, slots=True)
class Recut:
    """Redacts the uncut texts of one capture's items, then cuts them as the walk would have."""

    redact: Callable[[str], str]

    def text(self, raw: str, cap: int, cutter: Callable[[str, int], str] = cut) -> str:
        """``raw`` redacted, then cut to ``cap`` by ``cutter`` if ``raw`` is longer (a redacted text that
        only grew past ``cap`` by its placeholders is kept whole)."""
        shown = self.redact(raw)
        return cutter(shown, cap) if len(raw) > cap else shown

    def item(self, item: WireItem) -> WireItem:
        """One item of the walk's JSON with its texts redacted and cut (a new record)."""
        if item["kind"] == "text":
            text_run = item.copy()
            text_run["text"] = self.text(item["text"], item.get("cut_length") or len(item["text"]))
            return text_run
        if item["kind"] != "element":
            return item
        element = item.copy()
        element["name"] = self.text(item["name"] or "", NAME_CAP)
        element["text"] = self.text(item["text"] or "", NAME_CAP)
        element["attributes"] = {
            str(k): self._attribute(str(k), str(v)) for k, v in item["attributes"].items()
        }
        element["states"] = [self._state(str(s)) for s in item["states"] or ()]
        if "options" in item:
            element["options"] = [self._option(str(o)) for o in item["options"]]
        return element

    def _attribute(self, key: str, value: str) -> str:
        if key == "value":  # a button's value, cut as a name is
            return self.text(value, NAME_CAP)
        shown = self.redact(value)
        return shown[:ATTRIBUTE_CAP] if len(value) > ATTRIBUTE_CAP else shown

    def _state(self, state: str) -> str:
        value = _VALUE_STATE.fullmatch(state)
        if value is None:
            return self.redact(state)
        return f'value="{self.text(value.group(1), NAME_CAP, cut_value)}"'

    def _option(self, option: str) -> str:
        mark = _SELECTED if option.startswith(_SELECTED) else ""
        return mark + self.text(option[len(mark) :], OPTION_CAP)
