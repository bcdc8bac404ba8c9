"""run_many over browser fleets: a Playwright browser server and a Chromium reached by CDP, the load spread
over them, a server killed mid-run failing only its own agents, an unreachable endpoint skipped."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser

from browser_agent import BrowserConfig, Controller
from browser_agent.batch import BatchOptions, TaskOutcome, TaskSpec, run_many
from browser_agent.testing import ScriptedChatModel
from tests.support.batch_policy import counter_policy
from tests.support.remote import RemoteProcess, chromium_executable, playwright_server, remote_chromium
from tests.support.server import LocalServer


@pytest.fixture(scope="module")
async def cdp_chromium(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[RemoteProcess]:
    async with remote_chromium(tmp_path_factory.mktemp("cdp") / "profile") as remote:
        yield remote


async def ws_config(url: str) -> BrowserConfig:
    """The server launches this machine's Chromium (it runs --unsafe) with the tests' closed network."""
    return BrowserConfig(
        ws_endpoint=url, executable_path=Path(await chromium_executable()), block_external_network=True
    )


class Holds:
    """An action that keeps agents waiting until the test releases them."""

    def __init__(self) -> None:
        self.arrived = 0
        self.release = asyncio.Event()

    def controller(self) -> Controller:
        controller = Controller()

        @controller.action("Hold until released")
        async def hold() -> str:
            self.arrived += 1
            await self.release.wait()
            return "released"

        return controller

    async def wait_for(self, count: int) -> None:
        async with asyncio.timeout(30):
            while self.arrived < count:
                await asyncio.sleep(0.05)


def counter(server: LocalServer, n: int, mode: str = "") -> str:
    return server.url(f"batch/counter.html?n={n}" + (f"&mode={mode}" if mode else ""))


async def test_tasks_spread_over_a_fleet_and_a_killed_server_fails_only_its_agents(
    cdp_chromium: RemoteProcess, server: LocalServer, tmp_path: Path
) -> None:
    """Tasks 0-3 start at once and alternate between the endpoints (ws, cdp, ws, cdp); 0 and 1 finish,
    4 and 5 take their places, then 2-5 hold until the Playwright server is killed; 6 and 7 come last."""
    holds = Holds()
    modes = ["", "", "hold", "hold", "hold", "hold", "", ""]
    specs = [TaskSpec(task=f"Count {n}", start_url=counter(server, n, m)) for n, m in enumerate(modes)]
    outcomes: list[TaskOutcome] = []
    async with playwright_server() as doomed:
        fleet = [await ws_config(doomed.url), BrowserConfig(cdp_url=cdp_chromium.url)]
        batch = asyncio.create_task(
            run_many(
                specs,
                llm=ScriptedChatModel(policy=counter_policy),
                concurrency=4,
                browser=fleet,
                options=BatchOptions(controller=holds.controller(), history_dir=tmp_path),
                on_result=outcomes.append,
            )
        )
        await holds.wait_for(4)
        assert [o.index for o in outcomes] in ([0, 1], [1, 0])
        doomed.kill()
        async with asyncio.timeout(20):
            while len(outcomes) < 4:  # the two agents holding on the killed server end at once
                await asyncio.sleep(0.05)
        holds.release.set()
        histories = await batch

    on_server = sorted((o for o in outcomes if o.endpoint == doomed.url), key=lambda o: o.index)
    assert [o.index for o in on_server][:2] == [0, 2] and len(on_server) == 3, "one of 4 and 5 went there"
    assert on_server[0].success and on_server[0].history.final_result() == "n=0 visits=2"
    for outcome in on_server[1:]:
        assert outcome.history.error == (
            f"BrowserError: lost the connection to {doomed.url} (the browser or its server went away)"
        )
        saved = json.loads((tmp_path / f"{outcome.task_id}.json").read_text())
        assert saved["error"] == outcome.history.error
        assert saved["steps"][0]["results"][0]["action"] == "go_to_url", "the steps so far are kept"
    on_cdp = [o for o in outcomes if o.endpoint == cdp_chromium.url]
    assert len(on_cdp) == 5 and all(o.success for o in on_cdp), [o.history.error for o in on_cdp]
    assert {6, 7} <= {o.index for o in on_cdp}, "tasks started after the loss avoid the lost server"
    lost = {o.index for o in on_server[1:]}
    assert [h.final_result() is None for h in histories] == [n in lost for n in range(8)]


async def test_an_unreachable_endpoint_is_skipped_and_named_when_none_is_left(
    browser: Browser, server: LocalServer
) -> None:
    unreachable = BrowserConfig(ws_endpoint="ws://127.0.0.1:9/", launch_timeout_ms=3_000)
    llm = ScriptedChatModel(policy=counter_policy)
    [history] = await run_many(
        [TaskSpec(task="Count", start_url=counter(server, 1))], llm=llm, browser=[unreachable, browser]
    )
    assert history.final_result() == "n=1 visits=2"
    [history] = await run_many(["Count"], llm=llm, browser=[unreachable])
    assert history.error is not None and history.error.startswith("BrowserError: No browser left to run on: ")
    assert "Could not start or reach ws://127.0.0.1:9/" in history.error and not history.steps
