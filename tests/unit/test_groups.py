"""Twins told apart by their own card or row: found after reorders and moves, never a neighbour's."""

from __future__ import annotations

from dataclasses import replace

from browser_agent.dom.snapshot import DomSnapshot, ElementNode, Rect, ScrollInfo, TextNode
from browser_agent.reid.fingerprint import Fingerprint, fingerprint_of
from browser_agent.reid.groups import CardIndex, card_depth
from browser_agent.reid.matching import locate

PRODUCTS = ["Mug", "Cap", "Tee", "Desk"]


def button(name: str, chain: tuple[int, ...], y: float) -> ElementNode:
    return ElementNode(
        index=0,
        element_id="",
        tag="button",
        role=None,
        name=name,
        text=name,
        attributes={},
        states=(),
        rect=Rect(200, y, 80, 20),
        ancestors=("li.card", "ul.grid"),
        chain=chain,
    )


def card(product: str, number: int, home: tuple[int, ...], y: float) -> list[ElementNode | TextNode]:
    """One product card: its title and price, then the two buttons every card has."""
    box = (*home, number)
    return [
        TextNode(f"{product} ${10 + len(product)}.00", chain=(*box, number + 1)),
        button("Add to cart", (*box, number + 2), y),
        button("Wishlist", (*box, number + 3), y),
    ]


def page(
    order: list[str], *, home: tuple[int, ...] = (1, 2), first: int = 100
) -> list[ElementNode | TextNode]:
    items: list[ElementNode | TextNode] = [TextNode("Our products", chain=(1, 3))]
    for i, product in enumerate(order):
        items += card(product, first + 10 * i, home, 100 + 30 * i)
    return items


def capture(items: list[ElementNode | TextNode]) -> DomSnapshot:
    """Number the elements in document order, as a fresh capture would."""
    out: list[ElementNode | TextNode] = []
    for item in items:
        if isinstance(item, ElementNode):
            count = sum(isinstance(o, ElementNode) for o in out) + 1
            item = replace(item, index=count, element_id=f"n{count}")
        out.append(item)
    nodes = {item.index: item for item in out if isinstance(item, ElementNode)}
    return DomSnapshot("http://127.0.0.1/", "shop", tuple(out), nodes, ScrollInfo(0, 800, 1000))


def wishlist_of(snapshot: DomSnapshot, product: str) -> ElementNode:
    at = next(
        i for i, item in enumerate(snapshot.items) if isinstance(item, TextNode) and product in item.text
    )
    found = snapshot.items[at + 2]
    assert isinstance(found, ElementNode) and found.name == "Wishlist"
    return found


def recorded(product: str = "Cap") -> Fingerprint:
    before = capture(page(PRODUCTS))
    return fingerprint_of(wishlist_of(before, product), before)


def test_card_depth_is_the_highest_container_without_a_look_alike() -> None:
    node = button("Save", (1, 2, 3, 10), 0)
    assert card_depth(node, [button("Save", (1, 2, 3, 11), 0)]) == 0, "a twin in the same parent"
    assert card_depth(node, [button("Save", (1, 2, 30, 31), 0)]) == 1
    assert card_depth(node, [button("Save", (1, 40, 41), 0)]) == 2
    assert card_depth(node, []) == 3, "no twin: the highest numbered container"


def test_fingerprint_of_a_twin_keeps_its_own_cards_labels() -> None:
    fp = recorded()
    assert fp.group == ("cap $13.00",) and fp.group_depth == 1 and fp.twins == 3
    assert fp.anchors == (), "neighbouring labels outside the card are not required"
    assert Fingerprint.from_dict(fp.to_dict()) == fp


def test_twin_found_after_the_list_was_reordered() -> None:
    after = capture(page(["Desk", "Tee", "Cap", "Mug"], first=500))
    result = locate(recorded(), after)
    assert result.node == wishlist_of(after, "Cap"), result.reason


def test_twin_found_after_its_card_moved_to_another_container_and_was_wrapped() -> None:
    items = page(["Mug", "Tee", "Desk"])
    moved = card("Cap", 900, (1, 7), 600)
    wish = moved[2]
    assert isinstance(wish, ElementNode)
    moved[2] = replace(wish, chain=(1, 7, 900, 950, 951))  # a new wrapper around the button
    after = capture([*items, TextNode("Related", chain=(1, 7, 8)), *moved])
    result = locate(recorded(), after)
    assert result.node is not None and result.node.chain[-1] == 951, result.reason
    assert CardIndex(after).labels(result.node, 2) == ["add to cart", "cap $13.00"]


