"""Identity: the hard rules that say a candidate cannot be the element a ``Fingerprint`` records.

A ``Fingerprint`` (``browser_agent.record.fingerprint``, re-exported here: the run record keeps it) holds
several signals of one element (tag, role, accessible name, text, stable attributes, ancestors,
neighbouring text, position); ``browser_agent.reid.fingerprint`` takes one from a snapshot.
``identity_conflict`` is the hard gate used by ``browser_agent.reid.matching.locate``: it says why a
candidate cannot be the recorded element (another tag family, another name, another stable id, another
frame, a distinguishing neighbour missing). Pure functions on fingerprints, no snapshot needed.
"""

from __future__ import annotations

from browser_agent.record.fingerprint import BUTTON_INPUT_TYPES, FORMAT_VERSION, Fingerprint
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

# Attributes that name an element on purpose; a different value means a different element.
STRONG_KEYS = ("id", "name", "data-testid", "data-test", "data-qa", "data-cy", "href", "for")


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
