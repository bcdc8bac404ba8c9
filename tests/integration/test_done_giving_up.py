"""A ``done`` that gives up (``success`` false) right after an action failed or was held back is refused
once, before the run's last step: the error had said what to do next. Chosen on MiniWoB++'s email-inbox
(told to type the reply first, the 1.5B model gave up at once); this page is a help desk."""

from __future__ import annotations

from collections.abc import Callable

from browser_agent import Agent
from browser_agent.browser import BrowserSession
from browser_agent.record import AgentHistory
from browser_agent.testing import ScriptedChatModel, find_index
from tests.support.server import LocalServer
from tests.support.turns import Policy, in_turn, step

TASK = "Open ticket T-311 and forward it to Priya."
REFUSAL = (
    "not done yet: the last step's error says what to do next; do that first (a later done ends the run as "
    "it is)."
)


def _click(tag: str, name: str) -> Callable[[str], dict[str, object]]:
    return lambda page: step("click", {"action": "click_element", "index": find_index(page, tag, name)})


def _missing(page: str) -> dict[str, object]:
    return step("click", {"action": "click_element", "index": 99})


def _give_up(page: str) -> dict[str, object]:
    return step("give up", {"action": "done", "text": "The form cannot be sent.", "success": False})


def _type(page: str) -> dict[str, object]:
    return step("type", {"action": "input_text", "index": find_index(page, "input", "to:"), "text": "Priya"})


def _finish(page: str) -> dict[str, object]:
    return step("finish", {"action": "done", "text": "Forwarded", "success": True})


async def _run(
    session: BrowserSession, server: LocalServer, policy: Policy, max_steps: int = 9
) -> AgentHistory:
    await session.navigate(server.url("agent/helpdesk.html"))
    return await Agent(TASK, ScriptedChatModel(policy=policy), browser=session).run(max_steps=max_steps)


async def test_giving_up_right_after_a_hold_is_refused_once(
    session: BrowserSession, server: LocalServer
) -> None:
    send = _click("button", "Send")
    opened = (_click("tr", "T-311"), _click("button", "Hand over"))
    history = await _run(session, server, in_turn(*opened, _missing, _give_up, _type, send, _finish))
    failed = history.steps[2].results[-1]
    assert failed.error is not None and "element 99 is not on the page" in failed.error, failed
    refused = history.steps[3].results[-1]
    assert refused.error == REFUSAL and not refused.is_done, refused
    assert history.is_done() and history.is_successful()
    assert (await session.page.inner_text("#owner")).strip() == "With Priya"


async def test_giving_up_again_or_without_an_error_or_on_the_last_step_ends_the_run(
    session: BrowserSession, server: LocalServer
) -> None:
    opened = (_click("tr", "T-311"), _click("button", "Hand over"))
    # the second give-up after an error ends the run
    history = await _run(session, server, in_turn(*opened, _missing, _give_up, _type, _missing, _give_up))
    assert history.steps[3].results[-1].error == REFUSAL
    assert history.is_done() and not history.is_successful() and len(history.steps) == 7
    # no action failed in the step before: the run ends at once
    history = await _run(session, server, in_turn(*opened, _give_up))
    assert history.is_done() and len(history.steps) == 3
    # on the run's last step nothing is left to try
    history = await _run(session, server, in_turn(*opened, _missing, _give_up), max_steps=4)
    assert history.is_done() and not history.is_successful() and len(history.steps) == 4
