"""Taking a fingerprint: the signals of one element as it is in a snapshot, and what tells it apart from
its look-alikes there.

Generated-looking ids and classes (hashes, CSS-in-JS names, React ``:r1:`` ids) are left out, because
they change on every build or load. Telling an element apart from its twins (every card's "Add to cart")
takes the page around it: ``group`` holds labels of its own card or row (``browser_agent.reid.groups``),
checked by ``browser_agent.reid.matching.locate``; ``anchors`` holds neighbouring labels in reading
order, the fallback for twins that share one container.

Data flows one way: ``labels`` ← ``groups``, ``identity`` ← this module ← ``matching``. The record itself
and the rules comparing two records live in ``browser_agent.reid.identity`` (re-exported here).
"""

from __future__ import annotations

import re
from dataclasses import replace
from urllib.parse import urlsplit

from browser_agent.dom.snapshot import DomSnapshot, ElementNode, TextNode
from browser_agent.reid.generated import is_generated_token
from browser_agent.reid.groups import distinct_card_labels
from browser_agent.reid.identity import (
    BUTTON_INPUT_TYPES,
    STRONG_KEYS,
    Fingerprint,
    anchor_shown,
    identity_conflict,
    side_labels,
)
from browser_agent.reid.labels import item_label, norm

__all__ = ["Fingerprint", "fingerprint_of", "identity_conflict", "is_generated_token", "raw_fingerprint"]

_CONTEXT_SPAN = 4  # labels kept per side; anchors come from the nearest three
_SOFT_KEYS = ("type", "placeholder", "aria-label", "title", "alt", "value")
_SEMANTIC_TAGS = frozenset(
    {
        "form",
        "nav",
        "ul",
        "ol",
        "li",
        "table",
        "thead",
        "tbody",
        "tr",
        "td",
        "th",
        "section",
        "header",
        "footer",
        "main",
        "aside",
        "article",
        "label",
        "fieldset",
        "dialog",
        "menu",
        "details",
    }
)


def _stable_attributes(node: ElementNode) -> tuple[tuple[str, str], ...]:
    kept: list[tuple[str, str]] = []
    input_type = node.attributes.get("type", "").lower()
    for key in (*STRONG_KEYS, *_SOFT_KEYS):
        raw = node.attributes.get(key)
        if raw is None or not raw.strip():
            continue
        value = raw.strip()
        if key in ("id", "for") and is_generated_token(value):
            continue
        if key == "href":
            value = _href_path(value)
        if key == "value" and not (node.tag == "button" or input_type in BUTTON_INPUT_TYPES):
            continue  # the value of a text field is what was typed, not who the field is
        kept.append((key, norm(value) if key in ("aria-label", "title", "alt", "value") else value))
    return tuple(kept)


def _href_path(href: str) -> str:
    try:
        parts = urlsplit(href)
    except ValueError:  # a page's malformed link (http://[zz/) is still a link: kept as written
        return href
    if not parts.path and parts.fragment:
        return "#" + parts.fragment
    return parts.path or "/"


def _stable_classes(node: ElementNode) -> tuple[str, ...]:
    classes = node.attributes.get("class", "").split()
    return tuple(sorted({c for c in classes if not is_generated_token(c)}))[:8]


def _stable_ancestor(signature: str) -> str | None:
    """Keep the tag plus stable #id/.class parts; drop anonymous ``div``/``span`` wrappers entirely."""
    parts = re.split(r"(?=[#.])", signature)
    tag = parts[0].lower()
    kept = [p for p in parts[1:] if len(p) > 1 and not is_generated_token(p[1:])]
    if not kept and tag not in _SEMANTIC_TAGS:
        return None
    return tag + "".join(kept)


def _ancestors(node: ElementNode) -> tuple[str, ...]:
    stable = (_stable_ancestor(sig) for sig in node.ancestors)
    return tuple(sig for sig in stable if sig)[:6]


def _neighbour_items(
    snapshot: DomSnapshot, node: ElementNode
) -> tuple[list[ElementNode | TextNode], list[ElementNode | TextNode]]:
    """The nearest labelled items before and after the element in reading order, nearest first."""
    items = snapshot.items
    where = next((i for i, item in enumerate(items) if item is node), None)
    if where is None:
        where = next((i for i, item in enumerate(items) if item == node), None)
    if where is None:
        return [], []
    same = [item for item in items if item.frame_id == node.frame_id and item_label(item)]
    at = next((i for i, item in enumerate(same) if item is items[where]), None)
    if at is None:
        return [], []
    return same[:at][::-1][:_CONTEXT_SPAN], same[at + 1 :][:_CONTEXT_SPAN]


def _neighbours(snapshot: DomSnapshot, node: ElementNode) -> tuple[tuple[str, ...], tuple[str, ...]]:
    before, after = _neighbour_items(snapshot, node)
    return tuple(map(item_label, before)), tuple(map(item_label, after))


