"""What the page view says of widgets: the state of in-page tabs, accordions, menus and tree items; the
suggestions that appear under a field after typing; a native select wrapped by jQuery selectric, read and
chosen as the select it is (MiniWoB++'s form-sequence-3 solved through it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from browser_agent.browser import BrowserSession
from browser_agent.browser.page_text import page_text
from browser_agent.controller import ActionResult, Controller
from browser_agent.testing import ScriptedChatModel
from tests.support.miniwob_policy import choose_then_click
from tests.support.pages import index_of
from tests.support.server import LocalServer


async def _body(session: BrowserSession) -> str:
    return page_text(await session.state()).body


async def _run(session: BrowserSession, action: dict[str, object]) -> ActionResult:
    [result] = await Controller().run([action], session)
    return result


async def test_tabs_accordions_menus_and_tree_items_say_their_state_in_a_word(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("dom/widget_states.html"))
    assert await _body(session) == "\n".join(
        [
            "[0]<button role=tab selected>Tab 1</button>",
            "[1]<button role=tab>Tab 2</button>",
            "[2]<a selected>Alpha</a>",  # jQuery UI's class ui-tabs-active on its <li>
            "[3]<a>Beta</a>",
            # a section header that opens and closes reads as the button it is, whatever its tag
            "[4]<button expanded>Shipping</button>",
            "Ships in two days.",
            "[5]<button collapsed>Returns</button>",  # what a closed <details> hides is not read
            "[6]<button collapsed>What is it?</button>",
            "[7]<button expanded>Section 1</button>",  # jQuery UI's accordion classes
            "[8]<button collapsed>Section 2</button>",
            "[9]<li role=treeitem expanded>Docs</li>",
            "[10]<div role=menuitem collapsed>File</div>",
            '[11]<input type=checkbox label="Remember me" checked/>',
            "[12]<div role=checkbox>Newsletter</div>",
            "[13]<button pressed>Bold</button>",
            "[14]<button role=tab collapsed>Section 3</button>",  # and its ARIA roles
            # tabs side by side say selected or nothing: their expanded state is the same fact
            "[15]<a role=tab selected>One</a>",
            "[16]<a role=tab>Two</a>",
            "[17]<li role=tab>Three</li>",
        ]
    )
    await session.page.click("text=Returns")
    assert "[5]<button expanded>Returns</button>\nThirty days." in await _body(session)


async def test_suggestions_that_come_late_are_waited_for_said_and_marked_new(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("controller/late_suggestions.html"))
    city = await index_of(session, "City")
    typed = await _run(session, {"action": "input_text", "index": city, "text": "Pa"})
    assert typed.extracted_content == (
        f"Typed 'Pa' into element {city} (City); the field now holds 'Pa'; "
        "2 suggestions appeared under it: 'Paris', 'Parma'"
    )
    body = await _body(session)
    assert re.search(r"^\*\[\d+\]<li>Paris</li>\n\*\[\d+\]<li>Parma</li>$", body, re.MULTILINE), body
    assert "*[" not in body.split("<li>Paris")[0].rsplit("\n", 1)[0], "only what appeared is marked"
    chosen = await _run(session, {"action": "click_element", "index": await index_of(session, "Parma")})
    assert chosen.error is None and await session.page.locator("#chosen").inner_text() == "Parma"


async def test_a_field_without_suggestions_says_none(session: BrowserSession, server: LocalServer) -> None:
    await session.navigate(server.url("controller/late_suggestions.html"))
    city = await index_of(session, "City")
    typed = await _run(session, {"action": "input_text", "index": city, "text": "Zz"})
    assert typed.extracted_content == f"Typed 'Zz' into element {city} (City); the field now holds 'Zz'"


async def test_a_select_wrapped_by_selectric_reads_and_chooses_as_the_select(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("dom/selectric.html"))
    body = await _body(session)
    assert '[0]<select value="">✓|5ft 9in|5ft 10in|6 ft</select>' in body.splitlines(), body
    listed = await _run(session, {"action": "get_dropdown_options", "index": 0})
    assert listed.extracted_content is not None and "- '6 ft'" in listed.extracted_content
    chosen = await _run(session, {"action": "select_dropdown_option", "index": 0, "text": "6 ft"})
    assert chosen.error is None and chosen.extracted_content == "Selected '6 ft' in element 0"
    assert await session.page.locator("#height").input_value() == "6 ft"
    assert await session.page.locator(".selectric .label").inner_text() == "6 ft", "the widget shows it"
    assert not await session.page.locator(".selectric-items").is_visible(), "and is closed again"
    body = await _body(session)
    assert '[0]<select value="6 ft">|5ft 9in|5ft 10in|✓6 ft</select>' in body.splitlines(), body
    said = await _run(session, {"action": "click_element", "index": await index_of(session, "Yes")})
    assert said.error is None and await session.page.locator("#said").inner_text() == "6 ft"


@pytest.mark.timeout(180)
async def test_a_perfect_policy_completes_form_sequence_3(tmp_path: Path) -> None:
    pytest.importorskip("miniwob")
    from browser_agent.eval import EvalOptions, MiniwobEpisode, StaticSite, miniwob_folder, run_episodes

    with StaticSite(miniwob_folder()) as site:
        episodes = [MiniwobEpisode("form-sequence-3", seed, site.origin) for seed in (0, 1, 2)]
        model = ScriptedChatModel(policy=choose_then_click)
        records = await run_episodes(episodes, model, tmp_path / "runs.jsonl", EvalOptions(max_steps=4))
    assert [(r.success, r.reward) for r in records] == [(True, 1.0)] * 3, [r.detail for r in records]


async def test_a_list_one_longer_than_shown_is_said_whole_and_a_longer_one_cut(
    session: BrowserSession, server: LocalServer
) -> None:
    """Six names are all said (cutting one saves nothing and may hide the one asked for); eight are cut
    to five and "…"."""
    await session.navigate(server.url("controller/stations.html"))
    to = await index_of(session, "Travelling to")
    typed = await _run(session, {"action": "input_text", "index": to, "text": "Ber"})
    assert typed.extracted_content is not None
    assert typed.extracted_content.endswith(
        "6 suggestions appeared under it: 'Berck', 'Bergamo', 'Bergen', 'Berlin', 'Bern', 'Berwick'"
    ), typed.extracted_content
    typed = await _run(session, {"action": "input_text", "index": to, "text": "Be"})
    assert typed.extracted_content is not None
    assert typed.extracted_content.endswith(
        "8 suggestions appeared under it: 'Berck', 'Bergamo', 'Bergen', 'Berlin', 'Bern', …"
    ), typed.extracted_content
