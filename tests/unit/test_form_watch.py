"""Which control sends a form the run brought up: one beside its field (a shared near container), named
for sending or drawn as a send icon; a close icon beside it is none."""

from __future__ import annotations

from dataclasses import replace

from browser_agent.agent.unsent_form import FormWatch
from browser_agent.dom.snapshot import DomSnapshot, ElementNode, Rect


def _node(index: int, tag: str, chain: tuple[int, ...], name: str = "", icon: str = "") -> ElementNode:
    return ElementNode(
        index=index,
        element_id=f"e{index}",
        tag=tag,
        role=None,
        name=name,
        text="",
        attributes={},
        states=(),
        rect=Rect(x=0, y=0, width=10, height=10),
        chain=chain,
        icon=icon,
    )


def test_an_icon_named_for_sending_sends_the_form_beside_it() -> None:
    field = _node(0, "input", (1, 2, 5, 6, 7))
    icon = _node(1, "span", (1, 2, 5, 8), icon="send-forward")
    closer = _node(2, "span", (1, 2, 5, 9), icon="close-forward")
    before = DomSnapshot("http://127.0.0.1/mail", "", (), {})
    after = DomSnapshot("http://127.0.0.1/mail#open", "", (), {0: field, 1: icon, 2: closer})
    watch = FormWatch()
    watch.look(before)
    assert watch.unsent(after, set()) == (field, icon)
    assert watch.unsent(after, {"e1"}) is None  # held back once already


def test_a_field_the_page_filled_in_as_it_came_up_is_not_the_form_left_unsent() -> None:
    """A Forward's body comes up holding the mail: the empty "to" field beside it is what is left."""
    body = replace(_node(0, "textarea", (1, 2, 5, 6, 7)), states=('value="The figures are attached."',))
    send = _node(1, "span", (1, 2, 5, 8), icon="send-forward")
    to = _node(2, "input", (1, 2, 5, 9, 10))
    watch = FormWatch()
    watch.look(DomSnapshot("http://127.0.0.1/mail", "", (), {}))
    opened = DomSnapshot("http://127.0.0.1/mail", "", (), {0: body, 1: send, 2: to})
    assert watch.unsent(opened, set()) == (to, send)
