"""run_many on one shared browser: isolated contexts, bounded concurrency, ordered results, failure isolation;
and the guard against two running agents on one BrowserSession."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from playwright.async_api import Browser
from pydantic import BaseModel

from browser_agent import Agent, AgentHistory, AgentSettings, BrowserSession, Controller, UserError
from browser_agent.batch import BatchOptions, TaskOutcome, TaskSpec, Verdict, run_many
from browser_agent.controller import ActionContext
from browser_agent.testing import ScriptedChatModel
from tests.support.batch_policy import counter_policy
from tests.support.server import LocalServer


class Gauge:
    """How many agents are inside ``hold`` at once; each waits there until ``until`` are in."""

    def __init__(self, until: int) -> None:
        self.until, self.now, self.peak = until, 0, 0
        self.full = asyncio.Event()

    def controller(self) -> Controller:
        controller = Controller()

        @controller.action("Hold until the other agents arrive")
        async def hold() -> str:
            self.now += 1
            self.peak = max(self.peak, self.now)
            if self.now >= self.until:
                self.full.set()
            try:
                await asyncio.wait_for(self.full.wait(), 5)
            finally:
                self.now -= 1
            return "held"

        return controller


def counter(server: LocalServer, n: int, mode: str = "") -> str:
    return server.url(f"batch/counter.html?n={n}" + (f"&mode={mode}" if mode else ""))


async def test_contexts_are_isolated_concurrency_bounded_and_results_in_order(
    browser: Browser, server: LocalServer, tmp_path: Path
) -> None:
    gauge = Gauge(until=3)
    specs = [TaskSpec(task=f"Count visits {n}", start_url=counter(server, n, "hold")) for n in range(6)]
    seen: list[TaskOutcome] = []
    histories = await run_many(
        specs,
        llm=ScriptedChatModel(policy=counter_policy, latency_s=0.05),
        concurrency=3,
        browser=browser,
        options=BatchOptions(controller=gauge.controller(), history_dir=tmp_path, max_steps=5),
        on_result=seen.append,
    )
    # each context has its own storage: every task saw exactly its own two visits
    assert [h.final_result() for h in histories] == [f"n={n} visits=2" for n in range(6)]
    assert all(h.error is None and h.is_successful() for h in histories)
    assert gauge.peak == 3, f"at most (and here exactly) 3 agents at once, saw {gauge.peak}"
    assert sorted(o.index for o in seen) == list(range(6))
    assert {o.endpoint for o in seen} == {"Playwright Browser #1"}
    saved = json.loads((tmp_path / "task-4.json").read_text())  # ids count from 1
    assert saved["task"] == "Count visits 3" and saved["steps"][-1]["results"][-1]["is_done"]
    assert browser.is_connected() and not browser.contexts, "contexts are closed, the browser left open"


async def test_a_crashed_page_and_a_raising_model_fail_only_their_own_task(
    browser: Browser, server: LocalServer
) -> None:
    controller = Controller()

    @controller.action("Crash the current tab")
    async def crash_tab(ctx: ActionContext) -> str:
        crashed = asyncio.get_running_loop().create_future()
        ctx.page.once("crash", lambda _page: crashed.set_result(None))
        cdp = await ctx.page.context.new_cdp_session(ctx.page)
        sending = asyncio.create_task(cdp.send("Page.crash"))  # never answered: the renderer is gone
        await asyncio.wait_for(crashed, 10)
        sending.cancel()
        return "crashed"

    modes = ["", "crash_tab", "raise", ""]
    specs = [TaskSpec(task=f"Count {n}", start_url=counter(server, n, m)) for n, m in enumerate(modes)]
    histories = await run_many(
        specs,
        llm=ScriptedChatModel(policy=counter_policy),
        concurrency=4,
        browser=browser,
        options=BatchOptions(controller=controller, max_steps=6),
    )
    results = [h.final_result() for h in histories]
    assert results == ["n=0 visits=2", "cannot count: tab 0 crashed", None, "n=3 visits=2"]
    crashed, raised = histories[1], histories[2]
    assert crashed.is_successful() is False and crashed.error is None, "the model saw the crash and gave up"
    assert raised.error is not None and "the model broke on purpose in task n=2" in raised.error
    assert [h.error for h in (histories[0], histories[3])] == [None, None]


class Visits(BaseModel):
    n: int
    visits: int


async def test_output_model_and_secrets_from_the_environment(
    browser: Browser, server: LocalServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BATCH_TEST_TOKEN", "tok-31337")

    def policy(messages: list) -> dict | BaseException:
        reply = counter_policy(messages)
        assert "tok-31337" not in json.dumps([str(m.content) for m in messages])
        if isinstance(reply, dict) and reply["action"][0]["action"] == "done":
            n, visits = (int(p.split("=")[1]) for p in reply["action"][0]["text"].split())
            reply["action"] = [{"action": "done", "data": {"n": n, "visits": visits}, "success": True}]
        return reply

    specs = [
        TaskSpec(
            task="Count with <secret>token</secret>",
            start_url=counter(server, 7),
            output_model=Visits,
            sensitive_env={"token": "BATCH_TEST_TOKEN"},
        ),
        TaskSpec(task="Count", start_url=counter(server, 8), sensitive_env={"token": "BATCH_TEST_MISSING"}),
    ]
    structured, missing = await run_many(specs, llm=ScriptedChatModel(policy=policy), browser=browser)
    assert structured.structured_output() == Visits(n=7, visits=2)
    assert Visits.model_validate_json(structured.final_result() or "") == Visits(n=7, visits=2)
    assert missing.error is not None and "BATCH_TEST_MISSING" in missing.error and not missing.steps


async def test_one_session_in_two_running_agents_is_a_user_error(
    session: BrowserSession, server: LocalServer
) -> None:
    start = [{"action": "go_to_url", "url": counter(server, 1)}]
    llm = ScriptedChatModel(policy=counter_policy, latency_s=0.3)
    first = Agent("Count visits", llm, browser=session)
    first.settings.initial_actions = start
    second = Agent("Count visits too", llm, browser=session)
    running = asyncio.create_task(first.run(max_steps=4))
    await asyncio.sleep(0.1)
    with pytest.raises(UserError, match="already driven by a running agent \\(task 'Count visits'\\)"):
        await second.run(max_steps=4)
    history = await running
    assert history.final_result() == "n=1 visits=2", "the first agent was not disturbed"
    again = await Agent("Count once more", llm, browser=session).run(max_steps=1)
    assert len(again.steps) == 1, "the session is free again once the first agent ended"


async def test_bad_batch_arguments_are_user_errors(browser: Browser) -> None:
    llm = ScriptedChatModel(policy=counter_policy)
    with pytest.raises(UserError, match="concurrency=0"):
        await run_many(["x"], llm=llm, concurrency=0, browser=browser)
    with pytest.raises(UserError, match="share the id 'a'"):
        await run_many([TaskSpec(task="x", id="a"), TaskSpec(task="y", id="a")], llm=llm, browser=browser)
    async with BrowserSession(browser=browser) as session:
        with pytest.raises(UserError, match="cannot use a BrowserSession"):
            await run_many(["x"], llm=llm, browser=session)  # type: ignore[arg-type]


async def test_a_task_past_its_time_limit_is_stopped_and_says_so(
    browser: Browser, server: LocalServer
) -> None:
    controller = Controller()

    @controller.action("Hold for a long time")
    async def hold() -> str:
        await asyncio.sleep(30)
        return "held"

    [stuck] = await run_many(
        [TaskSpec(task="Stuck", start_url=counter(server, 0, "hold"))],
        llm=ScriptedChatModel(policy=counter_policy),
        browser=browser,
        options=BatchOptions(controller=controller, task_timeout_s=1.5),
    )
    assert stuck.error == "TimeoutError: still running after task_timeout_s=1.5 s; stopped."


class VisitJudge:
    """Opens the counter page itself and says the task; the episode ends, and succeeds, at two visits."""

    def __init__(self, url: str) -> None:
        self.url = url

    async def open(self, session: BrowserSession) -> str:
        await session.navigate(self.url)
        return "Count the visits on this page"

    async def ended(self, session: BrowserSession) -> bool:
        return await self._visits(session) == "2"

    async def verdict(self, session: BrowserSession, history: AgentHistory) -> Verdict:
        visits = await self._visits(session)
        return Verdict(visits == "2", 1.0 if visits == "2" else 0.0, f"visits={visits}")

    async def _visits(self, session: BrowserSession) -> str:
        return (await session.page.text_content("#visits") or "").rsplit(" ", 1)[-1]


async def test_a_judged_task_is_opened_stopped_and_judged_by_its_judge(
    browser: Browser, server: LocalServer
) -> None:
    specs = [
        TaskSpec(task="unused", id="judged", judge=VisitJudge(counter(server, 5))),
        TaskSpec(task="unused", id="judged-broken", judge=VisitJudge(counter(server, 6, "raise"))),
        TaskSpec(task="Count", id="plain-broken", start_url=counter(server, 7, "raise")),
    ]
    outcomes: list[TaskOutcome] = []
    await run_many(
        specs,
        llm=ScriptedChatModel(policy=counter_policy),
        browser=browser,
        options=BatchOptions(settings=AgentSettings(max_failures=1, retry_attempts=1)),
        on_result=outcomes.append,
    )
    judged, broken, plain = sorted(outcomes, key=lambda o: o.index)
    history = judged.history
    assert judged.verdict == Verdict(True, 1.0, "visits=2") and judged.success
    assert history.task == "Count the visits on this page", "the judge said the task"
    assert [s.step for s in history.steps] == [1], "no step 0: the judge opened the page"
    assert history.end_reason == "stopped" and not history.is_done(), "stopped when the page ended it"
    # a run the model broke is judged all the same, its history saying how it ended; unjudged, it is an error
    assert broken.verdict == Verdict(False, 0.0, "visits=1") and not broken.success
    assert broken.history.error is None and broken.history.end_reason == "max_failures"
    assert plain.verdict is None and (plain.history.error or "").startswith("AgentRunError: 1 steps failed")
