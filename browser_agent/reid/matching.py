"""Re-locate a fingerprinted element in a fresh snapshot, or say clearly why not.

Every element is first passed through the hard gate (``identity_conflict``): another tag family, name,
stable id, frame or missing distinguishing context rules it out whatever else matches; when the element
was told apart from its twins by its card or row, a candidate's own card must show one of the recorded
labels (``browser_agent.reid.groups``). Survivors are scored on weighted signals; the best is returned
only when it is above ``threshold`` and ahead of the runner-up by ``margin``, or, when it is the only
element on the page that can be the recorded one, above ``LONE_THRESHOLD``. A wrong element is a bug,
an abstention is not: when in doubt, abstain.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Literal

from browser_agent.dom.snapshot import DomSnapshot, ElementNode
from browser_agent.reid.fingerprint import raw_fingerprint
from browser_agent.reid.groups import CardIndex
from browser_agent.reid.identity import Fingerprint, identity_conflict
from browser_agent.reid.labels import label_shown

__all__ = ["DEFAULT_MARGIN", "DEFAULT_THRESHOLD", "LONE_THRESHOLD", "LocateResult", "locate", "similarity"]

DEFAULT_THRESHOLD = 0.6
# The lowest score accepted for a candidate that is the only one on the page that can be the element.
LONE_THRESHOLD = 0.45
DEFAULT_MARGIN = 0.08
_TOP = 3
# Weights of each signal; signals the recorded element lacked are left out of the denominator.
_WEIGHTS = {
    "name": 0.22,
    "text": 0.08,
    "role": 0.04,
    "attributes": 0.2,
    "classes": 0.06,
    "ancestors": 0.1,
    "context": 0.16,
    "card": 0.16,
    "sibling": 0.04,
    "position": 0.1,
}

Status = Literal["found", "not_found", "ambiguous"]


@dataclass(frozen=True, slots=True)
class LocateResult:
    """The outcome of ``locate``: the element when it is clearly the best, else why none was chosen."""

    node: ElementNode | None
    score: float
    status: Status
    reason: str
    candidates: tuple[tuple[int, float], ...] = ()


def locate(
    fingerprint: Fingerprint,
    snapshot: DomSnapshot,
    *,
    threshold: float = DEFAULT_THRESHOLD,
    margin: float = DEFAULT_MARGIN,
) -> LocateResult:
    """Find the element ``fingerprint`` was taken from in ``snapshot``, abstaining when unsure.

    A candidate that stands alone (see ``_Field``) is accepted down to ``LONE_THRESHOLD`` when that is
    lower than ``threshold``.

    Args:
        fingerprint: The recorded element.
        snapshot: The page as it is now.
        threshold: The lowest score (0-1) accepted for the best candidate.
        margin: How far the best must lead the runner-up; closer than this is ``ambiguous``.
    """
    field = _field(fingerprint, snapshot)
    scored = sorted(field.scored, key=lambda pair: (-pair[0], pair[1].index))
    top = tuple((node.index, score) for score, node in scored[:_TOP])
    target = fingerprint.describe()
    if not scored:
        seen = f"; look-alikes ruled out: {', '.join(field.rejected)}" if field.rejected else ""
        return LocateResult(None, 0.0, "not_found", f"not found: no element can be {target}{seen}", top)
    best_score, best = scored[0]
    if field.eliminated and best_score >= min(threshold, LONE_THRESHOLD):
        reason = f"found {_label(best, best_score)}, the one look-alike that no twin's card accounts for"
        return LocateResult(best, best_score, "found", reason, top)
    if best_score < threshold:
        if field.alone and best_score >= min(threshold, LONE_THRESHOLD):
            reason = f"found {_label(best, best_score)}, the only one that can be {target}"
            return LocateResult(best, best_score, "found", reason, top)
        reason = f"not found: best candidate {_label(best, best_score)} is below {threshold:.2f}"
        return LocateResult(None, best_score, "not_found", reason, top)
    close = [(score, node) for score, node in scored if best_score - score < margin]
    if len(close) > 1:
        listed = ", ".join(_label(node, score) for score, node in close[:_TOP])
        reason = f"ambiguous: {len(close)} candidates within {margin:.2f} for {target} — {listed}"
        return LocateResult(None, best_score, "ambiguous", reason, top)
    return LocateResult(best, best_score, "found", f"found {_label(best, best_score)}", top)


@dataclass(frozen=True, slots=True)
class _Field:
    """The candidates that passed every gate with their scores, why the nearest look-alikes did not, and
    whether the one candidate left stands alone.

    A candidate stands alone when it is the only element on the page that can be the recorded one: no
    look-alike at all (same family, name, role, frame), or every look-alike sits in a card or row of
    its own that is not the recorded element's. When the recorded card lost the element (it moved out,
    and so failed the card test), the one look-alike that none of the recorded twins' cards accounts for
    stands alone, provided the page holds exactly as many look-alikes as when it was recorded.
    """

    scored: list[tuple[float, ElementNode]]
    rejected: list[str]
    alone: bool = False
    eliminated: bool = False  # the one candidate failed the card test and stands alone by elimination


def _field(fingerprint: Fingerprint, snapshot: DomSnapshot) -> _Field:
    survivors, rejected = _survivors(fingerprint, snapshot)
    if fingerprint.group:
        return _card_gate(fingerprint, snapshot, survivors, rejected)
    scored = [(round(similarity(fingerprint, candidate), 4), node) for node, candidate in survivors]
    return _Field(scored, rejected[:_TOP], alone=len(survivors) == 1)


def _survivors(
    fingerprint: Fingerprint, snapshot: DomSnapshot
) -> tuple[list[tuple[ElementNode, Fingerprint]], list[str]]:
    """The look-alikes: every element that passes the identity gate; and why the nearest others did not."""
    survivors: list[tuple[ElementNode, Fingerprint]] = []
    by_name: list[str] = []
    others: list[str] = []
    for node in snapshot.selector_map.values():
        candidate = raw_fingerprint(node, snapshot)
        conflict = identity_conflict(fingerprint, candidate)
        if conflict is None:
            survivors.append((node, candidate))
        elif fingerprint.family == candidate.family:
            # Look-alikes by name first: "another name" says the least about why the element is missing.
            (by_name if candidate.name == fingerprint.name else others).append(f"[{node.index}] {conflict}")
    return survivors, by_name + others


def _card_gate(
    fingerprint: Fingerprint,
    snapshot: DomSnapshot,
    survivors: list[tuple[ElementNode, Fingerprint]],
    rejected: list[str],
) -> _Field:
    """Keep the look-alikes whose own card shows a recorded card label; see whether one stands alone."""
    peers, cards = [node for node, _ in survivors], CardIndex(snapshot)
    counts = cards.label_counts(peers, fingerprint.group_depth)
    scored: list[tuple[float, ElementNode]] = []
    outside: list[str] = []
    unaccounted: list[tuple[ElementNode, Fingerprint]] = []
    twins_seen: Counter[str] = Counter()
    for node, candidate in survivors:
        labels = cards.own_card(node, fingerprint.group_depth, peers, counts)
        share = _card_share(fingerprint, labels)
        if not isinstance(share, str):
            scored.append((round(similarity(fingerprint, candidate, in_card=share), 4), node))
            continue
        outside.append(f"[{node.index}] {share}")
        twin = next((t for t in fingerprint.twin_cards if labels and label_shown(t, labels)), None)
        if twin is None:
            unaccounted.append((node, candidate))
        twins_seen[twin or ""] += 1
    rejected = (outside + rejected)[:_TOP]
    if scored:
        return _Field(scored, rejected, alone=len(scored) == 1 and not unaccounted)
    as_recorded = len(survivors) == fingerprint.twins + 1 and all(n == 1 for t, n in twins_seen.items() if t)
    if len(unaccounted) == 1 and fingerprint.twin_cards and as_recorded:
        node, candidate = unaccounted[0]
        score = round(similarity(fingerprint, candidate), 4)
        return _Field([(score, node)], rejected, alone=True, eliminated=True)
    return _Field([], rejected)


def _card_share(fingerprint: Fingerprint, labels: list[str] | None) -> float | str:
    """The share of the recorded card labels that a candidate's own card or row (``labels``) shows, or
    why it cannot be the recorded element's card (there is none, or it shows none of those labels)."""
    if labels is None:
        return "not in a card or row of its own"
    shown = sum(1 for label in fingerprint.group if label_shown(label, labels))
    if not shown:
        return f"not in the card or row of {fingerprint.group[0]!r}"
    return shown / len(fingerprint.group)


