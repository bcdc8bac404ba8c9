"""Typing an email address that neither the task nor the page gives is held back once, naming the word
of the task the address was made from; the same typing again goes through. An address the page shows,
or one the task gives, is typed at once. The page is a document's share box with the team's addresses
listed, unlike MiniWoB++'s mail client (forward to a name) the rule was chosen on."""

from __future__ import annotations

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult, Controller
from tests.support.actions import type_as_model
from tests.support.pages import index_of
from tests.support.server import LocalServer


async def _type(session: BrowserSession, server: LocalServer, text: str, task: str) -> ActionResult:
    page = server.url("controller/share_document.html")
    return await type_as_model(session, page, "Add people", text, task)


async def test_a_made_up_address_is_held_once_naming_the_word_it_was_made_from(
    session: BrowserSession, server: LocalServer
) -> None:
    task = "Share the budget with Priya."
    held = await _type(session, server, "priya@budgetmail.com", task)
    assert held.error is not None and "Not typed into element " in held.error, held
    assert held.error.endswith(
        ": 'priya@budgetmail.com' is an email address that neither the task nor the page gives (a made-up "
        "one); the task names 'Priya': type that (or the same text again if you meant it)."
    ), held.error
    assert await session.page.input_value("#people") == ""
    again = await _type(session, server, "priya@budgetmail.com", task)
    assert again.error is None and await session.page.input_value("#people") == "priya@budgetmail.com"


async def test_an_address_at_a_domain_for_examples_made_from_the_tasks_name_types_the_name(
    session: BrowserSession, server: LocalServer
) -> None:
    typed = await _type(session, server, "Priya@Example.com", "Share the budget with Priya.")
    assert typed.error is None, typed
    assert typed.extracted_content is not None and typed.extracted_content.startswith(
        "Typed 'Priya' into element "
    )
    assert "in place of 'priya@example.com' (a made-up address; the task gives the name)" in (
        typed.extracted_content
    )
    assert await session.page.input_value("#people") == "Priya"
    other = await _type(session, server, "finance@example.com", "Share the budget with Priya.")
    assert other.error is not None and "type what the task gives" in other.error  # no name of the task in it


async def test_an_address_the_page_shows_or_the_task_gives_is_typed_at_once(
    session: BrowserSession, server: LocalServer
) -> None:
    shown = await _type(session, server, "dana.reyes@northwind.test", "Share the budget with Dana.")
    assert shown.error is None, shown
    given = await _type(session, server, "omar@contoso.test", "Share the budget with omar@contoso.test.")
    assert given.error is None and await session.page.input_value("#people") == "omar@contoso.test"
    name = await _type(session, server, "Priya", "Share the budget with Priya.")
    assert name.error is None


async def test_without_a_word_of_the_task_in_it_the_refusal_asks_for_what_the_task_gives(
    session: BrowserSession, server: LocalServer
) -> None:
    held = await _type(session, server, "someone@example.com", "Share the budget with the auditors.")
    assert held.error is not None and held.error.endswith(
        "(a made-up one); type what the task gives (or the same text again if you meant it)."
    ), held.error


async def test_a_secret_address_typed_by_its_placeholder_is_typed_at_once(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("controller/share_document.html"))
    await session.state()
    field = await index_of(session, "Add people")
    action = {"action": "input_text", "index": field, "text": "<secret>auditor</secret>"}
    [result] = await Controller().run(
        [action],
        session,
        model_chose=True,
        task="Share the budget with <secret>auditor</secret>.",
        sensitive_data={"auditor": "ops.audit@corp.test"},
    )
    assert result.error is None, result
    assert await session.page.input_value("#people") == "ops.audit@corp.test"
