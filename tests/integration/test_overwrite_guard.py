"""Typing with ``clear`` over a long text that the page wrote is held back once, saying what the field
holds; the same action again replaces it. Adding to a text, typing again over what an action typed, short
values and replays are never held. Chosen on MiniWoB++'s scroll-text (the word typed over the text it
was read from); this page is a support ticket with a customer's message and a reply box."""

from __future__ import annotations

import pytest

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult, Controller
from tests.support.pages import index_of
from tests.support.server import LocalServer


@pytest.fixture
async def page(session: BrowserSession, server: LocalServer) -> BrowserSession:
    await session.navigate(server.url("controller/ticket_reply.html"))
    return session


async def _run(
    session: BrowserSession, *actions: dict[str, object], chose: bool = True
) -> list[ActionResult]:
    return await Controller().run(list(actions), session, model_chose=chose)


async def _value(session: BrowserSession, selector: str) -> str:
    return str(await session.page.input_value(selector))


async def test_typing_over_the_pages_long_text_is_held_back_once(page: BrowserSession) -> None:
    message = await index_of(page, "Customer's message")
    original = await _value(page, "#message")
    [held] = await _run(page, {"action": "input_text", "index": message, "text": "Maren", "clear": True})
    assert held.error is not None
    assert held.error.startswith(
        f"element {message} (Customer's message) holds a text of {len(original)} characters that the page "
        "wrote ('Hello, I ordered two lamps on the … Thank you, Maren'); typing with clear=true would "
        "replace all of it."
    ), held.error
    reply = await index_of(page, "Your reply")
    assert held.error.endswith(
        f"type the answer into element {reply}, the page's empty text field; to replace it anyway, repeat "
        "this action."
    ), held.error
    assert await _value(page, "#message") == original
    [again] = await _run(page, {"action": "input_text", "index": message, "text": "Maren", "clear": True})
    assert again.error is None and await _value(page, "#message") == "Maren"


async def test_adding_to_the_text_and_short_values_go_through(page: BrowserSession) -> None:
    message, note = await index_of(page, "Customer's message"), await index_of(page, "Internal note")
    original = await _value(page, "#message")
    results = await _run(
        page,
        {"action": "input_text", "index": message, "text": " (forwarded)", "clear": False},
        {"action": "input_text", "index": note, "text": "Courier: Fastline", "clear": True},
    )
    assert [r.error for r in results] == [None, None]
    assert await _value(page, "#message") == original + " (forwarded)"
    assert await _value(page, "#note") == "Courier: Fastline"


async def test_a_long_text_the_agent_typed_is_retyped_at_once(page: BrowserSession) -> None:
    reply = await index_of(page, "Your reply")
    first = "Dear Maren, we are sorry: the lamps were lost by the courier. " * 3
    second = "Dear Maren, a new pair of lamps leaves our warehouse today; the tracking number follows."
    results = await _run(
        page,
        {"action": "input_text", "index": reply, "text": first, "clear": True},
        {"action": "input_text", "index": reply, "text": second, "clear": True},
    )
    assert [r.error for r in results] == [None, None]
    assert await _value(page, "#reply") == second


async def test_a_replay_types_what_it_is_given(page: BrowserSession) -> None:
    message = await index_of(page, "Customer's message")
    [typed] = await _run(
        page, {"action": "input_text", "index": message, "text": "Maren", "clear": True}, chose=False
    )
    assert typed.error is None and await _value(page, "#message") == "Maren"


async def test_the_word_read_from_the_text_is_pointed_to_the_empty_field(page: BrowserSession) -> None:
    """Several words typed over the text they were read from: the one-word hold names the empty field
    for the word, not the text's own (scroll-text: the 1.5B model typed the word into the text area)."""
    message, reply = await index_of(page, "Customer's message"), await index_of(page, "Your reply")
    task = "Find the last word of the customer's message and type it into the reply."
    typing = {"action": "input_text", "index": message, "text": "Thank you, Maren", "clear": True}
    [first] = await Controller().run([typing], page, model_chose=True, task=task)
    assert first.error is not None and "holds a text of" in first.error, first
    [second] = await Controller().run([typing], page, model_chose=True, task=task)
    assert second.error is not None and second.error.endswith(
        f"the last of them is 'Maren': type 'Maren' into element {reply} (or the same text again if you "
        "meant it)."
    ), second.error


async def test_another_text_over_the_pages_text_is_held_once_more(page: BrowserSession) -> None:
    """Held back once for the whole text, then told to put the word in the empty field, the model typed
    the word over the text area (scroll-text seeds 52 and 57): that other text is held once as well."""
    message, reply = await index_of(page, "Customer's message"), await index_of(page, "Your reply")
    whole = {"action": "input_text", "index": message, "text": "Thank you, Maren", "clear": True}
    word = {"action": "input_text", "index": message, "text": "Maren", "clear": True}
    await _run(page, whole)
    [second] = await _run(page, word)
    assert second.error is not None and f"into element {reply}, the page's empty text field" in second.error
    [third] = await _run(page, word)
    assert third.error is None and await _value(page, "#message") == "Maren", third
