"""A field's long value reads its beginning and its end (where typing goes on, the last word of a text
area), cut in the middle between whole words; with secrets the capture reads the same, and a secret near
the end is masked."""

from __future__ import annotations

from browser_agent.browser import BrowserSession
from browser_agent.dom import render
from browser_agent.dom.extractor import extract_snapshot
from tests.support.server import LocalServer


async def test_a_long_value_shows_its_beginning_and_its_end(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("dom/long_values.html"))
    view = render(await extract_snapshot(session.page))
    # Cut between whole words: half a word ("ts go out") read as a word of its own.
    assert 'value="The printer near the kitchen … go out on Friday."' in view
    assert 'value="Printer on the third floor prints … since Monday morning"' in view
    assert 'value="Workplace technology and office … (second line)"' in view
    for line in view.splitlines():
        if "value=" in line:
            value = line.split('value="', 1)[1].split('"', 1)[0]
            assert 40 <= len(value) <= 60


async def test_with_a_redactor_the_same_values_are_shown_and_a_secret_at_the_end_is_masked(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("dom/long_values.html"))
    plain = await extract_snapshot(session.page)
    assert render(await extract_snapshot(session.page, redact=lambda text: text)) == render(plain)
    masked = render(
        await extract_snapshot(
            session.page, redact=lambda text: text.replace("Friday", "<secret>day</secret>")
        )
    )
    assert "Friday" not in masked and "Fri" not in masked.split("Ticket", 1)[1]
    assert "day</secret>." in masked  # the placeholder's end, cut after the redaction (never before it)
