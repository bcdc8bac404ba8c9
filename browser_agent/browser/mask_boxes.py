"""Where secrets show, read from a DevTools ``DOMSnapshot.captureSnapshot`` in Python.

The browser hands over its own record of each document (nodes, field values, layout boxes, open and
closed shadow roots, and the documents of frames in the same renderer) and the secret values are
looked for here, in this process: no value is ever sent to the page or to any script of it.

A box is kept for every password field; every input, text area or select whose value, placeholder or
option text holds a value; and every rendered text node that is part of a place where a value shows.
Text is matched on a whitespace-normalised run of the document's rendered text, so a value split over
several text nodes (``pa<b>ss</b>word``), or shown with its spaces and line breaks collapsed, is found.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Box", "DocumentBoxes", "normalized", "shown_secrets"]

Box = tuple[float, float, float, float]
"""``(x, y, width, height)`` in CSS pixels."""

_SPACES = re.compile(r"\s+")
_FIELDS = ("INPUT", "TEXTAREA")
_OPTION_DEPTH = 3  # a select's text sits in option > select, or option > optgroup > select


def normalized(text: str) -> str:
    """``text`` with every run of whitespace made one space."""
    return _SPACES.sub(" ", text)


@dataclass(frozen=True, slots=True)
class DocumentBoxes:
    """One document of a snapshot: what to black out, in the document's own coordinates.

    Attributes:
        frame_id: The DevTools id of the frame showing the document.
        boxes: Boxes in document coordinates (the viewport's are these minus ``scroll``).
        scroll: How far the document is scrolled, ``(x, y)``.
        frames: ``(backend node id of the iframe, index of its document)`` for each frame of the document
            whose document is in the same snapshot.
    """

    frame_id: str
    boxes: tuple[Box, ...]
    scroll: tuple[float, float]
    frames: tuple[tuple[int, int], ...]


def shown_secrets(snapshot: Mapping[str, Any], values: Sequence[str]) -> list[DocumentBoxes]:
    """Each document of ``snapshot`` (what ``DOMSnapshot.captureSnapshot`` returned) and what to black out."""
    strings: list[str] = snapshot["strings"]
    wanted = sorted({n.strip() for n in (normalized(v) for v in values) if n.strip()})
    return [_document(doc, strings, wanted) for doc in snapshot["documents"]]


class _Document:
    """The parts of one snapshot document the search reads."""

    def __init__(self, doc: Mapping[str, Any], strings: list[str]) -> None:
        nodes = doc["nodes"]
        self.strings = strings
        self.names: list[int] = nodes["nodeName"]
        self.kinds: list[int] = nodes["nodeType"]
        self.parents: list[int] = nodes["parentIndex"]
        self.values: list[int] = nodes["nodeValue"]
        self.attributes: list[list[int]] = nodes["attributes"]
        self.fields = _rare(nodes, "inputValue") | _rare(nodes, "textValue")
        self.layout: dict[int, list[Box]] = {}
        for index, bounds in zip(doc["layout"]["nodeIndex"], doc["layout"]["bounds"], strict=False):
            if len(bounds) == 4 and bounds[2] > 0 and bounds[3] > 0:
                self.layout.setdefault(index, []).append((bounds[0], bounds[1], bounds[2], bounds[3]))

    def text(self, index: int) -> str:
        return self.strings[index] if index >= 0 else ""

    def name(self, node: int) -> str:
        return self.text(self.names[node]).upper()

    def attribute(self, node: int, wanted: str) -> str:
        pairs = self.attributes[node]
        for i in range(0, len(pairs) - 1, 2):
            if self.text(pairs[i]).lower() == wanted:
                return self.text(pairs[i + 1])
        return ""

    def select_of(self, node: int) -> int | None:
        """The rendered ``<select>`` a text node without a box belongs to (an option's text), if any."""
        parent = self.parents[node]
        for _ in range(_OPTION_DEPTH):
            if parent < 0:
                return None
            if self.name(parent) == "SELECT":
                return parent if parent in self.layout else None
            parent = self.parents[parent]
        return None


def _rare(nodes: Mapping[str, Any], key: str) -> dict[int, int]:
    table = nodes.get(key) or {"index": [], "value": []}
    return dict(zip(table["index"], table["value"], strict=False))


def _holds(text: str, wanted: Sequence[str]) -> bool:
    if not text or not wanted:
        return False
    flat = normalized(text)
    return any(w in flat for w in wanted)


def _document(raw: Mapping[str, Any], strings: list[str], wanted: Sequence[str]) -> DocumentBoxes:
    doc = _Document(raw, strings)
    marked: set[int] = set()
    selects: dict[int, list[str]] = {}
    runs: list[tuple[int, int]] = []  # (start in the text, text node) for each rendered text node
    text: list[str] = []
    length = 0
    for node, name_index in enumerate(doc.names):
        if doc.kinds[node] == 3:  # a text node
            value = doc.text(doc.values[node])
            if node not in doc.layout:
                select = doc.select_of(node)
                if select is not None:
                    selects.setdefault(select, []).append(value)
                continue
            piece = normalized(value)
            if piece.startswith(" ") and text and text[-1].endswith(" "):
                piece = piece[1:]
            if piece:
                runs.append((length, node))
                text.append(piece)
                length += len(piece)
        elif doc.text(name_index).upper() in _FIELDS and node in doc.layout:
            kind = doc.attribute(node, "type").lower()
            shown = (doc.text(doc.fields.get(node, -1)), doc.attribute(node, "placeholder"))
            if kind == "password" or any(_holds(t, wanted) for t in shown):
                marked.add(node)
    marked |= {s for s, parts in selects.items() if _holds("".join(parts), wanted)}
    marked |= _text_nodes_showing("".join(text), runs, wanted)
    return DocumentBoxes(
        frame_id=doc.text(raw.get("frameId", -1)),
        boxes=tuple(box for node in sorted(marked) for box in doc.layout.get(node, ())),
        scroll=(float(raw.get("scrollOffsetX", 0) or 0), float(raw.get("scrollOffsetY", 0) or 0)),
        frames=tuple(_frames(raw, doc)),
    )


def _text_nodes_showing(text: str, runs: list[tuple[int, int]], wanted: Sequence[str]) -> set[int]:
    """The text nodes that make up each place where a wanted value shows in ``text``."""
    starts = [start for start, _node in runs]
    found: set[int] = set()
    for value in wanted:
        at = text.find(value)
        while at >= 0:
            first = bisect.bisect_right(starts, at) - 1
            last = bisect.bisect_left(starts, at + len(value)) - 1
            found.update(node for _start, node in runs[max(first, 0) : last + 1])
            at = text.find(value, at + 1)
    return found


def _frames(raw: Mapping[str, Any], doc: _Document) -> list[tuple[int, int]]:
    backend: list[int] = raw["nodes"]["backendNodeId"]
    return [(backend[owner], child) for owner, child in _rare(raw["nodes"], "contentDocumentIndex").items()]
