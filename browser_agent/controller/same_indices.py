"""Whether an index the model chose still means what it saw, after the page changed under a step.

A list of actions stops when new elements appear before an action that names an index ("indices may
differ"). Often they do not: a toast or a list came in after the element, or the page drew the same
elements anew. Asked to "enter "Dolores", press Search, then click the 5th result", the 1.5B model typed
and searched again with the results already shown, then clicked; the search drew the same results in new
elements, the click was skipped, and the step was lost (in 2 of 2 search-engine losses looked at).

An index still means the same element when the view reads the same in both captures from its top to
that element: every element before it and itself (tag, role, name, text, attributes, icon and frame),
and the text between them. An element that appeared before it, one that went, one that now reads
otherwise (a covered button drops out of the view), or other text around the same buttons (a panel
scrolled to other people's "Call" buttons) shifts or changes it, and the action waits for the model.
"""

from __future__ import annotations

from browser_agent.dom.snapshot import DomSnapshot, ElementNode, TextNode

__all__ = ["same_up_to"]


def _reads(item: ElementNode | TextNode) -> tuple[object, ...]:
    if isinstance(item, TextNode):
        return ("text", item.text, item.frame_id)
    node = item
    return (
        node.index,
        node.tag,
        node.role,
        node.name,
        node.text,
        tuple(sorted(node.attributes.items())),
        node.icon,
        node.frame_path,
    )


def same_up_to(seen: DomSnapshot, fresh: DomSnapshot, index: int) -> bool:
    """Whether ``seen`` and ``fresh`` read the same from the top of the view to the element ``index``."""
    if index not in seen.selector_map:
        return False
    for before, now in zip(seen.items, fresh.items, strict=False):
        if _reads(before) != _reads(now):
            return False
        if isinstance(before, ElementNode) and before.index == index:
            return True
    return False
