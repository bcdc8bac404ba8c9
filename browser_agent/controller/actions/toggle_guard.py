"""A click that would uncheck a box this run checked is held back once.

Asked to "Select iaGP, pM1, a1, zwJtn and click Submit", a small model clicked its boxes in one step, then
sent the same clicks again in the next: each box it had checked was unchecked, and the form was sent
with the wrong boxes. A checkbox or switch that an action of the session checked, and that is still
checked, is not unchecked on the first click: the action fails, saying so. The same click again unchecks
it. A task that asks to uncheck or clear something is never held.
"""

from __future__ import annotations

import re
from weakref import WeakKeyDictionary

from browser_agent.dom.snapshot import DomSnapshot, ElementNode
from browser_agent.errors import HeldBackError

__all__ = ["check_not_unchecking", "is_toggle", "note_checked"]

# Per session, the boxes (page address, element id) an action checked, and those held back once.
_CHECKED: WeakKeyDictionary[object, set[tuple[str, str]]] = WeakKeyDictionary()
_HELD: WeakKeyDictionary[object, set[tuple[str, str]]] = WeakKeyDictionary()

_TOGGLES = frozenset({"checkbox", "switch", "menuitemcheckbox"})
# Words of a task that asks to take something off: then a click on a checked box is meant.
_UNDOING = re.compile(
    r"\b(?:un(?:check|tick|select|mark|set|subscribe)|de-?select|clear|toggle|disable"
    r"|(?:turn|switch)\w* off)",
    re.IGNORECASE,
)


def is_toggle(node: ElementNode) -> bool:
    """Whether a click on ``node`` turns it on or off (a checkbox or a switch; a radio only turns on)."""
    kind = node.attributes.get("type", "").lower()
    return (node.tag == "input" and kind == "checkbox") or node.role in _TOGGLES


def note_checked(owner: object, url: str, element_id: str, checked: bool) -> None:
    """Remember whether an action left the box ``element_id`` on ``url`` checked."""
    boxes = _CHECKED.setdefault(owner, set())
    if checked:
        boxes.add((url, element_id))
    else:
        boxes.discard((url, element_id))


def check_not_unchecking(
    index: int, label: str, node: ElementNode, snapshot: DomSnapshot, task: str, owner: object
) -> None:
    """Fail, the first time only, when a click on ``node`` (element ``index``, its redacted name ``label``)
    would uncheck a box an action of this session checked, and ``task`` asks to undo nothing.

    Raises:
        ActionError: that the box is checked already, and that the same click again unchecks it.
    """
    key = (snapshot.url, node.element_id)
    if not is_toggle(node) or key not in _CHECKED.get(owner, set()) or key in _HELD.get(owner, set()):
        return
    if not any(state in ("checked", "checked=true") for state in node.states) or _UNDOING.search(task):
        return
    _HELD.setdefault(owner, set()).add(key)
    raise HeldBackError(
        f"element {index} ({label}) is checked already: an earlier action of this run checked it, and "
        f"a click now would uncheck it. Go on with the rest of the task, or click element {index} again to "
        "uncheck it."
    )
