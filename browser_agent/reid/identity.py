"""Identity: the ``Fingerprint`` record of an element, and the hard rules that say a candidate cannot be it.

A ``Fingerprint`` holds several signals of one element (tag, role, accessible name, text, stable
attributes, ancestors, neighbouring text, position); ``browser_agent.reid.fingerprint`` takes one from a
snapshot. ``identity_conflict`` is the hard gate used by ``browser_agent.reid.matching.locate``: it says
why a candidate cannot be the recorded element (another tag family, another name, another stable id,
another frame, a distinguishing neighbour missing). Pure functions on fingerprints, no snapshot needed.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from browser_agent.reid.labels import label_shown

__all__ = [
    "BUTTON_INPUT_TYPES",
    "FORMAT_VERSION",
    "STRONG_KEYS",
    "Fingerprint",
    "anchor_shown",
    "identity_conflict",
    "side_labels",
]

FORMAT_VERSION = 1
# Attributes that name an element on purpose; a different value means a different element.
STRONG_KEYS = ("id", "name", "data-testid", "data-test", "data-qa", "data-cy", "href", "for")
BUTTON_INPUT_TYPES = frozenset({"button", "submit", "reset", "image"})
_SEQUENCES = ("classes", "ancestors", "frame_path", "position", "before", "after", "group", "twin_cards")


@dataclass(frozen=True, slots=True)
class Fingerprint:
    """The signals that identify one element, JSON-safe through ``to_dict``/``from_dict``.

    ``before``/``after`` are the nearest texts or element names on each side in reading order.
    ``anchors`` are set only when the page held twins of the element (same identity) when it was
    recorded: ``(side, distance, label)`` for the neighbouring texts that told it apart; a candidate must
    show each of them on the same side, at most one step further away. ``group`` is set instead when
    the twins sat in other cards or rows: up to two labels of the element's own card, ``group_depth``
    levels above it, that no twin's card showed; a candidate's card must show one of them.
    ``twin_cards`` holds, beside ``group``, one label of each twin's own card that no other card showed:
    it tells which look-alikes on a later page are the twins, so that when the element's card lost it,
    the one look-alike no twin's card accounts for can still be recognised. Empty when some twin's card
    had no such label.
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
    twin_cards: tuple[str, ...] = ()

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
        for key in _SEQUENCES:
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
            twin_cards=tuple(str(label) for label in data.get("twin_cards", ())),
        )


def _family(tag: str, input_type: str | None) -> str:
    if tag == "input" and (input_type or "") in BUTTON_INPUT_TYPES:
        return "button"
    if tag == "input" and input_type in ("checkbox", "radio"):
        return input_type
    return tag


def side_labels(fingerprint: Fingerprint, side: str) -> tuple[str, ...]:
    return fingerprint.before if side == "before" else fingerprint.after


def anchor_shown(fingerprint: Fingerprint, anchor: tuple[str, int, str]) -> bool:
    """Whether the label is on the given side within one step more than recorded (a banner may slip in)."""
    side, distance, label = anchor
    return label_shown(label, side_labels(fingerprint, side)[: distance + 1])


def _strong_match(recorded: Fingerprint, candidate: Fingerprint) -> bool:
    return any(
        value is not None and value == candidate.attribute(key)
        for key in STRONG_KEYS
        if key != "href" and (value := recorded.attribute(key)) is not None
    )


def identity_conflict(recorded: Fingerprint, candidate: Fingerprint) -> str | None:
    """Why ``candidate`` cannot be the recorded element, or None when nothing rules it out."""
    if recorded.family != candidate.family:
        return f"another kind of element (<{candidate.tag}>)"
    if recorded.role and candidate.role and recorded.role != candidate.role:
        return f"another role ({candidate.role})"
    for key in STRONG_KEYS:
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
    missing = [anchor for anchor in recorded.anchors if not anchor_shown(candidate, anchor)]
    return f"not next to {missing[0][2]!r}" if missing else None
