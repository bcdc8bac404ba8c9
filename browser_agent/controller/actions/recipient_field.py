"""Typing into the field for whom a message goes to a text without the one the task names is held once.

Asked to "forward that email to Tammi", the 1.5B model clicked Forward, then typed the mail's subject,
``Nibh.``, into the "to:" field the click opened, and sent it (email-inbox seeds 14, 16 and 58): four of
the forwards in the development histories went to a subject line. A field whose label is "to:" (or
"recipient") takes whom the task forwards or sends to (``untyped_text.recipient_for``); a text that does
not hold that name is refused the first time, naming it and the field's index. The same typing again
goes through: the task may mean another address for the same person.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from browser_agent.controller.actions.refusals import named_as
from browser_agent.controller.actions.untyped_text import recipient_for
from browser_agent.controller.context import ActionContext
from browser_agent.dom.snapshot import DomSnapshot, ElementNode
from browser_agent.errors import HeldForNowError

__all__ = ["check_recipient"]

# Per session, the fields (page address, element id) whose typing was held back once.
_HELD: WeakKeyDictionary[object, set[tuple[str, str]]] = WeakKeyDictionary()


def check_recipient(
    index: int, node: ElementNode, text: str, snapshot: DomSnapshot, ctx: ActionContext
) -> None:
    """Fail, the first time only, when ``node`` (element ``index``) is the field for whom the task sends
    to and ``text`` does not hold that name.

    Raises:
        HeldForNowError: the field, and whom the task names.
    """
    if not ctx.task:
        return
    label = named_as(node, str, snapshot)
    whom = recipient_for(label, ctx.task)
    if whom is None or whom.lower().lstrip("@") in text.lower() or ctx.redact(whom) != whom:
        return
    if ctx.redact(text) != text:
        return  # a secret typed by its placeholder is the user's
    key = (snapshot.url, node.element_id)
    held = _HELD.setdefault(ctx.session, set())
    if key in held:
        return
    held.add(key)
    field = ctx.quote(" ".join(label.split()))
    raise HeldForNowError(
        f"Not typed into element {index}: it is the {field} field, and the task sends to {whom!r}: type "
        f"{whom!r} into element {index} (or {ctx.quote(text.strip())} again if you meant it)."
    )
