"""Perception depth against real Chromium: what the model reads for icon-only controls, selects hidden
behind widget libraries, scroll panels, data tables and modals, and that actions on those indices reach
the right element through the controller."""

from __future__ import annotations

import re

import pytest

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult, Controller
from browser_agent.dom import DomSnapshot, ElementNode, element_handle, render
from browser_agent.dom.serializer import DIALOG_LINE
from tests.support.server import LocalServer


async def capture(session: BrowserSession) -> tuple[DomSnapshot, str]:
    state = await session.state()
    assert state.snapshot is not None
    return state.snapshot, render(state.snapshot)


async def act(session: BrowserSession, action: dict[str, object]) -> ActionResult:
    [result] = await Controller().run([action], session)  # type: ignore[list-item]
    assert result.error is None, result.error
    return result


def index_in(text: str, pattern: str) -> int:
    """The index on the first rendered line matching ``pattern`` (a regex)."""
    for line in text.splitlines():
        if re.search(pattern, line):
            found = re.findall(r"\[(\d+)\]", line)
            assert found, line
            return int(found[-1])
    raise AssertionError(f"no line matches {pattern!r} in:\n{text}")


async def said(session: BrowserSession, selector: str) -> str:
    return await session.page.locator(selector).inner_text()


# ---- icon-only controls ----


async def test_icon_only_controls_are_named_by_their_icons(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("dom/icons.html"))
    _, text = await capture(session)
    for line in (
        "<span icon=comment></span>",
        "<span icon=repost></span>",
        "<span icon=bookmark></span>",
        "<span icon=send></span>",
        "<button icon=pencil></button>",  # font awesome <i class="fa fa-pencil">
        "<button icon=trash></button>",  # bootstrap icons <i class="bi bi-trash3">
        "<a icon=search href=#search></a>",  # <svg><use href="#icon-search">
        "<a icon=arrow-left href=#back></a>",  # xlink:href
        "<button icon=more-vert></button>",  # material icons ligature
        "<button icon=share></button>",  # data-icon
        "<button icon=close-dialog>×</button>",  # data-testid; a close icon shows its mark
        "<button>Delete draft</button>",  # a ligature beside text is not text
    ):
        assert line in text, f"{line} missing from:\n{text}"
    # A bare <svg><path> in a button with only a layout class: nothing names it, so no hint is invented.
    assert re.search(r"\]<button></button>", text)
    assert text.count("icon=") == 11


async def test_clicking_an_icon_reaches_that_control(session: BrowserSession, server: LocalServer) -> None:
    await session.navigate(server.url("dom/icons.html"))
    _, text = await capture(session)
    await act(session, {"action": "click_element", "index": index_in(text, "icon=send")})
    assert await said(session, "#done") == "send"
    await act(session, {"action": "click_element", "index": index_in(text, "icon=bookmark")})
    assert await said(session, "#done") == "bookmark"


# ---- selects wrapped by widget libraries ----


def select_named(snapshot: DomSnapshot, name: str) -> ElementNode:
    found = [n for n in snapshot.selector_map.values() if n.tag == "select" and n.name == name]
    assert len(found) == 1, [(n.tag, n.name) for n in snapshot.selector_map.values()]
    return found[0]


async def test_wrapped_selects_read_as_selects(session: BrowserSession, server: LocalServer) -> None:
    await session.navigate(server.url("dom/wrapped_select.html"))
    snapshot, text = await capture(session)
    assert [(n.tag, n.name) for n in snapshot.selector_map.values()] == [
        ("select", "Country"),  # tom-select (the <label> now points at tom-select's own input)
        ("select", "Carrier"),  # select2
        ("select", "Box size"),  # choices.js
        ("select", "Gift wrap"),  # a native select inside its label: the label only, not its options
    ]
    country = select_named(snapshot, "Country")
    assert country.options == ("France", "Germany", "✓Japan") and 'value="Japan"' in country.states
    assert country.select_id and country.attributes.get("name") == "country"
    assert '<select value="UPS">✓UPS|DHL|FedEx</select>' in text
    assert '<select value="Medium">Small|✓Medium|Large</select>' in text
    assert "combobox" not in text and "textbox" not in text  # the widgets' inner parts are not indexed apart


@pytest.mark.parametrize(
    ("label", "option", "native", "shown_in", "opened"),
    [
        ("Carrier", "DHL", ("carrier", "dhl"), "#select2-carrier-container", "select2"),
        ("Country", "Germany", ("country", "de"), ".ts-control", "tom"),
        ("Box size", "Large", ("size", "l"), ".choices__list--single", "choices"),
    ],
)
async def test_choosing_in_a_wrapped_select_updates_select_and_widget(
    session: BrowserSession,
    server: LocalServer,
    label: str,
    option: str,
    native: tuple[str, str],
    shown_in: str,
    opened: str,
) -> None:
    await session.navigate(server.url("dom/wrapped_select.html"))
    snapshot, _ = await capture(session)
    index = select_named(snapshot, label).index
    listed = await act(session, {"action": "get_dropdown_options", "index": index})
    assert f"'{option}'" in (listed.extracted_content or "")
    await act(session, {"action": "select_dropdown_option", "index": index, "text": option.lower()})
    select_id, value = native
    assert await session.page.locator(f"#{select_id}").input_value() == value
    assert await said(session, shown_in) == option
    assert f"{select_id}={value}" in await said(session, "#changes")
    times = await session.page.evaluate("window.opened")
    # select2 listens to the select's change event: setting the select was enough. The others had to be
    # opened and clicked.
    assert times[opened] == (0 if opened == "select2" else 1)
    after, _ = await capture(session)
    assert f'value="{option}"' in select_named(after, label).states


