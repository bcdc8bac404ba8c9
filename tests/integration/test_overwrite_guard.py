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
    assert "repeat this action" in held.error
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
