"""Which sentences of a pop-up ask about leaving the page (the leave guard's question)."""

from __future__ import annotations

import pytest

from browser_agent.controller.actions.leave_guard import leaving_sentence


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("Your session is about to expire.\nExit to home page?\nOK Cancel", "Exit to home page?"),
        ("Still there? You have been idle. Do you want to sign out now?", "Do you want to sign out now?"),
        ("Leave this page? Changes you made may not be saved.", "Leave this page?"),
        ("Discard this draft?", "Discard this draft?"),
        ("Log off now?", "Log off now?"),
        ("Are you quite sure you want to save?", None),  # "quite" is no "quit"
        ("Save this payee for next time?", None),
        ("You will lose your changes.", None),  # no question
        ("Delete this email?", None),  # deleting is not leaving
    ],
)
def test_the_sentence_that_asks_about_leaving(text: str, asked: str | None) -> None:
    assert leaving_sentence(text) == asked
