"""A form the run opened or filled in and never sent, found when the model calls ``done``.

Asked to "forward that email to Cary", the 1.5B model opened the mail, clicked Forward, and called
``done`` with the recipient's field empty and the send icon untouched; asked to reply with a text, it
typed the text and called ``done`` without sending it. A ``done`` is not the end of a form nobody sent.
This finds, on the page the model saw when it called ``done``:

- a text field that appeared on this page address during the run (the run opened its form: a Reply, a
  Forward, an "Add comment"), still empty or filled in by the run;
- beside it (they share one of their nearest three containers), a control that sends it: a submit button,
  a control named Send, Submit or Post (a ``<button type=button>`` of a script's form too), or an icon
  named for sending (``icon=send-forward``);
- that control never clicked in the run, and Enter never pressed.

The done guard (``agent/done_guard.py``) then holds the ``done`` back once per control, naming the field
and the control. A field of the first look at a page (a search box, the archive box of 'Type "rivers"
into the archive box') is never counted, even typed into: the task may ask only to fill it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from urllib.parse import urldefrag

from browser_agent.controller import ActionResult
from browser_agent.controller.actions.refusals import is_text_field, shows_value
from browser_agent.controller.actions.submit_guard import icon_sends, may_send
from browser_agent.dom.snapshot import DomSnapshot, ElementNode

__all__ = ["FormWatch"]

_NEAR = 3  # how many of their nearest containers a field and the control sending it may share
_FILLING = frozenset({"input_text", "select_dropdown_option"})
_SEND_WORDS = frozenset({"send", "submit", "post"})  # a control so named sends, whatever its type


def _sends(node: ElementNode) -> bool:
    """A submit button, a box named for sending, or an icon named for it (``send-forward``)."""
    name = " ".join((node.name or node.text).split()).lower()
    if not name:
        return icon_sends(node)
    return may_send(node) or name in _SEND_WORDS


def _containers(node: ElementNode) -> set[int]:
    """The nearest containers of ``node`` (not itself), by number."""
    return set(node.chain[-1 - _NEAR : -1])


@dataclass
class FormWatch:
    """What the run did to the forms of its pages: the text fields of its first look at each address, the
    fields it filled, the controls it clicked, and whether it pressed Enter."""

    first_fields: dict[str, frozenset[str]] = field(default_factory=dict)
    filled: set[str] = field(default_factory=set)
    clicked: set[str] = field(default_factory=set)
    entered: bool = False

    def look(self, snapshot: DomSnapshot | None) -> None:
        """Remember the text fields of the run's first look at ``snapshot``'s address."""
        if snapshot is None:
            return
        address = urldefrag(snapshot.url)[0]
        if address not in self.first_fields:
            fields = (n.element_id for n in snapshot.selector_map.values() if is_text_field(n))
            self.first_fields[address] = frozenset(fields)

    def note(self, results: Sequence[ActionResult]) -> None:
        """Remember the fields filled, the elements clicked, and an Enter."""
        for result in results:
            if result.error is not None or result.skipped:
                continue
            if result.action == "click_element" and result.element is not None:
                self.clicked.add(result.element.element_id)
            elif result.action in _FILLING and result.element is not None:
                self.filled.add(result.element.element_id)
            elif result.action == "send_keys" and "enter" in (result.extracted_content or "").lower():
                self.entered = True

    def unsent(self, snapshot: DomSnapshot | None, skip: set[str]) -> tuple[ElementNode, ElementNode] | None:
        """A field of ``snapshot`` the run brought up, empty or filled in by the run, and the control beside
        it that sends it, never clicked and not in ``skip``; None when there is none."""
        if snapshot is None or self.entered:
            return None
        first = self.first_fields.get(urldefrag(snapshot.url)[0], frozenset())
        nodes = sorted(snapshot.selector_map.values(), key=lambda n: n.index)
        senders = [
            n for n in nodes if _sends(n) and n.element_id not in self.clicked and n.element_id not in skip
        ]
        for node in nodes:
            if not is_text_field(node):
                continue
            if node.element_id in first:  # the page's own field: a task may ask only to fill it
                continue
            if shows_value(node) and node.element_id not in self.filled:
                continue  # brought up filled in by the page (the mail a Forward quotes), not by the run
            around = _containers(node)
            beside = [s for s in senders if s.frame_id == node.frame_id and around & _containers(s)]
            if beside:  # the one in the field's nearest container: not a search form's button further up
                return node, max(beside, key=lambda sender: _shared(node, sender))
        return None


def _shared(one: ElementNode, other: ElementNode) -> int:
    """How many containers, from the top, ``one`` and ``other`` share."""
    count = 0
    for mine, theirs in zip(one.chain, other.chain, strict=False):
        if mine != theirs:
            break
        count += 1
    return count
