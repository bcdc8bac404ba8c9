"""The ``Fingerprint`` record of an element as a run keeps it: the signals that find the element again,
saved with each step (``to_dict``/``from_dict``).

Taking one from a snapshot and matching it against a later page is ``browser_agent.reid``'s; this is the
data alone, so that a saved run loads without the page machinery.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

__all__ = ["BUTTON_INPUT_TYPES", "FORMAT_VERSION", "Fingerprint"]

FORMAT_VERSION = 1
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