def _position(node: ElementNode, snapshot: DomSnapshot) -> tuple[float, float]:
    """Centre of the element as a fraction of the page's width and height (1.0 = far edge)."""
    width = max((n.rect.x + n.rect.width for n in snapshot.selector_map.values()), default=1.0)
    height = snapshot.scroll.page_height or max(
        (n.rect.y + n.rect.height for n in snapshot.selector_map.values()), default=1.0
    )
    cx, cy = node.rect.center
    return (round(cx / max(width, 1.0), 4), round((cy + snapshot.scroll.scroll_y) / max(height, 1.0), 4))


def raw_fingerprint(node: ElementNode, snapshot: DomSnapshot) -> Fingerprint:
    """The element's signals without the twin analysis (used for every candidate during ``locate``)."""
    before, after = _neighbours(snapshot, node)
    return Fingerprint(
        tag=node.tag.lower(),
        role=node.role,
        name=_identity_label(node),
        text=norm(node.text),
        attributes=_stable_attributes(node),
        classes=_stable_classes(node),
        ancestors=_ancestors(node),
        sibling_index=node.sibling_index,
        frame_path=tuple(node.frame_path),
        in_shadow=node.in_shadow,
        position=_position(node, snapshot),
        before=before,
        after=after,
    )


def fingerprint_of(node: ElementNode, snapshot: DomSnapshot) -> Fingerprint:
    """Fingerprint ``node`` as it is in ``snapshot``, noting what told it apart from look-alikes there."""
    fingerprint = raw_fingerprint(node, snapshot)
    twins = [
        raw_fingerprint(other, snapshot)
        for other in snapshot.selector_map.values()
        if other is not node and other.element_id != node.element_id
    ]
    twins = [other for other in twins if identity_conflict(fingerprint, other) is None]
    if not twins:
        return fingerprint
    twin_nodes = [o for o in snapshot.selector_map.values() if o is not node and _is_twin(o, twins)]
    cards = distinct_card_labels(node, snapshot, twin_nodes)
    if cards.own:
        return replace(
            fingerprint, group=cards.own, group_depth=cards.depth, twins=len(twins), twin_cards=cards.twins
        )
    before, after = _neighbour_items(snapshot, node)
    owned = [
        anchor
        for side, side_items in (("before", before), ("after", after))
        if (anchor := _distinct_label(fingerprint, side, twins, _owned_depth(node, side_items, twin_nodes)))
    ]
    # Labels outside the element's own card or row are used only when nothing inside it is distinct:
    # they move independently of the element, so requiring them costs re-locations, never precision.
    anchors = owned or [
        anchor for side in ("before", "after") if (anchor := _distinct_label(fingerprint, side, twins, 3))
    ]
    return replace(fingerprint, anchors=tuple(anchors), twins=len(twins))


def _identity_label(node: ElementNode) -> str:
    """The accessible name; the visible text stands in when the extractor left the name empty because
    it equals the text (fields are left alone: their text is what was typed)."""
    if node.name or node.tag.lower() in ("input", "textarea", "select"):
        return norm(node.name)
    return norm(node.text)


def _is_twin(node: ElementNode, twins: list[Fingerprint]) -> bool:
    name, tag = _identity_label(node), node.tag.lower()
    return any(twin.name == name and twin.tag == tag for twin in twins)


def _owned_depth(node: ElementNode, side: list[ElementNode | TextNode], twins: list[ElementNode]) -> int:
    """How many of the nearest items on one side belong to the element's own card or row.

    An element belongs when it lies nearer to the element than to any twin (a card or a row is laid
    out together); a text belongs when an element beyond it does, since it sits between the two.
    """
    owned = pending = 0
    cx, cy = node.rect.center
    centres = [twin.rect.center for twin in twins]
    for item in side:
        if isinstance(item, TextNode):
            pending += 1
            continue
        ix, iy = item.rect.center
        mine = (ix - cx) ** 2 + (iy - cy) ** 2
        theirs = min(((ix - tx) ** 2 + (iy - ty) ** 2 for tx, ty in centres), default=float("inf"))
        if mine >= theirs:
            break
        owned, pending = owned + pending + 1, 0
    return owned


def _distinct_label(
    fingerprint: Fingerprint, side: str, twins: list[Fingerprint], depth: int
) -> tuple[str, int, str] | None:
    """The nearest of the first ``depth`` labels on one side that no twin shows there at that distance."""
    for distance, label in enumerate(
        side_labels(fingerprint, side)[: min(depth, _CONTEXT_SPAN - 1)], start=1
    ):
        anchor = (side, distance, label)
        if not any(anchor_shown(twin, anchor) for twin in twins):
            return anchor
    return None
