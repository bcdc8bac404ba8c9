"""Which texts and fields of a frame show a secret, decided here, in this process.

A frame's reader (``browser.mask_frames``) hands over the raw text of every text node in document order
(open shadow roots included) and, per field, whether it is a password field and what it shows (its
value, placeholder or selected option). The secret values never go the other way.

Text is matched on one whitespace-normalised run of the frame's text, so a value split over several
text nodes (``pa<b>ss</b>word``), or shown with its spaces and line breaks collapsed, is found; every
text node that makes up a place where a value shows is kept.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["FieldText", "Shown", "normalized", "shown_secrets"]

_SPACES = re.compile(r"\s+")


def normalized(text: str) -> str:
    """``text`` with every run of whitespace made one space."""
    return _SPACES.sub(" ", text)


@dataclass(frozen=True, slots=True)
class FieldText:
    """One input, text area or select: whether it hides what is typed, and the texts it shows."""

    password: bool
    shows: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Shown:
    """The positions, in the lists given to ``shown_secrets``, of the texts and fields to black out."""

    texts: tuple[int, ...] = ()
    fields: tuple[int, ...] = ()


def shown_secrets(texts: Sequence[str], fields: Sequence[FieldText], values: Sequence[str]) -> Shown:
    """The text nodes and fields of one frame that show one of ``values``; password fields always."""
    wanted = sorted({n.strip() for n in (normalized(v) for v in values) if n.strip()})
    hidden = [
        i for i, f in enumerate(fields) if f.password or any(_holds(normalized(t), wanted) for t in f.shows)
    ]
    return Shown(texts=tuple(sorted(_text_nodes_showing(texts, wanted))), fields=tuple(hidden))


def _holds(text: str, wanted: Sequence[str]) -> bool:
    return any(w in text for w in wanted)


def _text_nodes_showing(texts: Sequence[str], wanted: Sequence[str]) -> set[int]:
    """The text nodes making up each place where a wanted value shows in the frame's normalised text."""
    if not wanted:
        return set()
    pieces: list[str] = []
    starts: list[int] = []  # where each kept piece starts in the joined text
    owners: list[int] = []  # the text node each kept piece comes from
    length = 0
    for index, raw in enumerate(texts):
        piece = normalized(raw)
        if piece.startswith(" ") and pieces and pieces[-1].endswith(" "):
            piece = piece[1:]  # one space where two nodes meet in whitespace, as on screen
        if piece:
            pieces.append(piece)
            starts.append(length)
            owners.append(index)
            length += len(piece)
    text = "".join(pieces)
    found: set[int] = set()
    for value in wanted:
        at = text.find(value)
        while at >= 0:
            first = bisect.bisect_right(starts, at) - 1
            last = bisect.bisect_left(starts, at + len(value)) - 1
            found.update(owners[max(first, 0) : last + 1])
            at = text.find(value, at + 1)
    return found
