"""Which element another value names when the recorded name held more than the value (a card's price
and badge), and which clicks are choices among options: pure functions on fingerprints and snapshots."""

from __future__ import annotations

from browser_agent.dom.snapshot import DomSnapshot, ElementNode, Rect
from browser_agent.reid import Fingerprint
from browser_agent.workflow.choose import ItemChoice, split_at
from browser_agent.workflow.naming import choice_control

RECORDED = "blue ceramic mug $14.00 new"
LINK = Fingerprint(tag="a", name=RECORDED, attributes=(("href", "/item/blue-ceramic-mug"),))


def _links(*names: str) -> DomSnapshot:
    nodes = [
        ElementNode(n, f"e{n}", "a", None, name, "", {"href": f"/item/{n}"}, (), Rect(0, 20 * n, 200, 20))
        for n, name in enumerate(names, start=1)
    ]
    return DomSnapshot("http://127.0.0.1/", "t", tuple(nodes), {node.index: node for node in nodes})


def _pick(new: str, *names: str) -> str:
    return ItemChoice(RECORDED, "Blue Ceramic Mug", new).pick(LINK, _links(*names)).name


def test_another_item_is_found_whatever_its_price_and_badge() -> None:
    page = ("Blue Ceramic Mug $14.00", "Copper Kettle $51.20 $64.00 Bestseller", "Stoneware Bowl $14.00 Sale")
    assert _pick("Copper Kettle", *page) == "copper kettle $51.20 $64.00 bestseller"
    assert _pick("Stoneware Bowl", *page) == "stoneware bowl $14.00 sale"


def test_the_exact_name_wins_over_a_longer_one_and_part_of_two_names_is_neither() -> None:
    page = ("Blue Ceramic Mug Set $38.00 Sale", "Blue Ceramic Mug $14.00", "Tea Set $20.00 Sale")
    assert _pick("Blue Ceramic Mug", *page) == "blue ceramic mug $14.00"
    assert _pick("Blue Ceramic Mug Set", *page) == "blue ceramic mug set $38.00 sale"
    # "blue ceramic" is in two names, with a word of each item after it: the recorded one is kept (abstain)
    assert _pick("Blue Ceramic", *page) == RECORDED
    assert _pick("Green Teapot", *page) == RECORDED  # not sold: abstain


def test_words_are_matched_whole() -> None:
    assert split_at("stoneware bowl $14.00", "Bowl") == (["stoneware"], ["$14.00"])
    assert split_at("stoneware bowls $14.00", "Bowl") is None


def test_a_choice_is_a_radio_an_option_or_an_item_of_the_list_a_choice_button_opened() -> None:
    radio = Fingerprint(tag="input", name="express", attributes=(("type", "radio"), ("name", "shipping")))
    assert choice_control(radio, None) == "shipping"
    option = Fingerprint(tag="div", role="option", name="norway")
    assert choice_control(option, None) == "option"
    trigger = Fingerprint(tag="button", name="quantity: 1")
    item = Fingerprint(tag="div", name="2")
    assert choice_control(item, trigger) == "quantity"
    assert choice_control(option, Fingerprint(tag="button", role="combobox", name="country")) == "country"
    # a button that shows no current choice opened no list: the card clicked after it is no option
    assert choice_control(item, Fingerprint(tag="button", name="load more")) is None
    assert choice_control(Fingerprint(tag="a", name="2", attributes=(("href", "/p/2"),)), trigger) is None
