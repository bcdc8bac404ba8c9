"""A click on a nameless icon the task does not name, while a control named as the verb of one of the
task's steps is in view, is held back once, naming that control.

Asked to "find the email by Audrey and forward that email to Hedy", the 1.5B model opened the mail and
then clicked the star icon at its index of the step before, then the trash icon, and reached Forward
with no step left to fill in "to:" (email-inbox, development seed 0). A task that says "forward", "reply"
or "delete" as a step, and a ``<span>Forward</span>`` in view, tell which control comes next; an icon
whose name shares no word with the task (``icon=star``) is then likely a slip. An icon that sends (a
paper plane, ``icon=post``) is no slip: it ends the step that control began ("add a comment", then post
it). The same click again goes through (the task may need it after all).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from weakref import WeakKeyDictionary

from browser_agent.controller.actions.submit_guard import icon_sends
from browser_agent.dom.snapshot import DomSnapshot, ElementNode
from browser_agent.errors import HeldBackError

__all__ = ["check_step_verb", "commanded"]

_FIELDS = frozenset({"input", "textarea", "select"})
_FIELD_ROLES = frozenset({"textbox", "searchbox", "combobox", "spinbutton", "listbox"})
_LONGEST_NAME = 30  # a longer "name" is a sentence, not what a task calls a control by
_WORD = re.compile(r"[^\W\d_]{3,}")

# Per session, the controls (page address, element id) held back once.
_HELD: WeakKeyDictionary[object, set[tuple[str, str]]] = WeakKeyDictionary()


def commanded(name: str, task: str) -> bool:
    """Whether ``task`` (spaced, lower case) gives ``name`` as the verb of one of its steps: at its start,
    or after "and", "then" or a comma ("Find the email by Hilary and forward that email to Auroora" and
    an element named Forward)."""
    return re.search(rf"(?:^|\band |\bthen |, )(?:then )?{re.escape(name)}(?!\w)", task) is not None


def check_step_verb(
    index: int,
    node: ElementNode,
    snapshot: DomSnapshot,
    task: str,
    owner: object,
    redact: Callable[[str], str],
) -> None:
    """Fail, the first time only, when ``node`` (element ``index``) is a nameless icon sharing no word
    with ``task``, and another element in view, no field, is named as the verb of one of its steps;
    ``owner`` (the browser session) keeps which controls were held back.

    Raises:
        HeldBackError: the control the task names.
    """
    key = (snapshot.url, node.element_id)
    held = _HELD.setdefault(owner, set())
    if not task or key in held or not node.icon or _spaced(node.name or node.text) or icon_sends(node):
        return  # a sending icon ends a step the task's control began ("add a comment", then post it)
    words = _spaced(task)
    if {w.lower() for w in _WORD.findall(node.icon)} & set(_WORD.findall(words)):
        return  # "click the star icon", a send icon drawn "send-forward": the task names it
    named = next(
        (
            other
            for other in sorted(snapshot.selector_map.values(), key=lambda n: n.index)
            if other is not node
            and other.tag not in _FIELDS
            and other.role not in _FIELD_ROLES
            and other.frame_id == node.frame_id
            and 2 <= len(name := _spaced(other.name or other.text)) <= _LONGEST_NAME
            and commanded(name, words)
        ),
        None,
    )
    if named is None:
        return
    held.add(key)
    name = redact(" ".join((named.name or named.text).split()))
    raise HeldBackError(
        f"element {index} (icon {redact(node.icon)}) is not what the task asks for; the task says to "
        f'{name.lower()}, and element {named.index} is "{name}": click element {named.index} instead, or '
        f"element {index} again if it is the one meant."
    )


def _spaced(text: str) -> str:
    return " ".join(text.split()).lower()