# ---- scroll panels ----


async def test_scroll_panels_say_what_they_hide(session: BrowserSession, server: LocalServer) -> None:
    await session.navigate(server.url("dom/panels.html"))
    snapshot, text = await capture(session)
    feed = index_in(text, "Posts")
    assert f"<div scrollable>Posts: 3 more items below (scroll it with index {feed})</div>" in text
    replies = index_in(text, "1 more item below")
    assert replies == feed + 1  # the nested panel inside the first post
    assert "Reply A" in text and "Like reply C" not in text
    carousel = index_in(text, "to the right")
    assert f"1 more item to the right (scroll it with index {carousel})" in text
    assert "Like post two" in text
    # What a panel hides is not shown, neither its elements nor its text.
    assert "Like post three" not in text and "Post four" not in text and "Slide four" not in text
    assert snapshot.scroll.elements_below == 0


async def test_scrolling_a_panel_by_its_index_brings_its_items_in(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("dom/panels.html"))
    _, text = await capture(session)
    await act(session, {"action": "scroll", "index": index_in(text, "Posts"), "direction": "down"})
    _, text = await capture(session)
    assert "Post four: shelves." in text and "more items above" in text
    await act(session, {"action": "click_element", "index": index_in(text, "Like post four")})
    assert await said(session, "#done") == "post 4"
    carousel = index_in(text, "to the right")
    await act(session, {"action": "scroll", "index": carousel, "direction": "right", "pages": 2})
    _, text = await capture(session)
    assert "to the left" in text
    await act(session, {"action": "click_element", "index": index_in(text, "Slide four")})
    assert session.page.url.endswith("#s4")


# ---- tables ----


async def test_data_tables_read_row_by_row(session: BrowserSession, server: LocalServer) -> None:
    await session.navigate(server.url("dom/table_rows.html"))
    _, text = await capture(session)
    lines = text.splitlines()
    assert "| Date | Invoice | Item | Total |" in lines
    pay = index_in(text, "INV-88")
    assert f"| Jun 2, 2026 | INV-88 | Desk lamp | $19.90 | [{pay}]<button>Pay</button> |" in lines
    # An empty cell keeps its place.
    assert f"| Jun 3, 2026 | INV-89 |  | $5.00 | [{pay + 1}]<button>Pay</button> |" in lines
    # Layout tables (role=presentation; one cell per row) stay as text.
    assert "Invoices" in lines and "Your invoices of the last month." in lines
    assert "Layout row one" in lines and "Layout row two" in lines
    # A long table is capped, with a count of the rows left out.
    assert "| Item 25 | 25 pcs |" in lines and "Item 26" not in text
    assert "(… 15 more rows of this table; scroll to read them)" in lines
    await act(session, {"action": "click_element", "index": pay})
    assert await said(session, "#done") == "INV-88"


# ---- modals ----


@pytest.mark.parametrize(
    ("opener", "inside", "button", "answer"),
    [
        ("Cancel plan", "Cancel your plan at the end of the month?", "Cancel it", "cancelled"),  # <dialog>
        ("Change email", "Type the new address.", "Save email", "email saved"),  # aria-modal
        ("Delete account", "Really delete the account?", "Delete for good", "deleted"),  # focused overlay
    ],
)
async def test_an_open_modal_hides_the_page_behind_it(
    session: BrowserSession, server: LocalServer, opener: str, inside: str, button: str, answer: str
) -> None:
    await session.navigate(server.url("dom/modal.html"))
    _, text = await capture(session)
    assert DIALOG_LINE not in text and "Your plan renews on June 2." in text
    await act(session, {"action": "click_element", "index": index_in(text, opener)})
    snapshot, text = await capture(session)
    assert snapshot.dialog and text.splitlines()[0] == DIALOG_LINE
    assert inside in text
    assert "Your plan renews" not in text and "Account" not in text and opener not in text
    await act(session, {"action": "click_element", "index": index_in(text, button)})
    assert await said(session, "#answer") == answer
    snapshot, text = await capture(session)
    assert not snapshot.dialog and "Your plan renews on June 2." in text


async def test_a_widget_named_after_its_select_stands_for_it(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("dom/wrapped_linked.html"))
    snapshot, text = await capture(session)
    tone = select_named(snapshot, "Tone")
    assert await (await element_handle(snapshot, tone)).get_attribute("id") == "tone-widget"
    assert tone.options == ("✓Calm", "Cheerful", "Formal")
    # Drawn before its label, so the label is shown on the element itself.
    assert f'[{tone.index}]<select label=Tone value="Calm">✓Calm|Cheerful|Formal</select>' in text
    assert "role=combobox" not in text
    await act(session, {"action": "select_dropdown_option", "index": tone.index, "text": "Formal"})
    assert await said(session, "#tone-widget") == "Formal"
    assert await session.page.locator("#tone").input_value() == "Formal"
