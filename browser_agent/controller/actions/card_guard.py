"""A click on a control of one card, where the task names what another card of the same controls
shows, is held back once, naming the control of that card.

A list of mails, tweets or products repeats the same controls on every card, and the view says which
card each is for (``dom/cards.py``: ``[7]<span icon=star for="Ailey Ipsum…">``). Asked to "find the
email by Ailey and click the star icon", a small model clicked the first star of the list all the same.
The first such click is refused when the clicked control's card shows none of the task's words that
tell the cards apart, and exactly one other card shows some: the refusal names that card's control. The
same click again goes through (the task may mean it after all).

When no card in view shows the name the task gives ("the email by Cathryn", "@mira's post") and the
list goes on below, the click is held back once too, and the list scrolled to the name when the page has
it (else the hold says where the rest of the list is): the model had clicked the star of the first card
it saw.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from weakref import WeakKeyDictionary

from browser_agent.controller.actions.scrolling import scroll_to_text
from browser_agent.controller.actions.task_quotes import without_quotes
from browser_agent.controller.context import ActionContext
from browser_agent.dom.cards import LABEL_CAP, card_labels, look_alike_cards
from browser_agent.dom.snapshot import DomSnapshot, ElementNode, Rect
from browser_agent.errors import ActionError, HeldBackError

__all__ = ["NameBelow", "check_card_named", "more_below", "scroll_to_named", "task_names"]

_WORD = re.compile(r"[^\W\d_]{3,}")  # a word of three letters or more
# A name in a task: a capitalised word not opening a sentence, or a handle ("@mira").
_NAME = re.compile(r"(?<=[^\s.!?:;\"'(])\s+([A-Z][^\W\d_]{2,}(?:-[A-Z][^\W\d_]+)?)|(@\w{2,})")

# Per session, the controls (page address, element id) held back once.
_HELD: WeakKeyDictionary[object, set[tuple[str, str]]] = WeakKeyDictionary()


def _words(text: str) -> set[str]:
    return {word.lower() for word in _WORD.findall(text)}


def check_card_named(
    index: int,
    node: ElementNode,
    snapshot: DomSnapshot,
    task: str,
    owner: object,
    redact: Callable[[str], str],
) -> None:
    """Fail, the first time only, when ``node`` (element ``index``) is a control repeated on several
    cards and ``task`` names what exactly one other card shows, none of it on ``node``'s own card;
    ``owner`` (the browser session) keeps which controls were held back.

    Raises:
        ActionError: which card the clicked control is for, and which control is for the card named.
    """
    key = (snapshot.url, node.element_id)
    held = _HELD.setdefault(owner, set())
    if not task or key in held:
        return
    cards = look_alike_cards(snapshot.items, node.element_id)
    if not cards:
        return
    asked = _words(task)
    shown = {element_id: _words(" ".join(texts)) & asked for element_id, texts in cards.items()}

    def telling(element_id: str) -> set[str]:
        """The task's words that this card shows and no other card does."""
        others = set().union(*(words for other, words in shown.items() if other != element_id))
        return shown[element_id] - others

    if telling(node.element_id):
        return
    named = [element_id for element_id in cards if element_id != node.element_id and telling(element_id)]
    if not named:
        _check_name_below(index, node, snapshot, task, cards, held, redact)
    if len(named) != 1:
        return
    target = next((n for n in snapshot.selector_map.values() if n.element_id == named[0]), None)
    if target is None or "disabled" in target.states:  # a control turned off is no way to do the task
        return
    held.add(key)
    labels = card_labels(snapshot.items)
    mine = redact(labels.get(node.element_id) or " ".join(cards[node.element_id])[:LABEL_CAP])
    theirs = redact(labels.get(target.element_id) or " ".join(cards[target.element_id])[:LABEL_CAP])
    telling_words = telling(target.element_id)
    word = redact(next(w for w in _WORD.findall(task) if w.lower() in telling_words))  # as the task spells it
    raise HeldBackError(
        f'element {index} is for "{mine}", but the task names "{word}": element {target.index} is the one '
        f'for "{theirs}". Click element {target.index} instead, or element {index} again if it is the one '
        "meant."
    )


def _check_name_below(
    index: int,
    node: ElementNode,
    snapshot: DomSnapshot,
    task: str,
    cards: dict[str, list[str]],
    held: set[tuple[str, str]],
    redact: Callable[[str], str],
) -> None:
    """Fail when the task gives a name no card in view shows and the list goes on below ``node``."""
    shown = set().union(*(_words(" ".join(texts)) for texts in cards.values()))
    shown |= _words(f"{node.name} {node.text} {node.icon}")  # "click the Like button": not a name
    names = [name for name in task_names(task) if not _words(name) & shown]
    below = more_below(snapshot, node.rect)
    if not names or below is None:
        return
    held.add((snapshot.url, node.element_id))
    mine = redact(
        card_labels(snapshot.items).get(node.element_id) or " ".join(cards[node.element_id])[:LABEL_CAP]
    )
    name = redact(names[0])
    raise NameBelow(
        f'element {index} is for "{mine}", but the task names "{name}", and no card in view shows it; the '
        f"list goes on below ({below}). Call scroll_to_text with {name!r} to bring that card into view, or "
        f"click element {index} again if it is the one meant.",
        f'element {index} is for "{mine}", but the task names "{name}", which no card in view showed; the '
        f"list went on below, and is scrolled to {name!r} now (see the page; its indices changed): click "
        "the control of that card.",
        names[0],
    )


class NameBelow(HeldBackError):
    """The hold of a click on a card's control when the card the task names is further down the list:
    ``name``, to scroll to, and ``scrolled``, the message once the list is scrolled to it."""

    def __init__(self, message: str, scrolled: str, name: str) -> None:
        super().__init__(message)
        self.scrolled = scrolled
        self.name = name


async def scroll_to_named(below: NameBelow, ctx: ActionContext) -> HeldBackError:
    """The hold to raise for ``below``: the list scrolled to the card it names when the page has that name
    (told to call scroll_to_text, the 1.5B model clicked the list's panel, then the first card: email-inbox
    seed 5), else ``below`` as it is."""
    try:
        await scroll_to_text(below.name, ctx)
    except ActionError:
        return below
    return HeldBackError(below.scrolled)


def task_names(task: str) -> list[str]:
    """The names a task gives, outside its quoted texts: capitalised words that do not open a sentence,
    and handles (``@mira``)."""
    return [first or second for first, second in _NAME.findall(without_quotes(task))]


def more_below(snapshot: DomSnapshot, rect: Rect) -> str | None:
    """Where more of the list is: the scroll panel around ``rect`` that has more below, else the page
    when it has; ``None`` when neither has."""
    for panel in snapshot.selector_map.values():
        scroll = panel.panel
        if scroll is None or not (scroll.elements_below or scroll.screens_below >= 0.05):
            continue
        box = panel.rect
        inside = box.x <= rect.x + rect.width / 2 <= box.x + box.width
        if inside and box.y <= rect.y + rect.height / 2 <= box.y + box.height:
            return f"{scroll.elements_below} more items" if scroll.elements_below else "in its panel"
    if snapshot.scroll.elements_below:
        return f"{snapshot.scroll.elements_below} more elements"
    return None
