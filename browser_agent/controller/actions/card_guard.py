"""A click on a control of one card, where the task names what another card of the same controls
shows, is held back once, naming the control of that card.

A list of mails, tweets or products repeats the same controls on every card, and the view says which
card each is for (``dom/cards.py``: ``[7]<span icon=star for="Ailey Ipsum…">``). Asked to "find the
email by Ailey and click the star icon", a small model clicked the first star of the list all the same.
The first such click is refused when the clicked control's card shows none of the task's words that
tell the cards apart, and exactly one other card shows some: the refusal names that card's control. The
same click again goes through (the task may mean it after all).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from weakref import WeakKeyDictionary

from browser_agent.dom.cards import LABEL_CAP, card_labels, look_alike_cards
from browser_agent.dom.snapshot import DomSnapshot, ElementNode
from browser_agent.errors import ActionError

__all__ = ["check_card_named"]

_WORD = re.compile(r"[^\W\d_]{3,}")  # a word of three letters or more

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
    raise ActionError(
        f'element {index} is for "{mine}", but the task names "{word}": element {target.index} is the one '
        f'for "{theirs}". Click element {target.index} instead, or element {index} again if it is the one '
        "meant."
    )
