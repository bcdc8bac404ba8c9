"""card_labels: the words of its own card beside a control that reads like others."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from browser_agent.dom.cards import LABEL_CAP, card_labels, look_alike_cards
from browser_agent.dom.snapshot import Cell, ElementNode, Rect, TextNode


def star(element_id: str, chain: tuple[int, ...], *, frame: int = 0) -> ElementNode:
    return ElementNode(
        index=0,
        element_id=element_id,
        tag="span",
        role=None,
        name="",
        text="",
        attributes={},
        states=(),
        rect=Rect(0, 0, 10, 10),
        frame_id=frame,
        chain=chain,
        icon="star",
    )


def row(sender: str, number: int) -> list[ElementNode | TextNode]:
    """One mail: its sender line in the row's left part, the star in its right part."""
    return [
        TextNode(sender, chain=(1, 2, number, number + 1)),
        star(f"s{number}", (1, 2, number, number + 2, number + 3)),
    ]


def test_each_look_alike_gets_the_first_words_of_its_own_row() -> None:
    items = row("Leena Commodo", 10) + row("Coretta Condimentum nisl sed sed", 20)
    assert card_labels(items) == {"s10": "Leena Commodo", "s20": "Coretta Condimentum…"}
    assert all(len(label) <= LABEL_CAP for label in card_labels(items).values())


def test_a_control_without_look_alikes_or_in_a_table_or_another_frame_gets_none() -> None:
    alone = row("Leena", 10)
    assert card_labels(alone) == {}
    in_table = [replace(item, cell=Cell(0, i, 1)) for i, item in enumerate(row("A", 10) + row("B", 20))]
    assert card_labels(in_table) == {}
    framed = row("A", 10) + [replace(item, frame_id=1) for item in row("B", 20)]
    assert card_labels(framed) == {}


def test_words_every_card_shows_are_passed_over_for_one_its_own() -> None:
    items = [
        TextNode("Unread", chain=(1, 2, 10, 11)),
        *row("Leena", 10),
        TextNode("Unread", chain=(1, 2, 20, 21)),
        *row("Hester", 20),
    ]
    assert card_labels(items) == {"s10": "Leena", "s20": "Hester"}


def test_look_alikes_sharing_a_parent_have_no_card() -> None:
    items = [TextNode("Mail", chain=(1, 2, 3)), star("a", (1, 2, 4)), star("b", (1, 2, 5))]
    assert card_labels(items) == {}


def test_menu_links_long_names_and_separators_get_no_card() -> None:
    def link(
        words: str, element_id: str, chain: tuple[int, ...], ancestors: tuple[str, ...] = ()
    ) -> ElementNode:
        return replace(star(element_id, chain), tag="a", text=words, icon="", ancestors=ancestors)

    def two(make: Callable[[str, tuple[int, ...]], ElementNode]) -> list[ElementNode | TextNode]:
        return [
            TextNode("Desktop", chain=(1, 2, 10, 11)),
            make("a", (1, 2, 10, 12)),
            TextNode("Android", chain=(1, 2, 20, 21)),
            make("b", (1, 2, 20, 22)),
        ]

    assert card_labels(two(lambda i, c: link("Overview", i, c))) == {"a": "Desktop", "b": "Android"}
    in_menu = two(lambda i, c: link("Overview", i, c, ("li", "ul.main-menu")))
    assert card_labels(in_menu) == {}
    in_nav = two(lambda i, c: link("Overview", i, c, ("li", "ul", "nav")))
    assert card_labels(in_nav) == {}
    long_name = two(lambda i, c: link("Republicans are getting worse", i, c))
    assert card_labels(long_name) == {}
    bars = [
        TextNode("·", chain=(1, 2, 10, 11)),
        link("Home", "a", (1, 2, 10, 12)),
        TextNode("|", chain=(1, 2, 20, 21)),
        TextNode("News", chain=(1, 2, 20, 23)),
        link("Home", "b", (1, 2, 20, 22)),
    ]
    assert card_labels(bars) == {"b": "News"}, "a separator is no label"


def test_look_alike_cards_gives_every_card_of_the_clicked_controls_look_whole() -> None:
    items = row("Leena Commodo", 10) + row("Coretta Condimentum nisl sed sed", 20)
    assert look_alike_cards(items, "s20") == {
        "s10": ["Leena Commodo"],
        "s20": ["Coretta Condimentum nisl sed sed"],  # not cut: the card guard matches the task's words
    }
    assert look_alike_cards(row("Leena", 10), "s10") == {}  # no look-alike
    assert look_alike_cards(items, "nowhere") == {}
