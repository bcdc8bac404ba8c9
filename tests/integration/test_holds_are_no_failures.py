"""Steps whose actions were only held back by a check do not count toward ``max_failures``: each hold
told the model something new. An email-inbox run ended on three such steps in a row with steps left.
This page is a recipe box; a step that really fails still counts."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from browser_agent import Agent, AgentSettings
from browser_agent.browser import BrowserSession
from browser_agent.errors import AgentRunError
from browser_agent.testing import ScriptedChatModel
from tests.support.server import LocalServer
from tests.support.turns import in_turn, step

TASK = "Bookmark the Mushroom risotto."
SETTINGS = AgentSettings(max_failures=3, save_history_path=None)


def _nth(pattern: str, nth: int) -> Callable[[str], dict[str, object]]:
    def reply(page: str) -> dict[str, object]:
        index = int(re.findall(rf"\[(\d+)\]{pattern}", page)[nth])
        return step("click", {"action": "click_element", "index": index})

    return reply


def _missing(page: str) -> dict[str, object]:
    return step("click", {"action": "click_element", "index": 99})


def _finish(page: str) -> dict[str, object]:
    return step("finish", {"action": "done", "text": "Bookmarked", "success": True})


async def test_three_held_steps_in_a_row_do_not_end_the_run(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("dom/look_alikes.html"))
    holds = (_nth("<button icon=bookmark", 0), _nth("<button>Print all", 0), _nth("<button icon=trash", 0))
    policy = in_turn(*holds, _nth("<button icon=bookmark", 1), _finish)
    history = await Agent(TASK, ScriptedChatModel(policy=policy), browser=session, settings=SETTINGS).run(
        max_steps=8
    )
    assert [s.results[-1].held for s in history.steps[:3]] == [True, True, True], history.steps
    assert history.is_done() and await session.page.inner_text("#said") == "Bookmarked Mushroom risotto"


async def test_failed_steps_still_end_the_run(session: BrowserSession, server: LocalServer) -> None:
    await session.navigate(server.url("dom/look_alikes.html"))
    # a hold between failures neither counts nor clears the count
    policy = in_turn(_missing, _nth("<button icon=bookmark", 0), _missing, _missing)
    with pytest.raises(AgentRunError, match="3 steps failed in a row") as info:
        await Agent(TASK, ScriptedChatModel(policy=policy), browser=session, settings=SETTINGS).run(
            max_steps=8
        )
    assert len(info.value.history.steps) == 4  # failed, held, failed, failed
