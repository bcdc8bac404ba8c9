"""A ``done`` text answers a question when it says something beyond the question's words, small words
and talk about the run itself."""

from __future__ import annotations

import pytest

from browser_agent.agent.answer_check import asks_question, holds_answer

QUESTION = "Answer from this page: In what year was Arduino LLC incorporated?"


@pytest.mark.parametrize(
    "text",
    [
        "The task is done.",
        "The task is complete.",
        "The page did not change, so no actions were taken.",
        "The page did not change after the last action, so no new information was gathered.",
        "The page is still the same, so no new information was found.",
        "Arduino LLC was incorporated.",  # the question's words only
        "No answer found.",
        "The page content matches the task.",
        "The relevant information was found correctly.",
        "",
    ],
)
def test_texts_that_answer_nothing(text: str) -> None:
    assert not holds_answer(QUESTION, text)


@pytest.mark.parametrize(
    "text",
    [
        "2008",
        "Arduino LLC was incorporated in 2008.",
        "Ivrea",
        "Yes.",
        "No, it was never incorporated.",
        "The founders did that in the spring.",  # wrong or right, it says something
    ],
)
def test_texts_that_answer(text: str) -> None:
    assert holds_answer(QUESTION, text)


def test_in_a_choice_the_answer_may_be_a_word_of_the_question() -> None:
    assert holds_answer("Which is older, the lighthouse or the warehouse?", "The warehouse.")
    assert not holds_answer("Which is older, the lighthouse or the warehouse?", "The task is done.")


@pytest.mark.parametrize(
    ("task", "asks"),
    [
        (QUESTION, True),
        ("How much is a family ticket?", True),
        ("Select DKkQH and click Submit.", False),
        ('Enter the username "vina" and press login.', False),
    ],
)
def test_a_question_is_a_task_with_a_question_mark(task: str, asks: bool) -> None:
    assert asks_question(task) is asks
