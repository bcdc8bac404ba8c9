"""Several words typed where the task asks for one word are held back once, saying how many; asked for
the last (or first) word, the refusal names the last (or first) of them. The same typing again goes
through, and one word, a text the task quotes and a task that asks for no single word are typed at once.
The page is a headline quiz, unlike the MiniWoB++ text area the rule was chosen on."""

from __future__ import annotations

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult
from tests.support.actions import type_as_model
from tests.support.server import LocalServer


async def _type(session: BrowserSession, server: LocalServer, text: str, task: str) -> ActionResult:
    page = server.url("controller/headline_quiz.html")
    return await type_as_model(session, page, "Your answer", text, task)


async def test_two_words_for_the_last_word_are_held_once_naming_the_last_of_them(
    session: BrowserSession, server: LocalServer
) -> None:
    task = "Type the last word of the headline into the answer box and press Check."
    held = await _type(session, server, "winter storms", task)
    assert held.error is not None and held.error.startswith("Not typed into element "), held
    assert held.held  # a hold (HeldBackError), not a failure: the next reply's evaluation says so
    assert held.error.endswith(
        ": the task asks for one word ('the last word'), and 'winter storms' is 2 words; the last of them is "
        "'storms': type 'storms' into element 0 (or the same text again if you meant it)."
    ), held.error
    assert await session.page.input_value("#answer") == ""
    again = await _type(session, server, "winter storms", task)
    assert again.error is None and await session.page.input_value("#answer") == "winter storms"
    one = await _type(session, server, "storms", task)
    assert one.error is None and await session.page.input_value("#answer") == "storms"


async def test_an_ordinal_word_names_that_word_of_the_longest_text(
    session: BrowserSession, server: LocalServer
) -> None:
    task = "Enter the 3rd word of the headline."
    held = await _type(session, server, "Harbour ferries return", task)
    assert held.error is not None and held.error.endswith(
        "('the 3rd word'), and 'Harbour ferries return' is 3 words; in 'Harbour ferries return after winter "
        "…' the 3rd word is 'return' (1 Harbour, 2 ferries, 3 return): type 'return' into element 0."
    ), held
    # no text of several words is the 3rd word: the same typing is held back again (the 1.5B model typed
    # "the 9th word" twice, then pressed Submit)
    again = await _type(session, server, "Harbour ferries return", task)
    assert again.error == held.error and await session.page.input_value("#answer") == ""
    word = await _type(session, server, "return", task)
    assert word.error is None and await session.page.input_value("#answer") == "return"


async def test_the_tasks_own_name_for_the_word_types_the_word(
    session: BrowserSession, server: LocalServer
) -> None:
    """Told that "the 3rd word" was how the task names the word, and which word it was, the 1.5B model
    typed "the 3rd word" again and again (find-word seeds 7 and 9): the word itself is typed, and the
    result says so."""
    typed = await _type(session, server, "The 3rd word", "Enter the 3rd word of the headline.")
    assert typed.error is None and await session.page.input_value("#answer") == "return", typed
    assert typed.extracted_content == (
        "Typed 'return' into element 0 (Your answer) in place of 'The 3rd word' (the task's name for the "
        "word: the 3rd word of 'Harbour ferries return after winter …'); the field now holds 'return'"
    ), typed.extracted_content
    other = await _type(session, server, "The 3rd word", 'Type "the 3rd word" into the answer box.')
    assert other.error is None and await session.page.input_value("#answer") == "The 3rd word", other


async def test_a_quoted_text_and_a_task_without_one_word_are_typed_at_once(
    session: BrowserSession, server: LocalServer
) -> None:
    quoted = await _type(session, server, "New York", 'Type the word "New York" into the answer box.')
    assert quoted.error is None, quoted
    words = await _type(session, server, "ferries return", "Type the words ferries return into the box.")
    assert words.error is None, words
    assert await session.page.input_value("#answer") == "ferries return"
