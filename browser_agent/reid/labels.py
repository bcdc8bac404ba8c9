"""Labels: the words an item shows, in the one form they are compared in (lower case, single spaces).

The leaf of the fingerprint modules: ``groups`` (cards and rows), ``identity`` (what rules a candidate
out), ``fingerprint`` (taking one) and ``matching`` (finding it again) all compare labels through these.
"""

from __future__ import annotations

from collections.abc import Iterable

from browser_agent.dom.snapshot import ElementNode, TextNode

__all__ = ["item_label", "label_shown", "norm"]

_CAP = 100


def norm(text: str) -> str:
    """Lower-cased, whitespace-collapsed, capped: the form labels are compared in."""
    return " ".join(text.lower().split())[:_CAP]


def item_label(item: ElementNode | TextNode) -> str:
    """What an item says: a text's words, an element's name or else its text."""
    if isinstance(item, TextNode):
        return norm(item.text)
    return norm(item.name or item.text)


def label_shown(label: str, labels: Iterable[str]) -> bool:
    """Whether ``label`` appears, as whole words, in one of ``labels`` (text runs merge, so ``$24.00``
    may come back as ``$24.00 new``)."""
    padded = f" {label} "
    return any(padded in f" {other} " for other in labels)
