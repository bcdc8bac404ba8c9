"""A click that would check a box the task does not name, where it names others, is held back once.

Asked to "Select nothing and click Submit", the 1.5B model checked the first box all the same, then the
second. A checkbox (or switch) whose label the task does not hold is not checked on the first click when
the task names the labels of other boxes on the page, or asks to select nothing: the action fails,
naming the boxes the task names. The same click again checks it. A task that names none of the page's
boxes ("select the words that mean the same as ...") is never held: it describes its boxes, and the
model reads the description.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from weakref import WeakKeyDictionary

from browser_agent.controller.actions.refusals import is_button
from browser_agent.controller.actions.toggle_guard import is_toggle
from browser_agent.dom.snapshot import DomSnapshot, ElementNode
from browser_agent.errors import HeldBackError

__all__ = ["check_box_named"]

# Per session, the boxes (page address, element id) held back once.
_HELD: WeakKeyDictionary[object, set[tuple[str, str]]] = WeakKeyDictionary()
_NOTHING = re.compile(r"\b(?:select|check|tick|choose)\s+(?:nothing|none)\b", re.IGNORECASE)
_SHOWN = 6  # the boxes a refusal names at most


def _label(node: ElementNode) -> str:
    return " ".join((node.name or node.text).split())


def _holds(task: str, label: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(label)}(?!\w)", task, re.IGNORECASE) is not None


def check_box_named(
    index: int,
    node: ElementNode,
    snapshot: DomSnapshot,
    task: str,
    owner: object,
    redact: Callable[[str], str],
) -> None:
    """Fail, the first time only, when a click on ``node`` (element ``index``) would check a box ``task``
    does not name, and ``task`` names other boxes of ``snapshot`` or asks to select nothing; ``owner``
    (the browser session) keeps which boxes were held back.

    Raises:
        ActionError: the boxes the task names, and that the same click again checks this one.
    """
    key = (snapshot.url, node.element_id)
    held = _HELD.setdefault(owner, set())
    label = _label(node)
    if not task or key in held or not is_toggle(node) or not label or _holds(task, label):
        return
    if any(state in ("checked", "checked=true") for state in node.states):
        return  # unchecking: the toggle guard's to judge
    boxes = sorted(
        (n for n in snapshot.selector_map.values() if is_toggle(n) and _label(n)), key=lambda n: n.index
    )
    named = [n for n in boxes if n.element_id != node.element_id and _holds(task, _label(n))]
    nothing = _NOTHING.search(task)
    if not named and nothing is None:
        return
    held.add(key)
    mine = redact(label)
    if named:
        said = ", ".join(f"{n.index} ('{redact(_label(n))}')" for n in named[:_SHOWN])
        raise HeldBackError(
            f"Not clicked: element {index} ('{mine}') is a box the task does not name, and the task names "
            f"element{'s' if len(named) > 1 else ''} {said}. Go on with the rest of the task, or click "
            f"element {index} again if it is meant."
        )
    asked = redact(nothing.group(0)).lower() if nothing is not None else ""
    button = _button_named(snapshot, task)
    then = (
        f"click element {button.index} ('{redact(_label(button))}') as it asks next"
        if button is not None
        else "go on with the rest of the task"
    )
    raise HeldBackError(
        f"Not clicked: element {index} ('{mine}') is a box, and the task asks to {asked}: leave the boxes as "
        f"they are and {then}, or click element {index} again if it is meant."
    )


def _button_named(snapshot: DomSnapshot, task: str) -> ElementNode | None:
    """The first button of ``snapshot`` whose name ``task`` holds ("... and click Submit")."""
    for node in sorted(snapshot.selector_map.values(), key=lambda n: n.index):
        if is_button(node) and _label(node) and _holds(task, _label(node)):
            return node
    return None
