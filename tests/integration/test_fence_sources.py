"""Every entry point takes its fence from the one rule (``browser/fence_rule.py``), attacked the way a
stray history, a hostile page or a prompt-injected model would: the disallowed site's own request log
must stay empty where the rule fences it out."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from playwright.async_api import Browser

from browser_agent import Agent, AgentSettings, BrowserConfig, BrowserSession
from browser_agent.batch import BatchOptions, TaskSpec, run_many
from browser_agent.cli import main_async
from browser_agent.controller import ActionResult
from browser_agent.record import ActionCall, AgentHistory, AgentStep, StepOutput
from browser_agent.testing import ScriptedChatModel
from browser_agent.ui import LiveServer, RunSetup
from tests.support.fence_sites import AllowedSite, DisallowedSite

PASSWORD = "hunter2-very-secret"


def reply(goal: str, *actions: dict[str, Any]) -> dict[str, Any]:
    brain = {"evaluation_previous_goal": "Unknown", "memory": goal, "next_goal": goal}
    return {"current_state": brain, "action": list(actions)}


def finish(text: str = "finished") -> dict[str, Any]:
    return reply("finish", {"action": "done", "text": text, "success": True})


def go(url: str) -> dict[str, Any]:
    return {"action": "go_to_url", "url": url}


def saved_run(path: Path, *urls: str, fence: tuple[str, ...] | None = None) -> Path:
    """A history that opens ``urls`` one by one, as a run saved under ``fence`` would be."""
    steps = [
        AgentStep(
            step=number,
            model_output=StepOutput(action=[ActionCall(name="go_to_url", params={"url": url})]),
            results=[ActionResult(action="go_to_url")],
            interacted=[None],
        )
        for number, url in enumerate(urls, start=1)
    ]
    return AgentHistory(task="Open the pages", steps=steps, allowed_domains=fence).save(path)


# -- Agent -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("started", [False, True])
async def test_the_agent_keeps_to_the_narrower_of_its_browser_and_settings_fences(
    browser: Browser, good: AllowedSite, bad: DisallowedSite, started: bool
) -> None:
    bad.requests.clear()
    wide = BrowserConfig(allowed_domains=(good.origin, bad.origin), settle_max_ms=1_000)
    narrow = (good.origin,)
    session = BrowserSession(wide, browser=browser)
    if started:  # a session already running under the wide fence is narrowed, never widened
        await session.start()
    model = ScriptedChatModel(
        replies=[reply("go", go(good.url("/"))), reply("off", go(f"{bad.origin}/steal")), finish()]
    )
    agent = Agent("t", model, browser=session, settings=AgentSettings(allowed_domains=narrow))
    try:
        history = await agent.run(max_steps=3)
    finally:
        await session.close()
    assert bad.requests == []
    assert history.allowed_domains == narrow
    assert any(f"blocked: {bad.origin} is outside the allowed domains" in (e or "") for e in history.errors())


async def test_an_agent_s_replay_of_a_history_saved_without_a_fence_keeps_to_the_agent_s(
    browser: Browser, tmp_path: Path, good: AllowedSite, bad: DisallowedSite
) -> None:
    bad.requests.clear()
    history = AgentHistory.load(saved_run(tmp_path / "run.json", good.url("/"), f"{bad.origin}/rerun"))
    session = BrowserSession(BrowserConfig(settle_max_ms=1_000), browser=browser)
    agent = Agent(
        "t",
        ScriptedChatModel(replies=[]),
        browser=session,
        settings=AgentSettings(allowed_domains=(good.origin,)),
    )
    try:
        report = await agent.rerun_history(history)
    finally:
        await session.close()
    assert bad.requests == []
    assert report.stopped is not None and f"blocked: {bad.origin}" in report.stopped


@pytest.mark.parametrize("fenced", [False, True])
async def test_a_malformed_address_from_the_model_is_an_error_it_reads_and_the_run_goes_on(
    session: BrowserSession, good: AllowedSite, fenced: bool
) -> None:
    model = ScriptedChatModel(
        replies=[
            reply("go", go("http://[zz/")),
            reply("tab", {"action": "open_tab", "url": "http://127.0.0.1:99999/"}),
            reply("again", go("http://exa mple.com/"), go("http://a\x00b/")),
            reply("secret", go("http://[127.0.0.1/?pw=<secret>pw</secret>")),
            reply("home", go(good.url("/"))),
            finish(),
        ]
    )
    settings = AgentSettings(allowed_domains=(good.origin,) if fenced else None)
    scoped = {"http://127.0.0.1:*": {"pw": PASSWORD}}  # filled only into addresses of that site
    agent = Agent("Open http://[zz/ please", model, browser=session, settings=settings, sensitive_data=scoped)
    history = await agent.run(7)
    assert history.is_done() and history.error is None
    errors = [e for e in history.errors() if e]
    assert len(errors) == 4, errors  # one per failed step; the second address of step 3 never ran
    assert all(e.startswith("not a valid address: ") for e in errors[:3]), errors
    assert "this address leads elsewhere; nothing was opened" in errors[3]  # the secret stays home
    assert "(Invalid IPv6 URL)" in errors[0] and "(Port out of range 0-65535)" in errors[1]
    assert "(its host holds a space)" in errors[2]
    assert PASSWORD not in json.dumps(history.model_dump(mode="json"))
    assert session.page.url == good.url("/")


async def test_a_page_link_with_a_malformed_address_does_not_end_the_run(session: BrowserSession) -> None:
    from browser_agent.testing import PageServer, find_index

    page = "<title>Links</title><a href='http://[zz/'>Broken link</a><a href='http://a:99999/'>Bad port</a>"

    def policy(messages: list[Any]) -> dict[str, Any]:
        state = str(messages[-1].content)
        if "Broken link" not in state:
            return reply("open", go(site.url("/links.html")))
        if len([m for m in messages if "Broken link" in str(m.content)]) > 1:
            return finish()
        return reply(
            "click",
            {"action": "click_element", "index": find_index(state, "a", "Broken link")},
            {"action": "click_element", "index": find_index(state, "a", "Bad port")},
        )

    with PageServer({"/links.html": page}) as site:
        agent = Agent("Click the links", ScriptedChatModel(policy=policy), browser=session)
        history = await agent.run(max_steps=4)
    assert history.is_done() and history.error is None


# -- the UI: a server's fence bounds its replays -----------------------------------------------------


async def _events_until_ended(url: str, origin: str) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    async with websockets.connect(url, origin=origin) as socket:  # type: ignore[arg-type]
        while not any(e.get("type") == "state" and e.get("state") == "ended" for e in seen[1:]):
            seen += json.loads(await asyncio.wait_for(socket.recv(), 30))
    return seen


@pytest.mark.timeout(120)
async def test_a_ui_replay_of_a_history_saved_without_a_fence_keeps_to_the_server_s(
    tmp_path: Path, good: AllowedSite, bad: DisallowedSite
) -> None:
    bad.requests.clear()
    runs = tmp_path / "runs"
    runs.mkdir()
    # Lying in the runs folder, saved without a fence: it carries the server's secret to another site.
    saved_run(runs / "stray.json", good.url("/"), f"{bad.origin}/collect?pw=<secret>pw</secret>")
    setup = RunSetup(
        model=lambda: ScriptedChatModel(replies=[]),
        runs_dir=runs,
        browser=BrowserConfig(settle_max_ms=1_000, block_external_network=True),
        secrets={"pw": PASSWORD},
        allowed_domains=(good.origin,),
    )
    async with LiveServer(setup=setup) as live:
        base = f"http://127.0.0.1:{live.port}"
        watching = asyncio.create_task(
            _events_until_ended(f"ws://127.0.0.1:{live.port}/ws?token={live.token}", base)
        )
        await asyncio.sleep(0.2)
        async with httpx.AsyncClient() as client:
            started = await client.post(f"{base}/api/runs/stray.json/replay?token={live.token}")
            assert started.status_code == 200, started.text
        events = await watching
    assert bad.requests == [], "the replay reached the other site"
    replayed = [e for e in events if e.get("type") == "replayed"]
    assert [e["status"] for e in replayed] == ["done", "failed"], replayed
    assert f"blocked: {bad.origin} is outside the allowed domains ({good.origin})" in replayed[1]["message"]
    assert PASSWORD not in json.dumps(events)


# -- batch -------------------------------------------------------------------------------------------


async def test_a_batch_default_fences_tasks_without_their_own_list_and_a_task_s_own_list_replaces_it(
    browser: Browser, good: AllowedSite, bad: DisallowedSite
) -> None:
    bad.requests.clear()

    def policy(messages: list[Any]) -> dict[str, Any]:
        if "Current URL: about:blank" in str(messages[-1].content):
            return reply("go", go(f"{bad.origin}/batch"))
        return finish()

    specs = [
        TaskSpec(task="Uses the batch's fence", id="default"),
        TaskSpec(task="Has its own", id="own", allowed_domains=(bad.origin,)),
    ]
    options = BatchOptions(settings=AgentSettings(allowed_domains=(good.origin,), open_task_url=False))
    fenced, own = await run_many(
        specs, llm=ScriptedChatModel(policy=policy), browser=browser, options=options, concurrency=1
    )
    assert fenced.allowed_domains == (good.origin,) and own.allowed_domains == (bad.origin,)
    assert any("blocked" in (e or "") for e in fenced.errors())
    assert bad.requests == ["GET /batch"], "only the task whose own list names the site reached it"


# -- replay and workflow run from the command line ---------------------------------------------------


@pytest.mark.usefixtures("driver")
async def test_cli_replay_keeps_to_the_recorded_fence_unless_the_command_line_chooses_another(
    tmp_path: Path, good: AllowedSite, bad: DisallowedSite, capsys: pytest.CaptureFixture[str]
) -> None:
    bad.requests.clear()
    path = saved_run(tmp_path / "run.json", good.url("/"), f"{bad.origin}/replayed", fence=(good.origin,))
    assert await main_async(["replay", str(path)]) == 1
    assert bad.requests == []
    assert f"blocked: {bad.origin} is outside the allowed domains" in capsys.readouterr().out
    assert await main_async(["replay", str(path), "--allowed-domain", "http://127.0.0.1:*"]) == 0
    assert bad.requests == ["GET /replayed"], "the command line's choice replaces the recorded fence"


@pytest.mark.usefixtures("driver")
async def test_cli_replay_of_a_malformed_address_is_a_failed_step_not_a_traceback(
    tmp_path: Path, good: AllowedSite, capsys: pytest.CaptureFixture[str]
) -> None:
    path = saved_run(tmp_path / "run.json", good.url("/"), "http://[zz/")
    assert await main_async(["replay", str(path)]) == 1
    out, err = capsys.readouterr()
    assert "not a valid address: 'http://[zz/' (Invalid IPv6 URL)" in out
    assert "Traceback" not in out + err and "ValueError" not in out + err


@pytest.mark.usefixtures("driver")
async def test_cli_workflow_run_with_a_malformed_address_input_says_so_in_one_line(
    tmp_path: Path, good: AllowedSite, capsys: pytest.CaptureFixture[str]
) -> None:
    made = tmp_path / "open.workflow.json"
    assert (
        await main_async(
            ["workflow", "make", str(saved_run(tmp_path / "run.json", good.url("/"))), "-o", str(made)]
        )
        == 0
    )
    capsys.readouterr()
    assert await main_async(["workflow", "run", str(made), "--input", "url=http://[zz/"]) == 2
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and "Traceback" not in out + err, err
    assert "The input url='http://[zz/' is not a valid address: Invalid IPv6 URL." in err


# -- eval --------------------------------------------------------------------------------------------


async def test_an_eval_suite_default_fences_episodes_without_their_own_list(
    browser: Browser, tmp_path: Path, good: AllowedSite, bad: DisallowedSite
) -> None:
    from browser_agent.eval import EvalOptions, SuiteEpisode, read_suite, run_episodes

    bad.requests.clear()
    suite = tmp_path / "suite.jsonl"
    tasks = [
        {"id": "default", "task": "Uses the suite's fence", "checks": [{"answer_contains": "finished"}]},
        {"id": "own", "task": "Has its own", "allowed_domains": [bad.origin], "checks": [{"text": "x"}]},
    ]
    suite.write_text("".join(json.dumps(task) + "\n" for task in tasks))

    def policy(messages: list[Any]) -> dict[str, Any]:
        if "Step 1 of" in str(messages[-1].content):
            return reply("go", go(f"{bad.origin}/eval"))
        return finish()

    options = EvalOptions(settings=AgentSettings(allowed_domains=(good.origin,)))
    episodes = [SuiteEpisode(task) for task in read_suite(suite)]
    model = ScriptedChatModel(policy=policy)
    records = await run_episodes(episodes, model, tmp_path / "runs.jsonl", options, browser=browser)
    assert [r.steps for r in records] == [2, 2], records
    assert bad.requests == ["GET /eval"], "only the episode whose own list names the site reached it"


# -- MCP ---------------------------------------------------------------------------------------------


async def test_an_mcp_client_is_kept_to_the_server_s_fence_and_a_malformed_address_is_a_tool_error(
    browser: Browser, good: AllowedSite, bad: DisallowedSite
) -> None:
    from browser_agent import Controller
    from browser_agent.mcp import BrowserTools, McpServerConfig
    from browser_agent.mcp.sessions import SessionPool

    bad.requests.clear()
    config = McpServerConfig(browser=BrowserConfig(allowed_domains=(good.origin,), settle_max_ms=1_000))
    tools, pool = BrowserTools(Controller(), config), SessionPool(config.browser, browser=browser)
    try:
        client = await pool.acquire("a")
        for url, says in (
            ("http://[zz/", "not a valid address: 'http://[zz/' (Invalid IPv6 URL)"),
            (f"{bad.origin}/mcp", f"blocked: {bad.origin} is outside the allowed domains"),
            (good.url("/"), "Opened"),
        ):
            outcome = await tools.call("go_to_url", {"url": url}, client)
            assert says in outcome.text and "internal error" not in outcome.text, outcome.text
            assert outcome.is_error is (says != "Opened")
    finally:
        await pool.aclose()
    assert bad.requests == []
