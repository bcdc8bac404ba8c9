"""Cards and rows: the container that sets an element apart from its look-alikes, and what it holds.

The extractor numbers each item's nearest containers (``chain``, outermost first, the element itself
last). An element's *card* is its highest container that holds none of its look-alikes: the product
card of an "Add to cart" button, the table row of an "Edit" button. The labels inside the card belong
to the element and go with it when the list is reordered or the card is moved elsewhere on the page;
labels beside it in reading order but outside the card (the next card's title) do not.

All functions are pure and compare numbers within one snapshot only.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from browser_agent.dom.cards import card_depth
from browser_agent.dom.snapshot import DomSnapshot, ElementNode
from browser_agent.reid.labels import item_label, label_shown

__all__ = ["CardIndex", "CardLabels", "card_depth", "distinct_card_labels"]

_GROUP_LABELS = 2


class CardIndex:
    """The labelled items of one snapshot filed under every container that holds them, built once so
    that asking for the labels of many cards stays linear in the size of the page."""

    def __init__(self, snapshot: DomSnapshot) -> None:
        self._where: dict[int, int] = {}
        self._boxes: dict[tuple[int, int], list[tuple[int, str, tuple[int, ...]]]] = {}
        for at, item in enumerate(snapshot.items):
            if isinstance(item, ElementNode):
                self._where[id(item)] = at
            label = item_label(item)
            if not label:
                continue
            for box in item.chain:
                self._boxes.setdefault((item.frame_id, box), []).append((at, label, item.chain))

    def labels(self, node: ElementNode, depth: int) -> list[str]:
        """The labels inside the container ``depth`` levels above ``node``, except ``node`` and what
        lies inside it, nearest in reading order first."""
        if not 0 < depth < len(node.chain):
            return []
        where, own = self._where.get(id(node), 0), node.chain[-1]
        entries = self._boxes.get((node.frame_id, node.chain[-1 - depth]), [])
        found = sorted((abs(at - where), label) for at, label, chain in entries if own not in chain)
        return [label for _, label in found]

    def label_counts(self, peers: list[ElementNode], depth: int) -> Counter[str]:
        """For each label, how many of ``peers`` show it in their container ``depth`` levels up."""
        return Counter(label for peer in peers for label in set(self.labels(peer, depth)))

    def own_card(
        self, node: ElementNode, depth: int, peers: list[ElementNode], counts: Counter[str]
    ) -> list[str] | None:
        """The labels of ``node``'s card ``depth`` levels up, or None when that container also holds a
        look-alike (its labels could belong to either) or there is none. ``node`` is one of ``peers``,
        ``counts`` is ``label_counts(peers, depth)``.

        When the container at ``depth`` says nothing of its own (it is empty, or every label in it is
        also in the same container of another look-alike: a wrapper or an actions bar added since the
        recording), the container one level up is the card instead.
        """
        for level in (depth, depth + 1):
            if not 0 < level < len(node.chain):
                return None
            box = node.chain[-1 - level]
            if any(p is not node and p.frame_id == node.frame_id and box in p.chain for p in peers):
                return None
            labels = self.labels(node, level)
            # Each label counts once for ``node`` itself: shared means another look-alike shows it too.
            if level > depth or not all(counts[label] > 1 for label in set(labels)):
                return labels
        return None


@dataclass(frozen=True, slots=True)
class CardLabels:
    """What sets an element's card apart from its twins' cards: ``depth`` levels above the element,
    the nearest labels of its own card that no twin's card shows (``own``, at most two), and one label
    for each twin's card that no other card shows (``twins``; empty when some twin's card has none)."""

    depth: int = 0
    own: tuple[str, ...] = ()
    twins: tuple[str, ...] = ()


def distinct_card_labels(node: ElementNode, snapshot: DomSnapshot, twins: list[ElementNode]) -> CardLabels:
    """The labels that tell ``node``'s card, and each of its twins' cards, from all the others."""
    depth, cards = card_depth(node, twins), CardIndex(snapshot)
    mine = cards.labels(node, depth)
    if not mine:
        return CardLabels()
    everyone = [node, *twins]
    theirs = [cards.labels(twin, card_depth(twin, everyone)) for twin in twins]
    distinct = [label for label in dict.fromkeys(mine) if not label_shown(label, _flat(theirs))]
    if not distinct:
        return CardLabels()
    return CardLabels(depth, tuple(distinct[:_GROUP_LABELS]), _one_each(mine, theirs))


def _one_each(mine: list[str], theirs: list[list[str]]) -> tuple[str, ...]:
    """For each card in ``theirs``, its nearest label that no other card (``mine`` included) shows."""
    picked: list[str] = []
    for at, labels in enumerate(theirs):
        others = mine + _flat(theirs[:at] + theirs[at + 1 :])
        label = next((label for label in labels if not label_shown(label, others)), None)
        if label is None:
            return ()
        picked.append(label)
    return tuple(picked)


def _flat(lists: list[list[str]]) -> list[str]:
    return [label for labels in lists for label in labels]
