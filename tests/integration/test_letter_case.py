"""A text the task quotes and asks for in one letter case is typed in that case, and the result says so;
a text the task does not quote, or a task that asks for no case or for both, is typed as it is. The page
is a headline quiz, unlike MiniWoB++'s plain text box the rule was chosen on."""

from __future__ import annotations

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult
from tests.support.actions import type_as_model
from tests.support.server import LocalServer


async def _type(session: BrowserSession, server: LocalServer, text: str, task: str) -> ActionResult:
    page = server.url("controller/headline_quiz.html")
    return await type_as_model(session, page, "Your answer", text, task)


async def test_a_quoted_text_is_typed_in_the_case_the_task_asks_for(
    session: BrowserSession, server: LocalServer
) -> None:
    typed = await _type(session, server, "Harbour", 'Type "harbour" in capital letters into the answer box.')
    assert typed.error is None and typed.extracted_content is not None, typed
    assert "in place of 'Harbour' (the task asks for upper case)" in typed.extracted_content
    assert await session.page.input_value("#answer") == "HARBOUR"
    lower = await _type(session, server, "FeRRies", 'Enter "FERRIES" in all lower case letters.')
    assert lower.error is None and await session.page.input_value("#answer") == "ferries"


async def test_other_texts_and_tasks_are_typed_as_they_are(
    session: BrowserSession, server: LocalServer
) -> None:
    for text, task in (
        ("Storms", 'Type "harbour" in capital letters into the answer box.'),  # not the quoted text
        ("Harbour", 'Type "harbour" into the answer box.'),  # no case asked for
        ("HarBour", 'Type "harbour" in upper case, then "ferries" in lower case.'),  # both
    ):
        typed = await _type(session, server, text, task)
        assert typed.error is None and "in place of" not in str(typed.extracted_content), typed
        assert await session.page.input_value("#answer") == text