def test_twin_gone_from_its_card_is_not_replaced_by_a_neighbour() -> None:
    items = page(PRODUCTS)
    gone = [i for i in items if not (isinstance(i, ElementNode) and i.name == "Wishlist" and 110 in i.chain)]
    result = locate(recorded(), capture(gone))
    assert result.node is None and result.status == "not_found"
    assert "not in the card or row of 'cap $13.00'" in result.reason


def test_card_holding_two_look_alikes_is_not_trusted() -> None:
    items = page(PRODUCTS)
    extra = button("Wishlist", (1, 2, 110, 119), 130)  # a second heart inside the Cap card
    after = capture([*items[:7], extra, *items[7:]])
    result = locate(recorded(), after)
    assert result.node is None, result.reason


def rows(people: list[str], *, wrap: str = "", drop: str = "") -> list[ElementNode | TextNode]:
    """A user table: name and email cells, then one cell holding the row's Edit and Delete buttons.

    ``wrap`` puts that person's Edit button in a new wrapper; ``drop`` removes that person's Edit."""
    items: list[ElementNode | TextNode] = []
    for i, person in enumerate(people):
        row, cell = (1, 2, 100 + 10 * i), 100 + 10 * i + 5
        items.append(TextNode(f"{person} {person.lower()}@example.com", chain=(*row, cell - 2)))
        if person != drop:
            edit = (*row, cell, 900 + i, 950 + i) if person == wrap else (*row, cell, cell + 1)
            items.append(button("Edit", edit, 20 * i))
        items.append(button("Delete", (*row, cell, cell + 2), 20 * i))
    return items


def edit_of(snapshot: DomSnapshot, person: str) -> ElementNode:
    at = next(i for i, it in enumerate(snapshot.items) if isinstance(it, TextNode) and person in it.text)
    found = snapshot.items[at + 1]
    assert isinstance(found, ElementNode) and found.name == "Edit"
    return found


def test_wrapper_in_a_cell_shared_with_another_button_still_finds_the_row() -> None:
    before = capture(rows(["Ann", "Bob", "Cid"]))
    fp = fingerprint_of(edit_of(before, "Bob"), before)
    assert fp.group_depth == 2 and fp.group == ("bob bob@example.com",)
    after = capture(rows(["Cid", "Bob", "Ann"], wrap="Bob"))
    result = locate(fp, after)
    assert result.node == edit_of(after, "Bob"), result.reason


def test_last_look_alike_left_is_not_taken_for_a_removed_one() -> None:
    before = capture(rows(["Ann", "Bob"]))
    fp = fingerprint_of(edit_of(before, "Ann"), before)
    result = locate(fp, capture(rows(["Ann", "Bob"], drop="Ann")))
    assert result.node is None, "Bob's Edit, alone on the page, must not stand in for Ann's"


def moved_out(order: list[str], product: str, *, drop: str = "") -> DomSnapshot:
    """The shop with ``product``'s Wishlist taken out of its card into a "Related" box of its own, and
    optionally the ``drop`` product's Wishlist removed."""
    items: list[ElementNode | TextNode] = []
    for item in page(order):
        own = isinstance(item, ElementNode) and item.name == "Wishlist"
        if own and (product_of(item, order) in (product, drop)):
            continue
        items.append(item)
    lone = button("Wishlist", (1, 7, 8, 9), 700)
    return capture([*items, TextNode("Related", chain=(1, 7, 10)), lone])


def product_of(node: ElementNode, order: list[str]) -> str:
    return order[(node.chain[2] - 100) // 10]


def test_fingerprint_keeps_one_label_of_each_twins_card() -> None:
    fp = recorded()
    assert fp.twin_cards == ("mug $13.00", "tee $13.00", "desk $14.00")
    assert Fingerprint.from_dict(fp.to_dict()).twin_cards == fp.twin_cards


def test_twin_that_left_its_card_is_the_one_no_twin_card_accounts_for() -> None:
    after = moved_out(["Desk", "Cap", "Mug", "Tee"], "Cap")
    result = locate(recorded(), after)
    assert result.node is not None and result.node.chain == (1, 7, 8, 9), result.reason
    assert result.status == "found" and "no twin's card accounts for" in result.reason


def test_twin_that_left_its_card_is_not_guessed_when_a_look_alike_is_missing() -> None:
    # Cap's Wishlist moved out, and Desk's removed: the lone Wishlist could be either of them.
    result = locate(recorded(), moved_out(PRODUCTS, "Cap", drop="Desk"))
    assert result.node is None and result.status == "not_found", result.reason


def test_twin_that_left_its_card_is_not_guessed_when_its_card_shows_a_twins_label() -> None:
    after = moved_out(PRODUCTS, "Cap")
    items = list(after.items)
    items.insert(len(items) - 1, TextNode("Mug $13.00", chain=(1, 7, 11)))  # "Related" now names the Mug
    result = locate(recorded(), capture(items))
    assert result.node is None, result.reason
