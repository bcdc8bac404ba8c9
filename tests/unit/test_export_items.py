"""Locators for what varies from layout to layout: an item named with its price (a promotion changes the
price, a badge comes and goes), and an option of a custom list drawn with or without ARIA roles."""

from __future__ import annotations

import re

import pytest

from browser_agent.export import locate
from browser_agent.reid import Fingerprint


def _fp(tag: str, name: str = "", **extra: object) -> Fingerprint:
    return Fingerprint(tag=tag, name=name, **extra)  # type: ignore[arg-type]


def _pattern(expression: str) -> re.Pattern[str]:
    """The ``re.compile(...)`` of a locator expression's ``name=`` (or first) argument, evaluated."""
    found = re.search(r"re\.compile\(.*?, re\.IGNORECASE\)", expression)
    assert found is not None, expression
    compiled = eval(found.group(0), {"re": re})
    assert isinstance(compiled, re.Pattern)
    return compiled


@pytest.mark.parametrize("tag", ["a", "div"])
def test_an_item_named_with_its_price_is_found_by_its_words_then_any_price(tag: str) -> None:
    card = _fp(tag, "blue ceramic mug $14.00 new", attributes=(("href", "/item/mug"),), text="")
    if tag == "div":
        card = _fp(tag, "", text="blue ceramic mug $14.00 new")
    code = locate(card, "Blue Ceramic Mug $14.00 New").expression
    assert "14.00" not in code and "new" not in code.lower().split("mug", 1)[1]
    pattern = _pattern(code)
    for shown in ("Blue Ceramic Mug $14.00 New", "Blue Ceramic Mug $11.20 $14.00 Sale", "Blue Ceramic Mug"):
        assert pattern.search(shown), shown
    for other in ("Blue Ceramic Mug Set $38.00", "Old Blue Ceramic Mug $14.00", "Blue Ceramic Mugs $9.00"):
        assert not pattern.search(other), other


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("page 2", 'page.get_by_role("link", name="Page 2", exact=True)'),
        ("3 items", 'page.get_by_role("link", name="3 Items", exact=True)'),
        ("total: $14.00", 'page.get_by_role("link", name="Total: $14.00", exact=True)'),
    ],
)
def test_a_name_without_an_item_and_a_price_stays_exact(name: str, expected: str) -> None:
    link = _fp("a", name, attributes=(("href", "/x"),))
    assert locate(link, name.title()).expression == expected


def test_a_custom_option_is_found_by_its_role_or_by_its_text_where_the_list_has_no_roles() -> None:
    aria = _fp("div", "norway", role="option", text="norway")
    code = locate(aria, "Norway").expression
    assert code == (
        'page.get_by_role("option", name="Norway", exact=True)'
        '.or_(page.get_by_text("Norway", exact=True).locator("visible=true"))'
    )
    # a plain div's text is found whatever role the list gives it
    plain = _fp("div", "norway", text="norway")
    assert locate(plain, "Norway").expression == 'page.get_by_text("Norway", exact=True)'
    # a native option is chosen through its select, never clicked by text
    native = _fp("option", "norway", text="norway")
    assert ".or_(" not in locate(native, "Norway").expression


def test_a_custom_option_an_input_names_is_found_by_the_input_either_way() -> None:
    aria = _fp("div", "2", role="option", text="2")
    code = locate(aria, named_by=("quantity", "2")).expression
    role, _, text = code.partition(".or_(")
    assert role.startswith('page.get_by_role("option", name=re.compile(')
    assert text.startswith("page.get_by_text(re.compile(") and 'locator("visible=true")' in text
    quantity = eval(text.split("get_by_text(", 1)[1].rsplit(")", 3)[0], {"re": re, "quantity": "4"})
    assert quantity.search("4") and not quantity.search("14")
