"""Which ``(action, index)`` pairs a ``json_schema`` grammar leaves out because the action cannot apply
to the element: decided by the tag alone, never by a role an editor or a list may carry wrongly."""

from __future__ import annotations

from browser_agent.controller.actions.refusals import misfit_actions
from browser_agent.dom.snapshot import DomSnapshot, ElementNode, Rect

_OPTIONS = ("select_dropdown_option", "get_dropdown_options")


def _node(index: int, tag: str, role: str | None = None, **attributes: str) -> ElementNode:
    return ElementNode(
        index=index,
        element_id=f"e{index}",
        tag=tag,
        role=role,
        name="",
        text="",
        attributes=attributes,
        states=(),
        rect=Rect(0, 0, 10, 10),
    )


def _left_out(*nodes: ElementNode) -> dict[int, set[str]]:
    snapshot = DomSnapshot(
        url="http://127.0.0.1/", title="t", items=nodes, selector_map={n.index: n for n in nodes}
    )
    found: dict[int, set[str]] = {n.index: set() for n in nodes}
    for action, index in misfit_actions(snapshot):
        found[index].add(action)
    return found


def test_buttons_links_and_boxes_take_no_text_and_hold_no_options() -> None:
    left_out = _left_out(
        _node(0, "button"),
        _node(1, "a", href="/next"),
        _node(2, "input", type="checkbox"),
        _node(3, "input", type="submit"),
    )
    assert all(actions == {"input_text", *_OPTIONS} for actions in left_out.values())


def test_fields_lists_and_what_only_a_role_names_are_left_alone() -> None:
    left_out = _left_out(
        _node(0, "input"),
        _node(1, "input", type="range"),  # input_text sets it to the number typed
        _node(2, "textarea"),
        _node(3, "div", role="button"),  # may be an editor that says so wrongly
        _node(4, "span", role="tab"),
        _node(5, "a"),  # no href: an anchor a script made clickable
    )
    assert all(actions == set() for actions in left_out.values())


def test_a_native_list_takes_no_text_and_a_popup_button_holds_options() -> None:
    left_out = _left_out(
        _node(0, "select"),
        _node(1, "button", **{"aria-haspopup": "listbox"}),
        _node(2, "button", role="combobox"),
    )
    assert left_out[0] == {"input_text"}
    assert left_out[1] == {"input_text"} and left_out[2] == {"input_text"}


def test_no_snapshot_leaves_out_nothing() -> None:
    assert misfit_actions(None) == ()
