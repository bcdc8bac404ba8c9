"""A word typed where the task asks for the Nth word, and no text in view has it there, is held back
once, naming the Nth word of the page's longest text; the page's copy of the instruction is not counted.
The Nth word of any text in view, the same word again, and a task that asks for no Nth word go through;
a field that shows a value counts with its whole value. The page is a word puzzle with a quotation,
unlike the MiniWoB++ paragraph the rule was chosen on; its control with no name once made the last word
raise IndexError (scroll-text, seed 54: the run ended on it)."""

from __future__ import annotations

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult
from tests.support.actions import type_as_model
from tests.support.server import LocalServer

_TASK = "Type the 4th word of the quotation into the answer box."


async def _type(session: BrowserSession, server: LocalServer, text: str, task: str = _TASK) -> ActionResult:
    return await type_as_model(session, server.url("controller/word_puzzle.html"), "Answer", text, task)


async def test_a_word_of_the_instruction_is_held_once_naming_the_nth_word_of_the_longest_text(
    session: BrowserSession, server: LocalServer
) -> None:
    held = await _type(session, server, "word")
    assert held.error is not None and held.error.startswith("Not typed into element "), held
    assert held.error.endswith(
        ": the task asks for 'the 4th word', and 'word' (a word of the task's own sentence) is not that word "
        "of any text in view. In 'Slow rivers slowly carve deep canyons …' it is 'carve' (1 Slow, 2 rivers, "
        "3 slowly, 4 carve): type 'carve' into element 2 (or the same text again if you meant it)."
    ), held.error
    assert await session.page.input_value("#answer") == ""
    again = await _type(session, server, "word")
    assert again.error is None and await session.page.input_value("#answer") == "word"


async def test_the_nth_word_of_any_text_in_view_is_typed_at_once(
    session: BrowserSession, server: LocalServer
) -> None:
    right = await _type(session, server, "Carve")
    assert right.error is None and await session.page.input_value("#answer") == "Carve", right
    other = await _type(session, server, "District")  # the credit's 4th word: the model may mean it
    assert other.error is None and await session.page.input_value("#answer") == "District", other


async def test_the_last_word_is_named_and_other_tasks_are_not_checked(
    session: BrowserSession, server: LocalServer
) -> None:
    last = await _type(session, server, "rivers", "Type the last word of the quotation into the answer box.")
    assert last.error is not None and last.error.endswith(
        "In '… wind and rain' it is 'rain': type 'rain' into element 2 (or the same text again if you meant "
        "it)."
    ), last
    free = await _type(session, server, "rivers", "Type a river's name into the answer box.")
    assert free.error is None and await session.page.input_value("#answer") == "rivers", free


async def test_a_field_that_shows_a_value_counts_with_its_whole_value(
    session: BrowserSession, server: LocalServer
) -> None:
    """The view shows a long value's ends only; its last word is read from the page (scroll-text: the
    1.5B model typed a word from the middle of the text area)."""
    await session.navigate(server.url("controller/word_puzzle.html"))
    notes = " ".join(f"pebble{n}" for n in range(80)) + " and the final boulder"
    await session.page.fill("#notes", notes)
    task = "Type the last word of the notes into the answer box."
    held = await _type(session, server, "pebble40", task)
    assert held.error is not None and held.error.endswith(
        "In '… the final boulder' it is 'boulder': type 'boulder' into element 2 (or the same text again if "
        "you meant it)."
    ), held
    right = await _type(session, server, "boulder", task)
    assert right.error is None and await session.page.input_value("#answer") == "boulder", right
    # typed into the notes themselves, their last word is no wrong word (the field may be wrong: the
    # guard against typing over the page's text speaks of that)
    await session.page.fill("#answer", "")
    url = server.url("controller/word_puzzle.html")
    over = await type_as_model(session, url, "Notes", "boulder", task)
    assert over.error is not None and "that the page wrote" in over.error, over
    into = await type_as_model(session, url, "Notes", "boulder", task)  # meant: not held for the word
    assert into.error is None and await session.page.input_value("#notes") == "boulder", into


async def test_the_words_are_not_counted_out_when_they_hold_a_secret(
    session: BrowserSession, server: LocalServer
) -> None:
    """Counted apart ("2 rivers, 3 slowly"), a secret's words would no longer read as the secret."""
    url = server.url("controller/word_puzzle.html")
    held = await type_as_model(session, url, "Answer", "word", _TASK, sensitive_data={"x": "rivers slowly"})
    assert held.error is not None and "rivers" not in held.error and "slowly" not in held.error, held
    assert held.error.endswith("type 'carve' into element 2 (or the same text again if you meant it)."), held
