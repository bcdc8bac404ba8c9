"""Which element another value names, when the recorded one's name held more than the value.

A product card's link is named by the whole card ("blue ceramic mug $14.00 new"): the workflow's input
is only the product's words, and the rest (a price, a badge) varies from item to item. Swapping the
words and keeping the rest finds only an item that costs the same; so the rest is learned from the page
instead: among the elements of the recorded one's kind (tag and role), those that say the new words as
whole words, with nothing else around them but what varies with the item — texts holding a digit or a
sign (``$64.00``, ``-20%``), words the recorded name had beside its value, and words that two or more of
the other elements of that kind show at their start or end (badges: ``new``, ``sale``); and when the
recorded name went on with a price after the value, whatever follows a price. So the exact
name wins over a longer one ("mug" is not "mug set": ``set`` is one item's word, not a badge). More than
one such element, or none: the recorded fingerprint is kept with the new words, and re-identification
abstains.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace

from browser_agent.dom.snapshot import DomSnapshot, ElementNode
from browser_agent.reid import Fingerprint
from browser_agent.reid.labels import norm

__all__ = ["ItemChoice", "rest_of", "words_of"]

_WORD = re.compile(r"\S+")


def words_of(text: str) -> list[str]:
    return _WORD.findall(norm(text))


def split_at(name: str, value: str) -> tuple[list[str], list[str]] | None:
    """The words of ``name`` before and after ``value`` (whole words), or None when it is not in it."""
    words, wanted = words_of(name), words_of(value)
    for at in range(len(words) - len(wanted) + 1):
        if wanted and words[at : at + len(wanted)] == wanted:
            return words[:at], words[at + len(wanted) :]
    return None


def rest_of(name: str, value: str) -> list[str] | None:
    """The words of ``name`` beside ``value`` (whole words), or None when ``value`` is not in it."""
    split = split_at(name, value)
    return None if split is None else split[0] + split[1]


@dataclass(frozen=True, slots=True)
class ItemChoice:
    """A step whose element another value names: the recorded name, and the value it had and has now."""

    recorded_name: str
    old: str
    new: str

    def pick(self, target: Fingerprint, snapshot: DomSnapshot) -> Fingerprint:
        """``target`` named as the one element of its kind on the page that says ``new`` and only what
        varies with the item; ``target`` unchanged when there is not exactly one."""
        kind = [
            node
            for node in snapshot.items
            if isinstance(node, ElementNode) and node.tag.lower() == target.tag and node.role == target.role
        ]
        names = [norm(node.name or node.text) for node in kind]
        varying = _varying(names, rest_of(self.recorded_name, self.old) or [])
        recorded = split_at(self.recorded_name, self.old)
        priced = recorded is not None and _priced(recorded[1])
        chosen = {name for name in names if _fits(name, self.new, varying, priced=priced)}
        if len(chosen) != 1:
            return target
        name = chosen.pop()
        return replace(target, name=name, text=name if target.text else "")


def _varying(names: Iterable[str], recorded_rest: list[str]) -> frozenset[str]:
    """Words that vary with the item: those beside the recorded value, and those two names or more show
    at their start or end, where a card puts its badge (an item's own words sit inside its name)."""
    edges = [words_of(name) for name in names]
    seen = Counter(word for words in edges if words for word in {words[0], words[-1]})
    return frozenset(recorded_rest) | frozenset(word for word, count in seen.items() if count >= 2)


def _varies(word: str, varying: frozenset[str]) -> bool:
    return word in varying or any(not char.isalpha() for char in word)


def _priced(after: list[str]) -> bool:
    """Whether the words after an item's name begin with a price (a token that is no plain word)."""
    return bool(after) and not after[0][0].isalpha()


def _fits(name: str, value: str, varying: frozenset[str], *, priced: bool) -> bool:
    """Whether ``name`` says ``value`` with only what varies with the item around it. When the recorded
    name went on with a price after the value, whatever follows the price is the card's (a badge)."""
    split = split_at(name, value)
    if split is None:
        return False
    before, after = split
    if priced and _priced(after):
        after = []
    return all(_varies(word, varying) for word in before + after)
