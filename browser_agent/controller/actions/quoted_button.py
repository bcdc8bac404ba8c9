"""A click on a button other than the one the task quotes word for word, where that one is on the page,
is held back once.

Asked to 'Click on the "Ok" button.', the 1.5B model wrote "Click the 'Okay' button" as its goal and
clicked "okay": the goal guard, which holds the goal against the click, found them in agreement. The task
is the surer word: a click on a button whose name is none of the task's quoted texts is refused once when
exactly one button of the page is named as a quoted text is (in any letter case), naming that button.
Buttons only, both sides: a task that quotes a search term and a Search button is not asking for a
result link to be held. The same click again goes through.
"""

from __future__ import annotations

from collections.abc import Callable
from weakref import WeakKeyDictionary

from browser_agent.controller.actions.advice import was_advised
from browser_agent.controller.actions.refusals import is_button
from browser_agent.controller.actions.task_quotes import quoted_texts
from browser_agent.dom.snapshot import DomSnapshot, ElementNode
from browser_agent.errors import HeldBackError

__all__ = ["check_quoted_button"]

# Per session, the buttons (page address, element id) held back once.
_HELD: WeakKeyDictionary[object, set[tuple[str, str]]] = WeakKeyDictionary()


def _shown(node: ElementNode) -> str:
    """The button's name as the page writes it."""
    return " ".join((node.text or node.name or node.attributes.get("value", "")).split())


def _name(node: ElementNode) -> str:
    return _shown(node).lower()


def check_quoted_button(
    index: int,
    node: ElementNode,
    snapshot: DomSnapshot,
    task: str,
    owner: object,
    redact: Callable[[str], str],
) -> None:
    """Fail, the first time only, when ``node`` (element ``index``) is a button named as none of ``task``'s
    quoted texts and exactly one other button of ``snapshot`` is named as one; ``owner`` (the browser
    session) keeps which buttons were held back.

    Raises:
        ActionError: which button the task quotes, and that the same click again goes through.
    """
    key = (snapshot.url, node.element_id)
    held = _HELD.setdefault(owner, set())
    mine = _name(node)
    if not task or not mine or key in held or not is_button(node) or was_advised(owner, snapshot, node):
        return
    quoted = quoted_texts(task)
    if not quoted or mine in quoted:
        return
    named = [n for n in snapshot.selector_map.values() if is_button(n) and _name(n) in quoted]
    if len(named) != 1 or named[0].element_id == node.element_id:
        return
    target = named[0]
    held.add(key)
    raise HeldBackError(
        f"Not clicked: element {index} is the button '{redact(_shown(node))}', but the task quotes "
        f"'{redact(_shown(target))}', which is element {target.index} word for word. Click element "
        f"{target.index}, or element {index} again if it is the one meant."
    )
