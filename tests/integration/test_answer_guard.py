"""A ``done`` that claims success on a task asking a question, with a text that answers nothing, is held
back once and asked for the answer; a ``done`` with an answer, one that admits failure, and the second
answerless ``done`` end the run as the model says."""

from __future__ import annotations

from browser_agent import Agent
from browser_agent.browser import BrowserSession
from browser_agent.record import AgentHistory
from browser_agent.testing import ScriptedChatModel
from tests.support.server import LocalServer

QUESTION = "Answer from this page: how much does a family ticket cost?"


def _done(text: str, success: bool = True) -> dict[str, object]:
    brain = {"evaluation_previous_goal": "Unknown", "memory": "", "next_goal": "finish"}
    return {"current_state": brain, "action": [{"action": "done", "text": text, "success": success}]}


def _read() -> dict[str, object]:
    brain = {"evaluation_previous_goal": "Unknown", "memory": "", "next_goal": "find the price"}
    return {"current_state": brain, "action": [{"action": "scroll_to_text", "text": "family ticket"}]}


async def _run(
    session: BrowserSession, server: LocalServer, task: str, *replies: dict[str, object]
) -> AgentHistory:
    await session.navigate(server.url("reading/museum_handbook.html"))
    return await Agent(task, ScriptedChatModel(replies=list(replies)), browser=session).run(max_steps=6)


async def test_a_done_that_answers_nothing_is_held_back_and_the_answer_ends_the_run(
    session: BrowserSession, server: LocalServer
) -> None:
    history = await _run(session, server, QUESTION, _done("The task is done."), _read(), _done("32 euros"))
    held = history.steps[0].results[0]
    assert held.error is not None and not held.is_done
    assert held.error.startswith('not done yet: the task asks a question and "The task is done." does not')
    assert "then call done with the answer as its text" in held.error
    assert [len(s.results) for s in history.steps] == [1, 1, 1]
    assert history.is_done() and history.is_successful() and history.final_result() == "32 euros"


async def test_the_second_answerless_done_ends_the_run(session: BrowserSession, server: LocalServer) -> None:
    history = await _run(session, server, QUESTION, _done("The task is done."), _read(), _done("Finished."))
    assert history.steps[0].results[0].error is not None
    assert len(history.steps) == 3 and history.is_done() and history.final_result() == "Finished."


async def test_an_answer_a_failure_or_a_task_that_asks_nothing_ends_the_run_at_once(
    session: BrowserSession, server: LocalServer
) -> None:
    for task, reply in [
        (QUESTION, _done("A family ticket costs 32 euros.")),
        (QUESTION, _done("The task is done.", success=False)),
        ("Open the museum handbook and stop there.", _done("The task is done.")),
    ]:
        history = await _run(session, server, task, reply)
        assert len(history.steps) == 1 and history.is_done(), task
        assert history.steps[0].results[0].error is None
