"""Look-alike controls and the cards they sit in: which row a "Delete" button or a star icon is for.

A list of mails, tweets or products repeats the same controls in every row: four `<span icon=star>`
read alike, and nothing on their line says which mail each one stars. A small model then picks by
position and stars the wrong mail (MiniWoB++'s email-inbox: "the email by Leena is the last item").

The extractor numbers each item's nearest containers (``chain``, outermost first, the element itself
last). An element's *card* is its highest container that holds none of its look-alikes: the mail row
of a star, the product card of an "Add to cart" button. ``card_labels`` gives each look-alike the first
words of its own card that no other look-alike's card shows, for the view to print beside it
(``for="Leena Commodo…"``). The re-identification of recorded elements uses the same cards
(``browser_agent.reid.groups``).

All functions are pure and compare numbers within one snapshot only.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence

from browser_agent.dom.snapshot import ElementNode, TextNode

__all__ = ["card_depth", "card_labels", "cards_in_view", "cut_label", "look_alike_cards"]

# The items of each numbered container, keyed by (frame, container).
_Boxes = dict[tuple[int, int], list[ElementNode | TextNode]]

LABEL_CAP = 24  # characters of a card's label shown beside a look-alike
_FIELDS = frozenset({"input", "textarea", "select"})
_WORDS = 3  # a control named at more length (a story's title linked twice) tells itself apart enough
_MENU_ROLES = frozenset({"menuitem", "menuitemcheckbox", "menuitemradio"})
# A container named for navigation: <nav>, or an id or class word with nav or menu in it.
_NAVIGATION = re.compile(r"^nav(?:$|[.#])|[.#][\w-]*(?:nav|menu)", re.IGNORECASE)


def card_depth(node: ElementNode, peers: Iterable[ElementNode]) -> int:
    """How many levels above ``node`` its card is; 0 when a look-alike shares its parent (no card).

    Look-alikes in other frames share no container with ``node`` and do not limit the card; without
    any in the frame, the card is the highest container the extractor numbered.
    """
    chain = node.chain
    if len(chain) < 2:
        return 0
    deepest_shared = -1
    for peer in peers:
        if peer is node or peer.frame_id != node.frame_id or not peer.chain:
            continue
        theirs = set(peer.chain)
        shared = max((i for i, number in enumerate(chain) if number in theirs), default=-1)
        deepest_shared = max(deepest_shared, shared)
    return max(0, len(chain) - 2 - deepest_shared)


def card_labels(items: Sequence[ElementNode | TextNode]) -> dict[str, str]:
    """For each control that reads exactly like another one in view (same tag, role, words, icon and
    type), keyed by ``element_id``: the first words of its card that no look-alike's card shows.

    Left out: controls in a data table (the view prints a table row on one line), links of the site's
    menus, controls named in more than a few words, and a look-alike whose card says nothing of its own.
    """
    groups: dict[tuple[object, ...], list[ElementNode]] = defaultdict(list)
    for item in items:
        if isinstance(item, ElementNode) and _may_need_a_card(item):
            groups[_look(item)].append(item)
    found: dict[str, str] = {}
    boxes: _Boxes | None = None
    for group in groups.values():
        if len(group) < 2:
            continue
        boxes = boxes if boxes is not None else _by_box(items)
        cards = [_card_texts(node, card_depth(node, group), boxes) for node in group]
        for at, node in enumerate(group):
            others = {text for i, texts in enumerate(cards) if i != at for text in texts}
            label = next((text for text in cards[at] if text not in others and _says_something(text)), "")
            if label:
                found[node.element_id] = cut_label(label)
    return found


def look_alike_cards(items: Sequence[ElementNode | TextNode], element_id: str) -> dict[str, list[str]]:
    """The texts of the card of each control that reads exactly like ``element_id``'s (itself included),
    keyed by ``element_id``; empty when it has no look-alike in view or is one that needs no card."""
    nodes = [item for item in items if isinstance(item, ElementNode) and _may_need_a_card(item)]
    clicked = next((node for node in nodes if node.element_id == element_id), None)
    if clicked is None:
        return {}
    group = [node for node in nodes if _look(node) == _look(clicked)]
    if len(group) < 2:
        return {}
    boxes = _by_box(items)
    return {node.element_id: _card_texts(node, card_depth(node, group), boxes) for node in group}


def cards_in_view(items: Sequence[ElementNode | TextNode]) -> _Boxes:
    """Every card in view that holds a control reading like one on another card, keyed by (frame,
    container), with its items in reading order: the rows of a mail list, the posts of a feed."""
    nodes = [item for item in items if isinstance(item, ElementNode) and _may_need_a_card(item)]
    groups: dict[tuple[object, ...], list[ElementNode]] = defaultdict(list)
    for node in nodes:
        groups[_look(node)].append(node)
    boxes = _by_box(items)
    cards: _Boxes = {}
    for group in groups.values():
        if len(group) < 2:
            continue
        for node in group:
            depth = card_depth(node, group)
            if 0 < depth < len(node.chain):
                key = (node.frame_id, node.chain[-1 - depth])
                cards.setdefault(key, boxes[key])
    return cards


def _may_need_a_card(node: ElementNode) -> bool:
    """Whether ``node`` is a control that may read like others and is not told apart otherwise: not in
    a data table, not a scroll panel, not a link of the site's menus, named in a few words at most."""
    if node.cell is not None or node.panel is not None or not node.chain or _in_navigation(node):
        return False
    return len(_shown_words(node).split()) <= _WORDS


