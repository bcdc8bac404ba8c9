"""Replay a real-looking run: a recovered mistake is not replayed, substitutions reach inside URLs,
secrets come from a file or the environment."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from browser_agent import Agent, AgentHistory, BrowserSession, Controller, ReplayOptions, replay
from browser_agent.cli import main_async
from browser_agent.testing import ScriptedChatModel, find_index
from tests.support.server import LocalServer

PASSWORD = "correct-horse-battery"


def _brain(goal: str) -> dict[str, str]:
    return {"evaluation_previous_goal": "Unknown", "memory": goal, "next_goal": goal}


def _page(messages: list[BaseMessage]) -> str:
    text = next(str(m.content) for m in reversed(messages) if "Current URL:" in str(m.content))
    return text.split("Page (interactive elements and text):", 1)[-1]


async def _record_login(session: BrowserSession, url: str, tmp_path: Path) -> Path:
    """Open the login page, click an index that is not there (and recover), sign in, report."""
    turns = iter(range(10))

    def policy(messages: list[BaseMessage]) -> dict[str, Any]:
        turn, page = next(turns), _page(messages)
        if turn == 0:
            return {"current_state": _brain("open"), "action": [{"action": "go_to_url", "url": url}]}
        if turn == 1:
            return {"current_state": _brain("sign in"), "action": [{"action": "click_element", "index": 99}]}
        if "balance" in page:
            return {
                "current_state": _brain("report"),
                "action": [{"action": "done", "text": "signed in", "success": True}],
            }
        fill = [
            {"action": "input_text", "index": find_index(page, "input", "Username"), "text": "ada"},
            {
                "action": "input_text",
                "index": find_index(page, "input", "Password"),
                "text": "<secret>pw</secret>",
            },
            {"action": "click_element", "index": find_index(page, "button", "Sign in")},
        ]
        return {"current_state": _brain("sign in"), "action": fill}

    agent = Agent(
        "Sign in", ScriptedChatModel(policy=policy), browser=session, sensitive_data={"pw": PASSWORD}
    )
    history = await agent.run(max_steps=5)
    assert history.is_done() and history.steps[1].results[0].error, "the recording holds the mistake"
    return history.save(tmp_path / "login.json")


async def test_failed_recorded_action_is_not_replayed_and_host_is_substituted_inside_urls(
    session: BrowserSession,
    server: LocalServer,
    other_server: LocalServer,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    path = await _record_login(session, server.url("agent/login.html"), tmp_path)
    controller = Controller()
    subs = {f":{server.port}/": f":{other_server.port}/", "no-such-text": "x"}
    options = ReplayOptions(substitutions=subs, sensitive_data={"pw": PASSWORD}, retries=1, retry_wait_s=0.05)
    with caplog.at_level(logging.WARNING, logger="browser_agent"):
        report = await replay(AgentHistory.load(path, controller), session, controller, options)
    assert report.ok, report.stopped
    names = [a.action.name for a in report.actions]
    assert names == ["go_to_url", "input_text", "input_text", "click_element", "done"], names
    assert report.actions[0].action.params["url"] == other_server.url("agent/login.html")
    assert session.page.url.startswith(other_server.origin) and "account.html" in session.page.url
    assert report.warnings == [
        "substitution 'no-such-text' -> 'x' matches nothing in the recorded actions; check its spelling"
    ]
    assert "no-such-text" in caplog.text


@pytest.fixture
async def login_run(session: BrowserSession, server: LocalServer, tmp_path: Path) -> Path:
    return await _record_login(session, server.url("agent/login.html"), tmp_path)


@pytest.mark.usefixtures("driver")
async def test_cli_replay_takes_secrets_from_a_file_or_the_environment(
    login_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = login_run
    assert PASSWORD not in path.read_text()
    scoped = tmp_path / "secrets.json"
    scoped.write_text(json.dumps({"http://127.0.0.1:*": {"pw": PASSWORD}}))
    assert await main_async(["replay", str(path), "--secrets", str(scoped)]) == 0
    out = capsys.readouterr().out
    assert "signed in" in out and PASSWORD not in out

    monkeypatch.setenv("LOGIN_PW", PASSWORD)
    assert await main_async(["replay", str(path), "--secret", "pw=LOGIN_PW"]) == 0
    capsys.readouterr()

    assert await main_async(["replay", str(path)]) == 1, "without the secret nothing is typed"
    out = capsys.readouterr().out
    assert "<secret>pw</secret> is not a secret of this run" in out
