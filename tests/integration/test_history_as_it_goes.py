"""With ``save_history_path`` the history is on disk after every step, whole, before anyone hears of the
step; a save that fails mid-run (a full disk) is said in the log and the run goes on."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from browser_agent import Agent, AgentHistory, AgentSettings, BrowserSession
from browser_agent.agent import AgentHooks
from browser_agent.record import AgentStep
from browser_agent.testing import ScriptedChatModel
from tests.support.server import LocalServer


def _scrolls(count: int) -> list[dict[str, Any]]:
    brain = {"evaluation_previous_goal": "ok", "memory": "", "next_goal": "scroll"}
    moves = [
        {"current_state": brain, "action": [{"action": "scroll", "pages": 0.1 * n}]} for n in range(count)
    ]
    done = {"action": "done", "text": "scrolled", "success": True}
    return [*moves, {"current_state": brain, "action": [done]}]


async def test_each_step_is_saved_before_its_hook_hears_of_it(
    session: BrowserSession, server: LocalServer, tmp_path: Path
) -> None:
    path = tmp_path / "run.json"
    on_disk: list[list[int]] = []

    def on_end(_agent: Agent, step: AgentStep) -> None:
        on_disk.append([s.step for s in AgentHistory.load(path).steps])
        assert on_disk[-1][-1] == step.step

    agent = Agent(
        f"Scroll {server.url('agent/links.html')}",
        ScriptedChatModel(replies=_scrolls(2)),
        browser=session,
        settings=AgentSettings(save_history_path=path),
        hooks=AgentHooks(on_step_end=on_end),
    )
    history = await agent.run(max_steps=5)
    assert on_disk == [[0], [0, 1], [0, 1, 2], [0, 1, 2, 3]]
    assert AgentHistory.load(path).end_reason == history.end_reason == "done"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.json"], "no temporary file left"


async def test_a_save_that_fails_mid_run_is_logged_and_the_run_goes_on(
    session: BrowserSession, server: LocalServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "file").write_text("not a folder")
    model = ScriptedChatModel(replies=_scrolls(2))
    agent = Agent(
        f"Scroll {server.url('agent/links.html')}",
        model,
        browser=session,
        settings=AgentSettings(save_history_path=tmp_path / "file" / "run.json"),
    )
    with caplog.at_level(logging.WARNING, logger="browser_agent"), pytest.raises(OSError):
        await agent.run(max_steps=5)  # the save at the end fails as it always did
    assert len(model.calls) == 3 and agent.history.is_done(), "every step ran"
    warnings = [r.getMessage() for r in caplog.records if "Could not save the history" in r.getMessage()]
    assert len(warnings) == 4 and "after step 3" in warnings[-1], warnings
