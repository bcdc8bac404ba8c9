"""Typing planned into the field a click opens, in the same step: "click Reply, then type the answer".

A model that plans both actions at once cannot know the index of a field that does not exist yet; the
1.5B model named the element it clicked (``click_element(3)`` on Reply, then ``input_text(3, ...)``),
or one it guessed. The typing was then skipped ("new elements appeared; indices may differ"), the model
saw its text nowhere, and in the next steps closed the reply and called the task done.

When the click opened exactly one empty text field, and the typing names the element clicked, an element
that is no text field, or an index the page the model saw did not have, the text goes into the field the
click opened, and the result says so. An index of a text field the model saw is never moved (it may be
the one meant); a text with a ``<secret>`` placeholder is never moved (a secret goes only where the model
put it).
"""

from __future__ import annotations

from browser_agent.controller.action_types import ActionModel, ActionResult
from browser_agent.controller.actions.refusals import is_text_field, shows_value
from browser_agent.dom.snapshot import DomSnapshot, ElementNode

__all__ = ["opened_field"]

_SECRET = "<secret>"


def opened_field(
    clicked: ActionResult, following: ActionModel, seen: DomSnapshot, fresh: DomSnapshot
) -> ElementNode | None:
    """The one empty text field of ``fresh`` that the click of ``clicked`` opened, when ``following`` is
    typing meant for it (see the module's docstring); None otherwise."""
    if clicked.action != "click_element" or clicked.error is not None or clicked.element is None:
        return None
    if following.action != "input_text" or _SECRET in str(getattr(following, "text", "")):
        return None
    index = following.element_index()
    named = seen.selector_map.get(index) if index is not None else None
    if named is not None and named.element_id != clicked.element.element_id and is_text_field(named):
        return None
    opened = [
        node
        for node in fresh.selector_map.values()
        if node.element_id not in seen.element_ids and is_text_field(node) and not shows_value(node)
    ]
    return opened[0] if len(opened) == 1 else None
