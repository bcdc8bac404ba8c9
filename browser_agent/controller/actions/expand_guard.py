"""A click that would send a form while the part the task asks to expand is still closed is held back
once, naming the closed part.

"Expand the section below and click submit": the 1.5B model clicked Submit at once, the section still
collapsed, in 4 of 16 development episodes, and a sent form cannot be taken back. The first click on a
sending button is refused when the task asks to expand something and the page the model saw has a
collapsed element with a name (``aria-expanded=false``, a closed ``<details>``, an accordion header); a
second click on the same button goes through (the part the task meant may be open already, and the
collapsed one another).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from weakref import WeakKeyDictionary

from browser_agent.controller.actions.refusals import said
from browser_agent.controller.actions.submit_guard import may_send
from browser_agent.dom.snapshot import DomSnapshot, ElementNode
from browser_agent.errors import HeldForNowError

__all__ = ["check_expanded_first"]

_EXPAND = re.compile(r"\b(expand|unfold)", re.IGNORECASE)
_CLOSED = "expanded=false"

# Per session, the buttons (page address, element id) already held back once.
_HELD: WeakKeyDictionary[object, set[tuple[str, str]]] = WeakKeyDictionary()


def check_expanded_first(
    index: int,
    node: ElementNode,
    snapshot: DomSnapshot,
    task: str,
    owner: object,
    redact: Callable[[str], str],
) -> None:
    """Fail, the first time only, when ``node`` sends a form while ``task`` asks to expand something and
    an element of ``snapshot`` is collapsed; ``owner`` (the browser session) keeps the buttons held back.

    Raises:
        ActionError: the collapsed element, and that a second click sends the form anyway.
    """
    if not may_send(node) or not _EXPAND.search(task):
        return
    key = (snapshot.url, node.element_id)
    held = _HELD.setdefault(owner, set())
    closed = None if key in held else _first_closed(snapshot, node)
    if closed is None:
        return
    held.add(key)
    raise HeldForNowError(
        f"element {index} would send the form before what the task asks to expand is open: "
        f"{said(closed, redact, snapshot)} is collapsed; click it first, or click element {index} again to "
        "send the form as it is."
    )


def _first_closed(snapshot: DomSnapshot, button: ElementNode) -> ElementNode | None:
    """The first collapsed element of ``button``'s frame that has a name: a nameless one is an icon or a
    box a widget library took for a header (jQuery UI's accordion makes one of the ``<p>`` holding
    Submit), not a part a task can ask for."""
    for node in sorted(snapshot.selector_map.values(), key=lambda n: n.index):
        if _CLOSED in node.states and node.frame_id == button.frame_id and (node.name or node.text).strip():
            return node
    return None
