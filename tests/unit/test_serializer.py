"""``render`` on hand-built snapshots: table rows, the row cap, panel hints, icon hints, the dialog line,
labels not read twice."""

from __future__ import annotations

from browser_agent.dom import Cell, DomSnapshot, ElementNode, PanelScroll, Rect, TextNode, render
from browser_agent.dom.serializer import DIALOG_LINE, TABLE_ROWS


def element(index: int, tag: str, text: str = "", **kw: object) -> ElementNode:
    return ElementNode(
        index=index,
        element_id=f"e{index}",
        tag=tag,
        role=None,
        name=str(kw.pop("name", "")),
        text=text,
        attributes={},
        states=(),
        rect=Rect(0, 0, 10, 10),
        **kw,  # type: ignore[arg-type]
    )


def snapshot(*items: ElementNode | TextNode, dialog: bool = False) -> DomSnapshot:
    nodes = {item.index: item for item in items if isinstance(item, ElementNode)}
    return DomSnapshot("http://127.0.0.1/", "t", items, nodes, dialog=dialog)


def test_rows_join_their_cells_and_keep_empty_ones() -> None:
    text = render(
        snapshot(
            TextNode("Invoices"),
            TextNode("Date", cell=Cell(1, 1, 0)),
            TextNode("Total", cell=Cell(1, 1, 2)),
            TextNode("Jun 2", cell=Cell(1, 2, 0)),
            TextNode("INV-88", cell=Cell(1, 2, 1)),
            TextNode("$19.90", cell=Cell(1, 2, 2)),
            element(1, "button", "Pay", cell=Cell(1, 2, 3)),
            element(2, "a", "Help"),
        )
    )
    assert text.splitlines() == [
        "Invoices",
        "| Date |  | Total |",
        "| Jun 2 | INV-88 | $19.90 | [1]<button>Pay</button> |",
        "[2]<a>Help</a>",
    ]


def test_long_tables_are_capped_one_table_at_a_time() -> None:
    rows = [TextNode(f"row {r}", cell=Cell(1, r, 0)) for r in range(TABLE_ROWS + 3)]
    other = [TextNode(f"other {r}", cell=Cell(2, 100 + r, 0)) for r in range(2)]
    lines = render(snapshot(*rows, *other, element(1, "a", "Next"))).splitlines()
    assert lines[TABLE_ROWS - 1] == f"| row {TABLE_ROWS - 1} |"
    assert lines[TABLE_ROWS] == "(… 3 more rows of this table; scroll to read them)"
    assert lines[TABLE_ROWS + 1 :] == ["| other 0 |", "| other 1 |", "[1]<a>Next</a>"]


def test_panels_say_what_they_hide_and_how_to_scroll_them() -> None:
    panel = element(
        4,
        "div",
        name="Messages",
        panel=PanelScroll(elements_below=1, elements_above=3, screens_below=2.0, screens_right=0.5),
    )
    text_only = element(5, "pre", panel=PanelScroll(screens_below=1.5))
    assert render(snapshot(panel, text_only)).splitlines() == [
        "[4]<div scrollable>Messages: 3 more items above, 1 more item below, more to the right "
        "(scroll it with index 4)</div>",
        "[5]<pre scrollable>more below (scroll it with index 5)</pre>",
    ]


def test_icon_hints_show_only_when_nothing_else_names_the_control() -> None:
    text = render(snapshot(element(1, "button", icon="send"), element(2, "button", "Send", icon="send")))
    assert text.splitlines() == ["[1]<button icon=send></button>", "[2]<button>Send</button>"]


def test_an_open_dialog_is_said_first() -> None:
    assert render(snapshot(element(1, "button", "OK"), dialog=True)).splitlines()[0] == DIALOG_LINE


def test_a_label_shown_on_a_field_is_not_read_again_just_before_or_after_it() -> None:
    """``<label><input type=radio>USa</label>``: the label's text follows the field it names."""
    text = render(
        snapshot(
            element(0, "input", name="USa"),
            TextNode("USa"),
            TextNode("Email"),
            element(1, "input", name="Email"),
            element(2, "input", name="GDKkQ"),
            TextNode("GDKkQ is our pick"),
            element(3, "button", "Submit"),
            TextNode("Submit"),
        )
    )
    assert text.splitlines() == [
        "[0]<input label=USa/>",
        "Email",
        "[1]<input/>",
        "[2]<input label=GDKkQ/>",
        "GDKkQ is our pick",
        "[3]<button>Submit</button>",
        "Submit",
    ]
