"""A click outside the card the task names, while exactly one card in view shows a name the task gives, is
held back once, naming that card and its elements.

Asked to "find the email by Audrey and forward that email to Hedy", the 1.5B model clicked the inbox's
search icon (``[1]<span icon=open-search>``), just above Audrey's mail, first: in 5 of the 13 email-inbox
losses of development seeds 0-29, and typed the task's text into the search box that opened. The card
guard (``card_guard.py``) only sees a click on a control repeated on the cards (a star, a trash icon);
this one sees a click on no card at all (a header's icon, the list's scroll panel), or on another card's
own element (a mail's summary, a ticket's title): after the list was scrolled to "Ella", the model
clicked the index it had used before, by then another mail's (seed 5). A control the task names itself
("search for ...") is let through, and so is the same click again (searching is a way to find a mail
too). With no card in view showing the name, and the list going on below, the list is scrolled to it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from weakref import WeakKeyDictionary

from browser_agent.controller.actions.card_guard import NameBelow, more_below, task_names
from browser_agent.dom.cards import cards_in_view, cut_label, look_alike_cards
from browser_agent.dom.snapshot import DomSnapshot, ElementNode, TextNode
from browser_agent.errors import HeldBackError

__all__ = ["check_outside_cards"]

_WORD = re.compile(r"[^\W\d_]{3,}")
_FIELDS = frozenset({"input", "textarea", "select"})
_SHOWN = 5  # elements of the card named, at most

# Per session, the controls (page address, element id) held back once.
_HELD: WeakKeyDictionary[object, set[tuple[str, str]]] = WeakKeyDictionary()


def check_outside_cards(
    index: int,
    node: ElementNode,
    snapshot: DomSnapshot,
    task: str,
    owner: object,
    redact: Callable[[str], str],
) -> None:
    """Fail, the first time only, when ``node`` (element ``index``, no field, no control repeated on the
    cards) is in none of the cards in view or in one that shows no name ``task`` gives, ``task`` does not
    name it, and exactly one other card shows such a name; ``owner`` (the browser session) keeps which
    controls were held back.

    With no card in view showing a name the task gives, and the list going on below, the click is held
    too (``NameBelow``: the caller scrolls the list to the name).

    Raises:
        HeldBackError: the card named and its elements.
        NameBelow: the name no card in view shows.
    """
    key = (snapshot.url, node.element_id)
    held = _HELD.setdefault(owner, set())
    if not task or key in held or node.tag in _FIELDS or look_alike_cards(snapshot.items, node.element_id):
        return  # a control repeated on the cards is the card guard's (``card_guard.py``)
    if _words(f"{node.name} {node.text} {node.icon}") & _words(task):
        return  # "click the search icon": the task asks for this control
    cards = cards_in_view(snapshot.items)
    mine = [
        items for (frame, number), items in cards.items() if frame == node.frame_id and number in node.chain
    ]
    names = {name: words for name in task_names(task) if (words := _words(name))}
    if any(_shows(items, words) for items in mine for words in names.values()):
        return
    named = [
        (name, items)
        for items in cards.values()
        if not any(items is own for own in mine)
        for name, words in names.items()
        if _shows(items, words)
    ]
    where = f'is in the card "{redact(_said(mine[0]))}"' if mine else "is in none of the list's cards"
    if not named and cards:
        _check_name_below(index, node, snapshot, list(names), held, redact, where)
    if len({id(items) for _, items in named}) != 1:
        return
    name, items = named[0]
    elements = [item for item in items if isinstance(item, ElementNode) and "disabled" not in item.states]
    if not elements:
        return
    held.add(key)
    listing = ", ".join(
        f"{c.index} ({redact(cut_label(c.icon or _text(c) or c.tag))})" for c in elements[:_SHOWN]
    )
    card = redact(_said(items))
    raise HeldBackError(
        f'element {index} {where}, but the task names "{redact(name)}", which the card "{card}" shows: its '
        f"elements are {listing}. Click the one the task needs, or element {index} again if it is the one "
        "meant."
    )


def _shows(items: list[ElementNode | TextNode], words: set[str]) -> bool:
    """Whether the card of ``items`` shows every one of ``words``."""
    return words <= _words(" ".join(_text(item) for item in items))


def _said(items: list[ElementNode | TextNode]) -> str:
    """The first words of a card, as a hold quotes it."""
    return cut_label(" ".join(text for item in items if (text := _text(item))))


def _check_name_below(
    index: int,
    node: ElementNode,
    snapshot: DomSnapshot,
    names: list[str],
    held: set[tuple[str, str]],
    redact: Callable[[str], str],
    where: str,
) -> None:
    """Fail when no card in view shows the first name the task gives and the list goes on below: the
    model clicked the search icon over a list whose mail from Jemima was further down, then typed the
    reply into the search box (email-inbox seed 3)."""
    below = more_below(snapshot, node.rect)
    if not names or below is None:
        return
    held.add((snapshot.url, node.element_id))
    name = redact(names[0])
    raise NameBelow(
        f'element {index} {where}, but the task names "{name}", which no card in view shows; the list goes '
        f"on below ({below}). Call scroll_to_text with {name!r} to bring that card into view, or click "
        f"element {index} again if it is the one meant.",
        f'element {index} {where}, but the task names "{name}", which no card in view showed; the list went '
        f"on below, and is scrolled to {name!r} now (see the page; its indices changed): click in that card.",
        names[0],
    )


def _words(text: str) -> set[str]:
    return {word.lower() for word in _WORD.findall(text)}


def _text(item: ElementNode | TextNode) -> str:
    if isinstance(item, TextNode):
        return " ".join(item.text.split())
    return "" if item.tag in _FIELDS else " ".join((item.text or item.name).split())
