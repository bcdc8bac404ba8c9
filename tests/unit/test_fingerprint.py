"""Fingerprints and scored re-location on hand-built snapshots: found, ambiguous, never wrong."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from browser_agent.dom.snapshot import DomSnapshot, ElementNode, Rect, ScrollInfo, TextNode
from browser_agent.reid.fingerprint import (
    Fingerprint,
    fingerprint_of,
    identity_conflict,
    is_generated_token,
    raw_fingerprint,
)
from browser_agent.reid.matching import DEFAULT_THRESHOLD, LONE_THRESHOLD, locate, similarity


def el(index: int, tag: str, name: str = "", *, y: float = 0.0, **kw: object) -> ElementNode:
    attrs = kw.pop("attributes", {})
    return ElementNode(
        index=index,
        element_id=f"e{index}",
        tag=tag,
        role=kw.pop("role", None),  # type: ignore[arg-type]
        name=name,
        text=str(kw.pop("text", name)),
        attributes=attrs,  # type: ignore[arg-type]
        states=(),
        rect=Rect(10, y, 100, 20),
        **kw,  # type: ignore[arg-type]
    )


def snap(*items: ElementNode | TextNode) -> DomSnapshot:
    nodes = {item.index: item for item in items if isinstance(item, ElementNode)}
    return DomSnapshot(
        url="http://127.0.0.1/",
        title="t",
        items=items,
        selector_map=nodes,
        scroll=ScrollInfo(viewport_height=800, page_height=1000),
    )


def renumber(items: list[ElementNode | TextNode]) -> DomSnapshot:
    """Re-index elements in document order, as a fresh capture would."""
    out: list[ElementNode | TextNode] = []
    count = 0
    for item in items:
        if isinstance(item, ElementNode):
            count += 1
            item = replace(item, index=count, element_id=f"n{count}")
        out.append(item)
    return snap(*out)


def shop(
    rows: list[str], *, extra: list[ElementNode | TextNode] | None = None
) -> list[ElementNode | TextNode]:
    items: list[ElementNode | TextNode] = [TextNode("Our products")]
    for i, product in enumerate(rows):
        items += [
            TextNode(f"{product} $1{i}"),
            el(0, "button", "Add to cart", y=100 + 60 * i, ancestors=("li.card", "ul.grid"), sibling_index=0),
        ]
    return items + (extra or [])


@pytest.mark.parametrize(
    ("token", "generated"),
    [
        ("css-1x2y3z", True),
        ("sc-AbCdEf", True),
        ("_a1b2c3", True),
        (":r1:", True),
        ("ember123", True),
        ("Button_primary__x7Yq2", True),
        ("kEyLfA", True),
        ("3f2a9c1e-1b2c-4d5e-8f90-1234567890ab", True),
        ("login-form", False),
        ("submit", False),
        ("nav-item", False),
        ("primary", False),
        ("col-md-6", False),
        ("navBar", False),
        ("email", False),
    ],
)
def test_generated_tokens_are_recognised(token: str, generated: bool) -> None:
    assert is_generated_token(token) is generated


def test_fingerprint_keeps_stable_signals_and_drops_generated_ones() -> None:
    node = el(
        1,
        "a",
        "Pricing",
        attributes={"id": ":r5:", "class": "nav-link css-9f8e7d", "href": "https://x.test/pricing?ref=1"},
        ancestors=("nav.main", "div.sc-AbCdEf", "div", "header#top"),
    )
    fp = fingerprint_of(node, snap(node))
    assert fp.attribute("id") is None
    assert fp.attribute("href") == "/pricing"
    assert fp.classes == ("nav-link",)
    assert fp.ancestors == ("nav.main", "header#top")


def test_fingerprint_round_trips_through_json() -> None:
    items = shop(["Mug", "Cap", "Tee"])
    snapshot = renumber(items)
    fp = fingerprint_of(snapshot.selector_map[2], snapshot)
    assert fp.twins == 2 and fp.anchors
    again = Fingerprint.from_dict(json.loads(json.dumps(fp.to_dict())))
    assert again == fp


def test_newer_format_is_refused_with_a_clear_message() -> None:
    data = Fingerprint(tag="a").to_dict() | {"version": 99}
    with pytest.raises(ValueError, match="upgrade browser_agent"):
        Fingerprint.from_dict(data)


def test_found_after_a_banner_and_a_wrapper_are_added() -> None:
    before = renumber(
        [
            TextNode("Sign up"),
            el(0, "input", "Email", attributes={"name": "email", "type": "email"}),
            el(0, "button", "Create account", ancestors=("form#signup",)),
        ]
    )
    fp = fingerprint_of(before.selector_map[2], before)
    after = renumber(
        [
            el(0, "button", "Dismiss"),
            TextNode("Sale today!"),
            TextNode("Sign up"),
            el(0, "input", "Email", attributes={"name": "email", "type": "email"}),
            el(0, "button", "Create account", y=40, ancestors=("div", "form#signup")),
        ]
    )
    result = locate(fp, after)
    assert result.status == "found", result.reason
    assert result.node is not None and result.node.name == "Create account"


def test_twin_buttons_are_told_apart_by_their_neighbours_after_a_reorder() -> None:
    before = renumber(shop(["Mug", "Cap", "Tee"]))
    fp = fingerprint_of(before.selector_map[2], before)  # Add to cart under "Cap"
    after = renumber(shop(["Tee", "Cap", "Mug"]))
    result = locate(fp, after)
    # The anchor after "Cap" names the next card, which moved: abstaining is right, guessing is not.
    assert result.status in ("found", "ambiguous", "not_found")
    if result.node is not None:
        assert result.node.index == 2
    moved = renumber(shop(["Cap", "Mug", "Tee"]))
    last_fp = fingerprint_of(before.selector_map[3], before)  # under "Tee", the last card
    found = locate(last_fp, renumber(shop(["Mug", "Cap", "Tee"], extra=[TextNode("Footer")])))
    assert found.status == "found", found.reason
    assert locate(last_fp, moved).node is None or locate(last_fp, moved).node.index == 3  # type: ignore[union-attr]


def test_removed_twin_is_not_replaced_by_its_neighbour() -> None:
    before = renumber(shop(["Mug", "Cap", "Tee"]))
    for key in (1, 2, 3):
        fp = fingerprint_of(before.selector_map[key], before)
        rows = ["Mug", "Cap", "Tee"]
        gone = rows.pop(key - 1)
        result = locate(fp, renumber(shop(rows)))
        assert result.node is None, f"removed {gone!r} but got {result.reason}"
        assert result.status in ("not_found", "ambiguous")


def test_removed_target_with_a_look_alike_elsewhere_abstains() -> None:
    before = renumber(
        [
            TextNode("Settings"),
            el(0, "button", "Delete account", attributes={"id": "delete"}),
            el(0, "button", "Save"),
        ]
    )
    fp = fingerprint_of(before.selector_map[1], before)
    after = renumber([TextNode("Settings"), el(0, "button", "Delete avatar"), el(0, "button", "Save")])
    result = locate(fp, after)
    assert result.node is None and result.status == "not_found"
    assert "delete account" in result.reason


def test_near_duplicate_elsewhere_loses_to_the_original() -> None:
    base = [
        TextNode("Newsletter"),
        el(0, "button", "Subscribe", y=300, ancestors=("section.news", "main")),
        TextNode("Weekly, no spam"),
    ]
    before = renumber(base)
    fp = fingerprint_of(before.selector_map[1], before)
    dup = el(0, "button", "Subscribe", y=900, ancestors=("footer",))
    result = locate(fp, renumber([*base, TextNode("Follow us"), dup]))
    assert result.status == "found", result.reason
    assert result.node is not None and result.node.index == 1


def test_indistinguishable_twins_are_reported_as_ambiguous() -> None:
    fp = raw_fingerprint(el(1, "button", "Reply"), snap(el(1, "button", "Reply")))
    twins = renumber([el(0, "button", "Reply", y=100), el(0, "button", "Reply", y=100)])
    result = locate(fp, twins)
    assert result.status == "ambiguous" and result.node is None
    assert "ambiguous: 2 candidates" in result.reason and len(result.candidates) == 2


def test_hard_gates_rule_out_other_tags_names_ids_and_frames() -> None:
    fp = Fingerprint(tag="button", name="save", attributes=(("id", "save"),))
    assert identity_conflict(fp, Fingerprint(tag="a", name="save")) is not None
    assert identity_conflict(fp, Fingerprint(tag="button", name="cancel")) is not None
    assert (
        identity_conflict(fp, Fingerprint(tag="button", name="save", attributes=(("id", "x"),))) is not None
    )
    assert (
        identity_conflict(fp, Fingerprint(tag="button", name="save", frame_path=("iframe#pay",))) is not None
    )
    # A stable id that still matches outweighs a renamed label or another frame.
    assert (
        identity_conflict(fp, Fingerprint(tag="button", name="save now", attributes=(("id", "save"),)))
        is None
    )
    submit = Fingerprint(tag="input", attributes=(("type", "submit"),), name="save")
    assert identity_conflict(Fingerprint(tag="button", name="save"), submit) is None


def test_moved_into_another_container_is_still_found_when_unique() -> None:
    before = renumber(
        [
            TextNode("Menu"),
            el(0, "a", "Pricing", attributes={"href": "/pricing"}, ancestors=("li", "ul.menu", "nav#top")),
            el(0, "a", "Blog"),
        ]
    )
    fp = fingerprint_of(before.selector_map[1], before)
    after = renumber(
        [
            TextNode("Menu"),
            el(0, "a", "Blog"),
            TextNode("More"),
            el(0, "a", "Pricing", y=700, attributes={"href": "/pricing"}, ancestors=("aside.more",)),
        ]
    )
    result = locate(fp, after)
    assert result.status == "found", result.reason
    assert result.node is not None and result.node.name == "Pricing"


def test_nothing_left_gives_not_found_with_a_reason() -> None:
    result = locate(Fingerprint(tag="button", name="pay"), snap())
    assert result.status == "not_found" and result.node is None and "<button> 'pay'" in result.reason


def table_rows(people: list[str]) -> DomSnapshot:
    """Rows laid out like a table: name link, email text, then trailing Edit/Delete buttons."""
    items: list[ElementNode | TextNode] = [TextNode("Users")]
    for row, person in enumerate(people):
        y = 50 + 30 * row
        items += [
            replace(el(0, "a", person, y=y), rect=Rect(10, y, 80, 20)),
            TextNode(f"{person.lower()}@example.com"),
            replace(el(0, "button", "Edit"), rect=Rect(300, y, 40, 20)),
            replace(el(0, "button", "Delete"), rect=Rect(350, y, 50, 20)),
        ]
    return renumber(items)


def test_trailing_row_button_follows_its_own_row_not_the_next_one() -> None:
    people = ["Ann", "Bob", "Cid", "Dee"]
    before = table_rows(people)
    delete_bob = fingerprint_of(before.selector_map[6], before)
    # The label right after Bob's Delete is Cid's name: it belongs to the next row, not to Bob's.
    assert all(label != "cid" for _, _, label in delete_bob.anchors), delete_bob.anchors
    shuffled = locate(delete_bob, table_rows(["Dee", "Bob", "Ann", "Cid"]))
    assert shuffled.status == "found", shuffled.reason
    assert shuffled.node is not None and shuffled.node.index == 6
    moved = locate(delete_bob, table_rows(["Ann", "Cid", "Dee", "Bob"]))
    assert moved.node is not None and moved.node.index == 12


@pytest.mark.parametrize("gone", ["Ann", "Bob", "Cid", "Dee"])
def test_removed_row_never_hands_its_buttons_to_a_neighbour(gone: str) -> None:
    people = ["Ann", "Bob", "Cid", "Dee"]
    before = table_rows(people)
    where = people.index(gone)
    after = table_rows([p for p in people if p != gone])
    for offset in (2, 3):  # Edit and Delete of the removed row
        fp = fingerprint_of(before.selector_map[3 * where + offset], before)
        result = locate(fp, after)
        assert result.node is None, result.reason


def checkout_page(*, moved: bool, look_alike: bool = False) -> DomSnapshot:
    """A checkout button; ``moved`` restyles the page and moves it from the cart box to a sidebar."""
    button = el(
        0,
        "button",
        "Checkout",
        y=900 if moved else 200,
        attributes={"class": "cta green" if moved else "btn primary"},
        ancestors=("aside.side",) if moved else ("div.cart", "main"),
        sibling_index=3 if moved else 0,
    )
    items: list[ElementNode | TextNode] = [TextNode("Your cart"), button]
    if not moved:
        items.insert(0, TextNode("2 items"))
    if look_alike:
        items = [TextNode("Express"), el(0, "button", "Checkout", y=40, ancestors=("header",)), *items]
    return renumber(items)


def test_the_only_one_of_its_kind_is_accepted_at_a_lower_score() -> None:
    before = checkout_page(moved=False)
    fp = fingerprint_of(before.selector_map[1], before)
    after = checkout_page(moved=True)
    score = similarity(fp, raw_fingerprint(after.selector_map[1], after))
    assert LONE_THRESHOLD <= score < DEFAULT_THRESHOLD
    result = locate(fp, after)
    assert result.status == "found" and result.node is after.selector_map[1], result.reason
    assert "the only one" in result.reason


def test_a_look_alike_anywhere_keeps_the_strict_threshold() -> None:
    before = checkout_page(moved=False)
    fp = fingerprint_of(before.selector_map[1], before)
    result = locate(fp, checkout_page(moved=True, look_alike=True))
    assert result.node is None and result.status == "not_found", result.reason