def _label(node: ElementNode, score: float) -> str:
    name = node.name or node.text
    return f"[{node.index}] <{node.tag}> {name[:40]!r} {score:.2f}"


def similarity(recorded: Fingerprint, candidate: Fingerprint, *, in_card: float | None = None) -> float:
    """A 0-1 score of how well ``candidate`` matches ``recorded``, over the signals ``recorded`` has.

    ``in_card`` is the share of the recorded card labels that the candidate's own card shows, when the
    caller checked it (it needs the whole snapshot).
    """
    parts: dict[str, float | None] = {
        "card": in_card,
        "name": _equal(recorded.name, candidate.name) if recorded.name else None,
        "text": _equal(recorded.text, candidate.text) if recorded.text else None,
        "role": _equal(recorded.role or "", candidate.role or "") if recorded.role else None,
        "attributes": _attribute_score(recorded, candidate),
        "classes": _jaccard(recorded.classes, candidate.classes) if recorded.classes else None,
        "ancestors": _sequence_score(recorded.ancestors, candidate.ancestors) if recorded.ancestors else None,
        "context": _context_score(recorded, candidate),
        "sibling": 1.0 if recorded.sibling_index == candidate.sibling_index else 0.0,
        "position": _position_score(recorded.position, candidate.position),
    }
    total = weight = 0.0
    for key, value in parts.items():
        if value is not None:
            total += _WEIGHTS[key] * value
            weight += _WEIGHTS[key]
    return total / weight if weight else 0.0


