"""A number typed into a slider the page draws (not <input type=range>) moves its knob with the arrow keys
until the page shows the number: an ARIA slider read on its knob, and one whose value only shows beside
it. The page is a room's settings, unlike MiniWoB++'s jQuery UI slider; a field still takes typing."""

from __future__ import annotations

import pytest

from browser_agent.browser import BrowserSession
from tests.support.actions import run1
from tests.support.server import LocalServer

PAGE = "controller/drawn_sliders.html"


async def _index(session: BrowserSession, element_id: str) -> int:
    snapshot = (await session.state()).snapshot
    assert snapshot is not None
    for node in snapshot.selector_map.values():
        if node.attributes.get("id") == element_id:
            return node.index
    raise AssertionError(f"#{element_id} is not indexed")


@pytest.mark.parametrize(
    ("knob", "written", "shown", "reads"),
    [
        ("volume", "85", "85", "[aria-valuenow]"),
        ("volume", "set it to 20", "20", "[aria-valuenow]"),
        ("temp-knob", "18.5", "18.5 °C", "#temp"),
        ("temp-knob", "26", "26 °C", "#temp"),  # the right end: the probe goes left
    ],
)
async def test_a_number_typed_into_a_drawn_slider_moves_its_knob_there(
    session: BrowserSession, server: LocalServer, knob: str, written: str, shown: str, reads: str
) -> None:
    await session.navigate(server.url(PAGE))
    index = await _index(session, knob)
    moved = await run1(session, {"action": "input_text", "index": index, "text": written})
    assert moved.error is None, moved.error
    number = shown.split()[0]
    assert (
        moved.extracted_content == f"Moved the slider (element {index}) to {number}; the page shows {number}"
    )
    if reads == "#temp":
        assert await session.page.text_content("#temp") == shown
    else:
        assert await session.page.get_attribute("#volume", "aria-valuenow") == shown


async def test_a_number_between_the_steps_or_past_the_end_is_said(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url(PAGE))
    index = await _index(session, "temp-knob")
    past = await run1(session, {"action": "input_text", "index": index, "text": "30"})
    assert (
        past.error
        == f"the slider (element {index}) stopped at 26, not 30: it moves by 0.5 a step, between its ends."
    )
    words = await run1(session, {"action": "input_text", "index": index, "text": "warm"})
    assert words.error is not None and "is a slider: give input_text the number" in words.error


async def test_a_field_beside_the_sliders_is_typed_into(session: BrowserSession, server: LocalServer) -> None:
    await session.navigate(server.url(PAGE))
    index = await _index(session, "fan")
    typed = await run1(session, {"action": "input_text", "index": index, "text": "3"})
    assert typed.error is None and await session.page.input_value("#fan") == "3"


async def test_the_view_reads_both_knobs_as_sliders_and_says_the_value_the_knob_says(
    session: BrowserSession, server: LocalServer
) -> None:
    from browser_agent.dom.serializer import render

    await session.navigate(server.url(PAGE))
    state = await session.state()
    assert state.snapshot is not None
    view = render(state.snapshot)
    assert '<div role=slider value="50">Volume</div>' in view  # ARIA: the knob says its value
    assert "<span role=slider icon=temp-knob></span>" in view  # drawn: its class says slider, its track's
    assert "Temperature: 21 °C" in view
    assert "role=slider" not in view.split("Fan", 1)[1]  # a field is no slider
