"""The elements a refusal told the model to click: another guard does not hold such a click back.

Asked for "the 2nd search result", the model clicked the 1st; the place guard answered "the 2nd result is
element 3: click element 3". The model's next goal read "Try clicking the 2nd result on page 1", and the
goal guard, finding the page link "1" in it, held the click on element 3 back: the run was told to do a
thing and then refused it, and ran out of steps. A refusal that names the element to click records it
here, per session and page address; a guard that second-guesses the model's choice lets such a click
through.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from browser_agent.dom.snapshot import DomSnapshot, ElementNode

__all__ = ["advise", "was_advised"]

# Per session, the elements (page address, element id) a refusal told the model to click.
_ADVISED: WeakKeyDictionary[object, set[tuple[str, str]]] = WeakKeyDictionary()


def advise(owner: object, snapshot: DomSnapshot, node: ElementNode) -> None:
    """Record that a refusal on ``snapshot`` told the model to click ``node``."""
    _ADVISED.setdefault(owner, set()).add((snapshot.url, node.element_id))


def was_advised(owner: object, snapshot: DomSnapshot, node: ElementNode) -> bool:
    """Whether a refusal on the page of ``snapshot`` told the model to click ``node``."""
    return (snapshot.url, node.element_id) in _ADVISED.get(owner, set())
