"""Fingerprints: what identifies an element across page loads, and when two elements cannot be the same.

A ``Fingerprint`` holds several signals of one element (tag, role, accessible name, text, stable
attributes, ancestors, neighbouring text, position). Generated-looking ids and classes (hashes, CSS-in-JS
names, React ``:r1:`` ids) are left out, because they change on every build or load.

``identity_conflict`` is the hard gate used by ``browser_agent.dom.matching.locate``: it says why a
candidate cannot be the recorded element (another tag family, another name, another stable id, another
frame). Telling an element apart from its twins (every card's "Add to cart") takes the page around it:
``group`` holds labels of its own card or row (``browser_agent.dom.groups``), checked by ``locate``;
``anchors`` holds neighbouring labels in reading order, the fallback for twins that share one container.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, replace
from typing import Any
from urllib.parse import urlsplit

from browser_agent.dom.generated import is_generated_token
from browser_agent.dom.groups import CardIndex, card_depth, item_label, label_shown, norm
from browser_agent.dom.models import DomSnapshot, ElementNode, TextNode

__all__ = [
    "Fingerprint",
    "LocateResult",
    "fingerprint_of",
    "identity_conflict",
    "is_generated_token",
    "locate",
    "raw_fingerprint",
]

FORMAT_VERSION = 1
_GROUP_LABELS = 2
_CONTEXT_SPAN = 4  # labels kept per side; anchors come from the nearest three
# Attributes that name an element on purpose; a different value means a different element.
_STRONG_KEYS = ("id", "name", "data-testid", "data-test", "data-qa", "data-cy", "href", "for")
_SOFT_KEYS = ("type", "placeholder", "aria-label", "title", "alt", "value")
_BUTTON_INPUT_TYPES = frozenset({"button", "submit", "reset", "image"})
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


@dataclass(frozen=True, slots=True)
class Fingerprint:
    """The signals that identify one element, JSON-safe through ``to_dict``/``from_dict``.

    ``before``/``after`` are the nearest texts or element names on each side in reading order.
    ``anchors`` are set only when the page held twins of the element (same identity) when it was
    recorded: ``(side, distance, label)`` for the neighbouring texts that told it apart; a candidate must
    show each of them on the same side, at most one step further away. ``group`` is set instead when
    the twins sat in other cards or rows: up to two labels of the element's own card, ``group_depth``
    levels above it, that no twin's card showed; a candidate's card must show one of them.
    """

    tag: str
    role: str | None = None
    name: str = ""
    text: str = ""
    attributes: tuple[tuple[str, str], ...] = ()
    classes: tuple[str, ...] = ()
    ancestors: tuple[str, ...] = ()
    sibling_index: int = 0
    frame_path: tuple[str, ...] = ()
    in_shadow: bool = False
    position: tuple[float, float] = (0.0, 0.0)
    before: tuple[str, ...] = ()
    after: tuple[str, ...] = ()
    anchors: tuple[tuple[str, int, str], ...] = ()
    twins: int = 0
    group: tuple[str, ...] = ()
    group_depth: int = 0

    @property
    def family(self) -> str:
        """Tags that behave alike share a family: ``<button>`` and ``<input type=submit>`` are buttons."""
        return _family(self.tag, self.attribute("type"))

    def attribute(self, key: str) -> str | None:
        """The stable value of one attribute, or None when the element had none worth keeping."""
        for name, value in self.attributes:
            if name == key:
                return value
        return None

    def describe(self) -> str:
        """A short human label such as ``<button> 'Add to cart'``."""
        label = self.name or self.text or self.attribute("id") or ""
        return f"<{self.tag}> {label!r}" if label else f"<{self.tag}>"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict (lists, strings, numbers) for saving in a run history."""
        data = asdict(self)
        data["attributes"] = [list(pair) for pair in self.attributes]
        for key in ("classes", "ancestors", "frame_path", "position", "before", "after", "group"):
            data[key] = list(data[key])
        data["anchors"] = [list(anchor) for anchor in self.anchors]
        data["version"] = FORMAT_VERSION
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Fingerprint:
        """Rebuild a fingerprint saved by ``to_dict``; unknown keys are ignored (newer writers)."""
        version = data.get("version", FORMAT_VERSION)
        if version > FORMAT_VERSION:
            raise ValueError(
                f"Fingerprint format version {version} is newer than this library reads ({FORMAT_VERSION}); "
                "upgrade browser_agent to replay this history."
            )
        position = data.get("position", (0.0, 0.0))
        return cls(
            tag=str(data["tag"]),
            role=data.get("role"),
            name=str(data.get("name", "")),
            text=str(data.get("text", "")),
            attributes=tuple((str(k), str(v)) for k, v in data.get("attributes", ())),
            classes=tuple(data.get("classes", ())),
            ancestors=tuple(data.get("ancestors", ())),
            sibling_index=int(data.get("sibling_index", 0)),
            frame_path=tuple(data.get("frame_path", ())),
            in_shadow=bool(data.get("in_shadow", False)),
            position=(float(position[0]), float(position[1])),
            before=tuple(data.get("before", ())),
            after=tuple(data.get("after", ())),
            anchors=tuple((str(s), int(d), str(label)) for s, d, label in data.get("anchors", ())),
            twins=int(data.get("twins", 0)),
            group=tuple(str(label) for label in data.get("group", ())),
            group_depth=int(data.get("group_depth", 0)),
        )