def _in_navigation(node: ElementNode) -> bool:
    """Whether ``node`` is a link of a site's menus: a menu drawn twice (for the desktop and the phone)
    repeats every link, and a label on each cost tokens on real pages while telling nothing."""
    return node.role in _MENU_ROLES or any(_NAVIGATION.search(box) for box in node.ancestors)


def _look(node: ElementNode) -> tuple[object, ...]:
    """What the view shows of a control, without its index: look-alikes share it."""
    attrs = node.attributes
    kind, placeholder = attrs.get("type", ""), attrs.get("placeholder", "")
    return (node.frame_id, node.tag, node.role, _shown_words(node), node.icon, kind, placeholder)


def _shown_words(node: ElementNode) -> str:
    return node.name if node.tag in _FIELDS else (node.text or node.name)


def _by_box(items: Sequence[ElementNode | TextNode]) -> _Boxes:
    """The items under each numbered container, in reading order, keyed by (frame, container)."""
    boxes: _Boxes = defaultdict(list)
    for item in items:
        for number in item.chain:
            boxes[(item.frame_id, number)].append(item)
    return boxes


def _card_texts(node: ElementNode, depth: int, boxes: _Boxes) -> list[str]:
    """The words of the items in ``node``'s card, in reading order, except ``node`` and what it holds."""
    if not 0 < depth < len(node.chain):
        return []
    own = node.chain[-1]
    texts: list[str] = []
    for item in boxes.get((node.frame_id, node.chain[-1 - depth]), ()):
        if own in item.chain:
            continue
        text = _words(item)
        if text and text not in texts:
            texts.append(text)
    return texts


def _words(item: ElementNode | TextNode) -> str:
    if isinstance(item, TextNode):
        return " ".join(item.text.split())
    if item.tag in _FIELDS:
        return ""  # a field's text is what was typed into it, not a label of its card
    return " ".join((item.text or item.name).split())


def _says_something(text: str) -> bool:
    """Whether ``text`` has two letters or digits at least (not a separator such as ``|``)."""
    return sum(ch.isalnum() for ch in text) >= 2


def cut_label(text: str) -> str:
    """At most ``LABEL_CAP`` characters, cut after a whole word, with no double quote."""
    text = text.replace('"', "'")
    if len(text) <= LABEL_CAP:
        return text
    head = text[: LABEL_CAP - 1]
    space = head.rfind(" ")
    return (head[:space] if space > 0 else head).rstrip(" ,;:") + "…"
