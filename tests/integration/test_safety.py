"""Safe to leave running: no page can hang a step, no reply can crash the loop, lost tabs are recovered,
and page text cannot steer the agent off the allowed sites. Real Chromium, scripted model."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from playwright.async_api import Browser

from browser_agent import Agent, AgentRunError, AgentSettings, BrowserConfig, BrowserSession, Controller
from browser_agent.agent.conversation import page_of_state
from browser_agent.testing import ScriptedChatModel, find_index
from tests.support.fence_sites import AllowedSite, DisallowedSite
from tests.support.processes import descendants, leftovers
from tests.support.server import LocalServer

Policy = Callable[[list[BaseMessage]], dict[str, Any]]


def _state(messages: list[BaseMessage]) -> str:
    return next(str(m.content) for m in reversed(messages) if "Current URL:" in str(m.content))


def _request(messages: list[BaseMessage]) -> str:
    """Everything after the system prompt: the task, the memos (the last results are in the newest), the
    state."""
    return "\n".join(str(m.content) for m in messages[1:])


def _url(messages: list[BaseMessage]) -> str:
    found = re.search(r"Current URL: (\S+)", _state(messages))
    return found.group(1) if found else ""


def reply(goal: str, *actions: dict[str, Any]) -> dict[str, Any]:
    brain = {"evaluation_previous_goal": "Unknown", "memory": goal, "next_goal": goal}
    return {"current_state": brain, "action": list(actions)}


def finish(text: str = "finished") -> dict[str, Any]:
    return reply("finish", {"action": "done", "text": text, "success": True})


@pytest.fixture
async def quick(browser: Browser) -> AsyncIterator[BrowserSession]:
    """A session that gives up on a busy page quickly (a page capture waits at most 1.5 s)."""
    config = BrowserConfig(capture_timeout_ms=1_500, settle_max_ms=1_000, action_timeout_ms=2_000)
    async with BrowserSession(config, browser=browser) as session:
        yield session


async def test_alerts_in_a_loop_on_load_are_answered_folded_and_cannot_hang(
    quick: BrowserSession, server: LocalServer
) -> None:
    seen: list[str] = []

    def policy(messages: list[BaseMessage]) -> dict[str, Any]:
        seen.append(_state(messages))
        if len(seen) == 1:
            return reply("open", {"action": "go_to_url", "url": server.url("safety/alert_load.html")})
        if "calm" not in _url(messages):
            return reply("leave", {"action": "go_to_url", "url": server.url("safety/calm.html")})
        return finish()

    agent = Agent("Visit the pages", ScriptedChatModel(policy=policy), browser=quick)
    started = time.perf_counter()
    history = await agent.run(max_steps=5)
    assert time.perf_counter() - started < 45
    assert history.is_successful() and history.end_reason == "done"
    nagged = seen[1]  # what the model saw after opening the nagging page
    assert re.search(r"\d+ more alert dialogs were answered the same way", nagged), nagged
    assert nagged.count("dialog said") <= 3
    # the loop is cut short: its tab is closed, its last dialog unanswered, instead of answered for ever
    looped = re.search(r"tab 0 was closed: it raised dialogs in a loop \((\d+) in a row", nagged)
    assert looped is not None and int(looped.group(1)) <= 25, nagged


@pytest.mark.parametrize(
    ("button", "failure"),
    [
        # alerts in a loop: the tab is closed, and the click with it
        pytest.param("Start the trap", "The tab was closed or crashed during click", id="Start the trap"),
        pytest.param("Spin for ever", "got no answer from the page in 3 s", id="Spin for ever"),
    ],
)
async def test_a_click_that_never_returns_fails_the_action_not_the_run(
    quick: BrowserSession, server: LocalServer, button: str, failure: str
) -> None:
    steps: list[str] = []

    def policy(messages: list[BaseMessage]) -> dict[str, Any]:
        url, page = _url(messages), page_of_state(_state(messages))
        steps.append(url)
        if len(steps) == 1:
            return reply("open", {"action": "go_to_url", "url": server.url("safety/alert_click.html")})
        if len(steps) == 2:
            return reply("trap", {"action": "click_element", "index": find_index(page, "button", button)})
        if "calm" not in url:
            return reply("leave", {"action": "go_to_url", "url": server.url("safety/calm.html")})
        return finish()

    controller = Controller(action_timeout_s=3)
    agent = Agent("Try the trap", ScriptedChatModel(policy=policy), browser=quick, controller=controller)
    started = time.perf_counter()
    history = await agent.run(max_steps=6)
    assert time.perf_counter() - started < 45
    assert history.end_reason == "done"
    errors = [e for e in history.errors() if e]
    assert any(failure in e for e in errors), errors


async def test_a_step_past_its_time_limit_is_failed_and_the_run_goes_on(
    quick: BrowserSession, server: LocalServer
) -> None:
    def policy(messages: list[BaseMessage]) -> dict[str, Any]:
        url, state = _url(messages), _state(messages)
        if "alert_click" in url and "longer than" not in _request(messages):
            index = find_index(page_of_state(state), "button", "Spin for ever")
            return reply("spin", {"action": "click_element", "index": index})
        if "alert_click" in url:
            return reply("leave", {"action": "go_to_url", "url": server.url("safety/calm.html")})
        if "calm" in url:
            return finish()
        return reply("open", {"action": "go_to_url", "url": server.url("safety/alert_click.html")})

    settings = AgentSettings(step_timeout_s=4, save_history_path=None)
    agent = Agent(
        "Spin", ScriptedChatModel(policy=policy), browser=quick, settings=settings, controller=Controller()
    )
    history = await agent.run(max_steps=6)
    timed_out = [s for s in history.steps if s.error and "took longer than 4 s" in s.error]
    assert len(timed_out) == 1
    assert timed_out[0].results and "ran out of time" in str(timed_out[0].results[0].error)
    assert history.end_reason == "done"


async def test_a_deeply_nested_reply_is_sent_back_not_raised(
    session: BrowserSession, server: LocalServer
) -> None:
    llm = ScriptedChatModel(
        replies=[
            "[" * 2_000 + "]" * 2_000,
            "{" * 5_000,
            '{"current_state": ' + '{"a": ' * 3_000,
            finish("recovered"),
        ]
    )
    settings = AgentSettings(tool_calling_method="raw", max_corrections=1, max_failures=3)
    history = await Agent("Answer", llm, browser=session, settings=settings).run(max_steps=3)
    assert history.final_result() == "recovered"
    assert history.steps[0].error is not None and "levels deep" in history.steps[0].error


async def test_done_without_success_goes_back_to_the_model(session: BrowserSession) -> None:
    brain = reply("finish")["current_state"]
    llm = ScriptedChatModel(
        replies=[
            {"current_state": brain, "action": [{"action": "done", "text": "all good"}]},
            finish("all good"),
        ]
    )
    history = await Agent("Answer", llm, browser=session).run(max_steps=2)
    assert history.is_successful() is True
    correction = str(llm.calls[1].messages[-1].content)
    assert "success" in correction and "Field required" in correction


async def test_reaching_max_steps_is_visible(session: BrowserSession, server: LocalServer) -> None:
    def policy(messages: list[BaseMessage]) -> dict[str, Any]:
        return reply("wander", {"action": "go_to_url", "url": server.url("safety/calm.html")})

    history = await Agent("Wander", ScriptedChatModel(policy=policy), browser=session).run(max_steps=2)
    assert history.end_reason == "max_steps" and not history.is_done()
    assert history.is_successful() is None


async def test_with_every_tab_closed_a_blank_tab_is_opened_and_the_model_goes_on(
    session: BrowserSession, server: LocalServer
) -> None:
    states: list[str] = []

    def policy(messages: list[BaseMessage]) -> dict[str, Any]:
        states.append(_request(messages))
        if len(states) == 1:
            return reply("open", {"action": "go_to_url", "url": server.url("safety/calm.html")})
        if len(states) == 2:
            assert "Tabs:" not in _state(messages), "one tab is not listed: it is the current URL and title"
            return reply("close it", {"action": "close_tab", "tab_id": 0})  # the only tab; ids start at 0
        if "calm" not in _url(messages):
            return reply("reopen", {"action": "go_to_url", "url": server.url("safety/calm.html")})
        return finish()

    history = await Agent("Close and reopen", ScriptedChatModel(policy=policy), browser=session).run(
        max_steps=6
    )
    assert history.end_reason == "done"
    assert "every tab was closed; a new blank tab was opened" in states[2]


async def test_after_a_renderer_crash_go_to_url_works_in_a_fresh_tab(
    session: BrowserSession, server: LocalServer
) -> None:
    states: list[str] = []

    async def crash(_agent: Any, step: Any) -> None:
        if step.step == 1:
            cdp = await session.context.new_cdp_session(session.page)
            with contextlib.suppress(Exception):  # the renderer dies before it can answer
                await asyncio.wait_for(cdp.send("Page.crash"), 2)
            await asyncio.sleep(0.5)

    def policy(messages: list[BaseMessage]) -> dict[str, Any]:
        states.append(_state(messages))
        if len(states) == 1:
            return reply("open", {"action": "go_to_url", "url": server.url("safety/calm.html")})
        if len(states) == 2:
            return reply("again", {"action": "go_to_url", "url": server.url("safety/welcome.html")})
        return finish(page_of_state(states[-1]).splitlines()[0])

    from browser_agent.agent import AgentHooks

    agent = Agent(
        "Survive a crash",
        ScriptedChatModel(policy=policy),
        browser=session,
        hooks=AgentHooks(on_step_end=crash),
    )
    history = await agent.run(max_steps=4)
    assert "crashed" in states[1]
    assert history.steps[1].results[0].error is None
    assert history.end_reason == "done" and "Welcome" in (history.final_result() or "")


async def test_page_text_cannot_send_an_obedient_model_off_the_allowed_sites(
    session: BrowserSession, good: AllowedSite, bad: DisallowedSite
) -> None:
    bad.requests.clear()
    obeyed: list[str] = []

    def policy(messages: list[BaseMessage]) -> dict[str, Any]:
        state = _state(messages)
        page = page_of_state(state)
        if "ignore your task" in page and not obeyed:
            obeyed.append("go")
            return reply(
                "obey the page",
                {"action": "go_to_url", "url": f"{bad.origin}/steal"},
                {"action": "open_tab", "url": f"{bad.origin}/steal2"},
            )
        if "ignore your task" in page and len(obeyed) == 1:
            obeyed.append("click")
            return reply("claim", {"action": "click_element", "index": find_index(page, "a", "Claim prize")})
        if obeyed and len(obeyed) == 2:
            obeyed.append("done")
            return finish("gave up")
        return reply("read deals", {"action": "go_to_url", "url": good.url("inject")})

    # The fence comes from the agent's settings, on a session the caller made without one.
    settings = AgentSettings(allowed_domains=(good.origin,))
    agent = Agent("Read today's deals", ScriptedChatModel(policy=policy), browser=session, settings=settings)
    history = await agent.run(max_steps=6)
    await asyncio.sleep(0.3)
    assert bad.requests == []
    assert obeyed == ["go", "click", "done"]
    errors = " ".join(e for e in history.errors() if e)
    assert f"blocked: {bad.origin} is outside the allowed domains" in errors
    assert session.fence is not None and len(session.fence.blocked) >= 1


async def test_max_failures_error_carries_a_redacted_message_and_history(
    session: BrowserSession, server: LocalServer
) -> None:
    secret = "hunter2-very-secret"
    llm = ScriptedChatModel(
        policy=lambda _m: reply("type", {"action": "input_text", "index": 999, "text": "<secret>pw</secret>"})
    )
    settings = AgentSettings(max_failures=2)
    agent = Agent(f"Use {secret}", llm, browser=session, settings=settings, sensitive_data={"pw": secret})
    with pytest.raises(AgentRunError) as caught:
        await agent.run(max_steps=5)
    assert secret not in str(caught.value)
    assert caught.value.history.end_reason == "max_failures"
    assert secret not in caught.value.history.model_dump_json()


async def test_no_browser_process_is_left_after_an_end_a_failure_or_a_cancellation(
    server: LocalServer, tmp_path: Path
) -> None:
    visits: list[str] = []

    def wander(_messages: list[BaseMessage]) -> dict[str, Any]:
        # A new address each step: going back and forth between two pages would be a loop.
        visits.append(server.url(f"safety/calm.html?n={len(visits)}"))
        return reply("wander", {"action": "go_to_url", "url": visits[-1]})

    before = descendants()
    await Agent("Wander", ScriptedChatModel(policy=wander), browser=BrowserConfig()).run(max_steps=1)
    assert not await leftovers(before), "a normal end left processes"

    bad = {"current_state": reply("x")["current_state"], "action": []}
    failing = Agent(
        "Fail",
        ScriptedChatModel(policy=lambda _m: bad),
        browser=BrowserConfig(),
        settings=AgentSettings(max_failures=1),
    )
    with pytest.raises(AgentRunError):
        await failing.run(max_steps=3)
    assert not await leftovers(before), "a failure left processes"

    for when in ("during the launch", "in the middle of the run"):
        slow = Agent(
            "Cancel",
            ScriptedChatModel(policy=wander),
            browser=BrowserConfig(),
            settings=AgentSettings(save_history_path=tmp_path / "cancelled.json"),
        )
        (tmp_path / "cancelled.json").unlink(missing_ok=True)  # each cancelled run saves its own
        asked = len(visits)
        task = asyncio.create_task(slow.run(max_steps=1_000))
        if when == "during the launch":
            await asyncio.sleep(0.3)
        else:  # once the model was asked twice: a step has run and the next is under way
            deadline = time.monotonic() + 30
            while len(visits) < asked + 2 and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert len(visits) >= asked + 2, "the run never got to its second step"
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        assert not await leftovers(before), f"a cancellation {when} left processes"
        assert (tmp_path / "cancelled.json").exists()
