"""A click on a step of the menu path the task names, while a later step is in view, is held back,
naming the furthest step in view.

Asked to "Select Loleta>Brynne>Roxanna", the 1.5B model opened Loleta's submenu, then Brynne's, and with
Roxanna in view clicked Loleta again: the click chose Loleta and the run was lost (click-menu: each of
the five development episodes lost in the last stretches, seeds 6, 48 twice, 52 and 54). A path is the
task's words joined by ``>`` ("File > Export > PDF"); a click on the item of one of its steps but the
last, when the item of a later step is in view, is refused, naming that item: the model has already
opened what the click would open. It is refused every time (held once, the model pointed at the next
step, then clicked the first step again: seed 48), since a path's step before its end is never what the
task chooses.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from browser_agent.dom.snapshot import DomSnapshot, ElementNode
from browser_agent.errors import HeldBackError

__all__ = ["check_menu_path"]

_CAP = 40  # a step of a path is a name, not a sentence


def _spaced(text: str) -> str:
    return " ".join(text.split()).lower()


def _path(task: str) -> list[str]:
    """The steps of the path ``task`` names, in lower case, or [] without one. The first step keeps the
    words before it ("select loleta") and the last the words after it ("roxanna and click ok"): an
    item's name matches them at their end and start."""
    parts = [_spaced(part) for part in task.split(">")]
    if len(parts) < 2 or any(not part for part in parts) or any(len(part) > _CAP for part in parts[1:-1]):
        return []
    return parts


def _names(name: str, path: list[str], step: int) -> bool:
    """Whether an item named ``name`` (in lower case) is step ``step`` of ``path``."""
    part = path[step]
    if not name or len(name) > _CAP:
        return False
    if step == 0:
        return re.search(rf"(?<!\w){re.escape(name)}$", part) is not None
    if step == len(path) - 1:
        return re.match(rf"{re.escape(name)}(?!\w)", part) is not None
    return part == name


def check_menu_path(
    index: int,
    node: ElementNode,
    snapshot: DomSnapshot,
    task: str,
    redact: Callable[[str], str],
) -> None:
    """Fail when ``node`` (element ``index``) is the item of a step of the path ``task`` names but the
    last, and the item of a later step is in view.

    Raises:
        HeldBackError: the furthest step's item in view, to click instead.
    """
    path = _path(task)
    name = _spaced(node.name or node.text)
    if not path:
        return
    step = next((i for i in range(len(path) - 1) if _names(name, path, i)), None)
    if step is None:
        return
    items = [n for n in snapshot.selector_map.values() if n is not node and n.frame_id == node.frame_id]
    later = [
        (i, n)
        for i in range(step + 1, len(path))
        for n in items
        if _names(_spaced(n.name or n.text), path, i)
    ]
    if not later:
        return
    _, furthest = max(later, key=lambda found: found[0])
    shown = redact(" ".join((furthest.name or furthest.text).split()))
    raise HeldBackError(
        f"element {index} is a step of the menu path the task names whose items are open already: a click "
        f"on it would choose it. The path goes on to element {furthest.index} ({shown!r}) in view: click "
        "that."
    )
