"""An element partly under another is found and clicked on the part that shows, as a person would; one
covered all over is not offered."""

from __future__ import annotations

from browser_agent.browser import BrowserSession
from browser_agent.browser.page_text import page_text
from browser_agent.controller import Controller
from tests.support.pages import index_of
from tests.support.server import LocalServer


async def test_a_button_half_under_a_floating_widget_is_offered_and_clicked_where_it_shows(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("dom/partly_covered.html"))
    # the centre of Checkout is under the chat bubble: only its left part shows
    covered = await session.page.evaluate("document.elementFromPoint(120, 104).id")
    assert covered == "chat"
    body = page_text(await session.state()).body
    assert "<button>Checkout</button>" in body and "<button>Chat with us</button>" in body
    # under the grey box all over: nothing of it can be clicked, so it is text, not an element
    assert "\nApply coupon\n" in body and "<button>Apply coupon" not in body
    [result] = await Controller().run(
        [{"action": "click_element", "index": await index_of(session, "Checkout")}], session
    )
    assert result.error is None
    assert await session.page.inner_text("#log") == "checkout;"


async def test_a_sliver_of_a_button_that_shows_is_clicked_and_hovered(
    session: BrowserSession, server: LocalServer
) -> None:
    """Save for later shows only its leftmost 6 px beside a promotion: too thin for a 3x3 grid of points,
    found by a finer one (MiniWoB++'s click-test-2 laid one button all but 7 px under the other, and the
    click waited out the action timeout)."""
    await session.navigate(server.url("dom/partly_covered.html"))
    assert await session.page.evaluate("document.elementFromPoint(60, 360).id") == "promo"
    [result] = await Controller().run(
        [{"action": "click_element", "index": await index_of(session, "Save for later")}], session
    )
    assert result.error is None
    assert await session.page.inner_text("#log") == "later;"
    [hovered] = await Controller().run(
        [{"action": "hover", "index": await index_of(session, "Save for later")}], session
    )
    assert hovered.error is None
    assert await session.page.evaluate("document.getElementById('later').matches(':hover')")


async def test_a_partly_covered_element_in_a_frame_is_clicked_where_it_shows(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("dom/partly_covered_frame.html"))
    index = await index_of(session, "Checkout")
    [result] = await Controller().run([{"action": "click_element", "index": index}], session)
    assert result.error is None
    frame = session.page.frames[1]
    assert await frame.inner_text("#log") == "checkout;"