def _family(tag: str, input_type: str | None) -> str:
    if tag == "input" and (input_type or "") in _BUTTON_INPUT_TYPES:
        return "button"
    if tag == "input" and input_type in ("checkbox", "radio"):
        return input_type
    return tag


def _stable_attributes(node: ElementNode) -> tuple[tuple[str, str], ...]:
    kept: list[tuple[str, str]] = []
    input_type = node.attributes.get("type", "").lower()
    for key in (*_STRONG_KEYS, *_SOFT_KEYS):
        raw = node.attributes.get(key)
        if raw is None or not raw.strip():
            continue
        value = raw.strip()
        if key in ("id", "for") and is_generated_token(value):
            continue
        if key == "href":
            value = _href_path(value)
        if key == "value" and not (node.tag == "button" or input_type in _BUTTON_INPUT_TYPES):
            continue  # the value of a text field is what was typed, not who the field is
        kept.append((key, norm(value) if key in ("aria-label", "title", "alt", "value") else value))
    return tuple(kept)


def _href_path(href: str) -> str:
    parts = urlsplit(href)
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
    depth, group = _group(node, snapshot, twin_nodes)
    if group:
        return replace(fingerprint, group=group, group_depth=depth, twins=len(twins))
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


def _group(node: ElementNode, snapshot: DomSnapshot, twins: list[ElementNode]) -> tuple[int, tuple[str, ...]]:
    """The depth of the element's card and the nearest of its labels that no twin's card shows."""
    depth, cards = card_depth(node, twins), CardIndex(snapshot)
    mine = cards.labels(node, depth)
    if not mine:
        return 0, ()
    everyone = [node, *twins]
    theirs = [label for twin in twins for label in cards.labels(twin, card_depth(twin, everyone))]
    distinct = [label for label in dict.fromkeys(mine) if not label_shown(label, theirs)]
    return depth, tuple(distinct[:_GROUP_LABELS])


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


def _side(fingerprint: Fingerprint, side: str) -> tuple[str, ...]:
    return fingerprint.before if side == "before" else fingerprint.after


def _distinct_label(
    fingerprint: Fingerprint, side: str, twins: list[Fingerprint], depth: int
) -> tuple[str, int, str] | None:
    """The nearest of the first ``depth`` labels on one side that no twin shows there at that distance."""
    for distance, label in enumerate(_side(fingerprint, side)[: min(depth, _CONTEXT_SPAN - 1)], start=1):
        anchor = (side, distance, label)
        if not any(_shows(twin, anchor) for twin in twins):
            return anchor
    return None


def _shows(fingerprint: Fingerprint, anchor: tuple[str, int, str]) -> bool:
    """Whether the label is on the given side within one step more than recorded (a banner may slip in)."""
    side, distance, label = anchor
    return label_shown(label, _side(fingerprint, side)[: distance + 1])


def _strong_match(recorded: Fingerprint, candidate: Fingerprint) -> bool:
    return any(
        value is not None and value == candidate.attribute(key)
        for key in _STRONG_KEYS
        if key != "href" and (value := recorded.attribute(key)) is not None
    )


def identity_conflict(recorded: Fingerprint, candidate: Fingerprint) -> str | None:
    """Why ``candidate`` cannot be the recorded element, or None when nothing rules it out."""
    if recorded.family != candidate.family:
        return f"another kind of element (<{candidate.tag}>)"
    if recorded.role and candidate.role and recorded.role != candidate.role:
        return f"another role ({candidate.role})"
    for key in _STRONG_KEYS:
        mine, theirs = recorded.attribute(key), candidate.attribute(key)
        if mine is not None and theirs is not None and mine != theirs:
            return f"another {key} ({theirs!r})"
    mine_type, their_type = recorded.attribute("type"), candidate.attribute("type")
    if mine_type and their_type and mine_type.lower() != their_type.lower():
        return f"another type ({their_type!r})"
    strong = _strong_match(recorded, candidate)
    if recorded.name != candidate.name and not strong:
        return f"another name ({candidate.name!r})"
    if recorded.frame_path != candidate.frame_path and not strong:
        return "another frame"
    if strong:
        return None
    # The twin test: every label that told the element apart from its twins must still be beside it.
    # Accepting a candidate that shows only some of them lets a twin win when the element's own card
    # moved or vanished and the twin now borders a label that was shared between them.
    missing = [anchor for anchor in recorded.anchors if not _shows(candidate, anchor)]
    return f"not next to {missing[0][2]!r}" if missing else None


# Re-exported so callers find the whole API in one place; imported last because matching needs the above.
from browser_agent.dom.matching import LocateResult, locate  # noqa: E402
