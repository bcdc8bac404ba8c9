"""Enter in a text field that no form holds, where the page does not listen for it, sends nothing: the
result says so and names the button that reads like sending (a small model took "Pressed Enter" for a
forwarded mail). Enter that the page answers, or that submits a form, reads as before."""

from __future__ import annotations

import pytest

from browser_agent.browser import BrowserSession
from browser_agent.browser.page_text import page_text
from browser_agent.controller import ActionResult, Controller
from tests.support.pages import index_of
from tests.support.server import LocalServer


@pytest.fixture
async def desk(session: BrowserSession, server: LocalServer) -> BrowserSession:
    await session.navigate(server.url("controller/composer.html"))
    return session


async def _type_then_enter(
    session: BrowserSession, field: str, text: str, enter: str = "Enter"
) -> ActionResult:
    index = await index_of(session, field)
    actions = [
        {"action": "input_text", "index": index, "text": text},
        {"action": "send_keys", "keys": enter},
    ]
    typed, pressed = await Controller().run(actions, session, model_chose=True)
    assert typed.error is None, typed.error
    return pressed


async def test_enter_in_a_field_outside_a_form_that_changes_nothing_is_said(desk: BrowserSession) -> None:
    field = await index_of(desk, "Forward to")
    send = await index_of(desk, "Send forward")
    pressed = await _type_then_enter(desk, "Forward to", "Priya")
    assert pressed.extracted_content == (
        f"Pressed Enter; nothing on the page changed: element {field} is in no form that Enter sends, so "
        f"nothing was sent. Click the button that sends what it holds; element {send} reads like one"
    ), pressed.extracted_content
    assert await desk.page.text_content("#status") == ""


@pytest.mark.parametrize("enter", ["\r", "\n", "\r\n"])
async def test_enter_sent_as_the_character_it_types_is_enter(desk: BrowserSession, enter: str) -> None:
    # the 1.5B model sent "\r": it was pressed as Enter, and the result read "Pressed \r", saying nothing
    send = await index_of(desk, "Send forward")
    pressed = await _type_then_enter(desk, "Forward to", "Priya", enter)
    said = pressed.extracted_content or ""
    assert said.startswith("Pressed Enter; nothing on the page changed"), said
    assert said.endswith(f"element {send} reads like one"), said
    saved = await _type_then_enter(desk, "Note", "Call the vendor", enter)
    assert saved.extracted_content == "Pressed Enter", saved.extracted_content
    assert await desk.page.text_content("#status") == "Sent note"


async def test_enter_the_page_answers_or_a_form_takes_reads_as_before(desk: BrowserSession) -> None:
    filtered = await _type_then_enter(desk, "Filter people", "ing")
    assert filtered.extracted_content == "Pressed Enter", filtered.extracted_content
    assert await desk.page.is_hidden("#people li >> nth=0")
    saved = await _type_then_enter(desk, "Note", "Call the vendor")
    assert saved.extracted_content == "Pressed Enter", saved.extracted_content
    assert await desk.page.text_content("#status") == "Sent note"


async def test_an_unknown_input_type_shows_as_the_text_field_it_is(desk: BrowserSession) -> None:
    view = page_text(await desk.state()).body
    field = await index_of(desk, "Forward to")
    assert f"Forward to\n[{field}]<input/>" in view, view  # type="Input" made a text field


async def test_scroll_to_text_of_a_name_and_a_word_scrolls_to_the_name(desk: BrowserSession) -> None:
    action = {"action": "scroll_to_text", "text": "Ingrid's message"}
    [result] = await Controller().run([action], desk, model_chose=True)
    assert result.extracted_content == (
        "The text \"Ingrid's message\" is not on the page word for word; scrolled to 'Ingrid'"
    ), (result.extracted_content, result.error)
    assert "Ingrid Holm wrote" in page_text(await desk.state()).body


async def test_a_text_that_holds_a_secret_gives_no_name_to_scroll_to(desk: BrowserSession) -> None:
    # "Ingrid" is a part of the secret: quoted in a result, it would pass the redaction of the whole
    action = {"action": "scroll_to_text", "text": "Ingrid-7731 note"}
    [result] = await Controller().run([action], desk, model_chose=True, sensitive_data={"pin": "Ingrid-7731"})
    said = f"{result.extracted_content} {result.error}"
    assert result.error is not None and "Ingrid" not in said, said