def _equal(a: str, b: str) -> float:
    return 1.0 if a == b else 0.0


def _jaccard(a: tuple[str, ...], b: tuple[str, ...]) -> float:
    union = set(a) | set(b)
    return len(set(a) & set(b)) / len(union) if union else 1.0


def _attribute_score(recorded: Fingerprint, candidate: Fingerprint) -> float | None:
    if not recorded.attributes:
        return None
    theirs = dict(candidate.attributes)
    hits = sum(1 for key, value in recorded.attributes if theirs.get(key) == value)
    return hits / len(recorded.attributes)


def _sequence_score(a: tuple[str, ...], b: tuple[str, ...]) -> float:
    """Longest common subsequence ratio: a wrapper inserted in the chain costs little, a new home a lot."""
    if not a and not b:
        return 1.0
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            table[i + 1][j + 1] = table[i][j] + 1 if x == y else max(table[i][j + 1], table[i + 1][j])
    return 2 * table[len(a)][len(b)] / (len(a) + len(b))


def _context_score(recorded: Fingerprint, candidate: Fingerprint) -> float | None:
    """Share of the recorded neighbouring labels found near the candidate, nearer ones weighing more."""
    if not recorded.before and not recorded.after:
        return None
    total = got = 0.0
    for mine, theirs in ((recorded.before, candidate.before), (recorded.after, candidate.after)):
        for distance, label in enumerate(mine):
            weight = 1.0 / (distance + 1)
            total += weight
            if label in theirs:
                got += weight
    return got / total if total else None


def _position_score(a: tuple[float, float], b: tuple[float, float]) -> float:
    distance = abs(a[0] - b[0]) + abs(a[1] - b[1])
    return max(0.0, 1.0 - 2.0 * distance)
