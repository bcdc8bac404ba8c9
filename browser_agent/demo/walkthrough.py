"""The offline demo: serve the shop locally, replay the recorded run (or run a live model), report.

Each of them starts a shop of its own, or uses one already served at ``shop`` (``site.serve_demo``, which
keeps one up until it is cancelled: ``browser-agent demo --serve``), so that the run it records names an
address that still answers afterwards, for ``workflow run`` and the exported scripts.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from langchain_core.language_models import BaseChatModel
from rich.console import Console

from browser_agent.action_specs.navigation import GO_TO_URL
from browser_agent.agent import Agent, AgentSettings
from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.controller import Controller
from browser_agent.demo import RECORDED_RUN
from browser_agent.demo.policy import TASK, DemoPolicy
from browser_agent.demo.site import DemoSite
from browser_agent.output.replay_console import ReplayReporter
from browser_agent.output.reporter import ConsoleReporter
from browser_agent.playback import ReplayOptions, ReplayReport
from browser_agent.record import AgentHistory

__all__ = ["RECORDED_RUN", "record_demo", "replay_demo", "run_live_demo"]


def _config(headless: bool) -> BrowserConfig:
    return BrowserConfig(
        headless=headless, block_external_network=True, allowed_domains=("http://127.0.0.1:*",)
    )


@contextmanager
def _shop(url: str | None, seed: int | None = None) -> Iterator[str]:
    """The address of the shop served at ``url``, else of one started here for the while."""
    if url is not None:
        yield url
        return
    with DemoSite(seed) as site:
        yield site.url


def _recorded_root(history: AgentHistory) -> str | None:
    for step in history.steps:
        for action in step.actions:
            if action.name == GO_TO_URL.name:
                return GO_TO_URL.params_of(action).url
    return None


async def replay_demo(
    history_path: Path = RECORDED_RUN,
    *,
    headless: bool = True,
    seed: int | None = None,
    console: Console | None = None,
    shop: str | None = None,
) -> ReplayReport:
    """Replay the recorded run against a freshly shuffled shop (or the one at ``shop``) and print every
    step and a summary."""
    reporter = ReplayReporter(console)
    controller = Controller()
    history = AgentHistory.load(history_path, controller)
    with _shop(shop, seed) as url:
        root = _recorded_root(history)
        subs = {root: url} if root else {}
        reporter.console.print(f"[bold]Demo shop[/] at {url} — replaying {history_path.name} without a model")
        reporter.console.print(f"[dim]Task: {history.task}[/]")
        start = time.perf_counter()
        async with BrowserSession(_config(headless)) as session:
            report = await _replay(history, session, controller, subs, reporter)
            confirmation = await session.page.text_content("#order") if "/done" in session.page.url else None
        reporter.summary(report, time.perf_counter() - start)
        if confirmation:
            reporter.console.print(
                f"[bold green]The shop says now:[/] {confirmation}\n[dim]The order number is the shop's own, "
                "counted afresh each time it starts: this replay placed a new order, so it may differ from "
                "the recorded one.[/]"
            )
    return report


async def _replay(
    history: AgentHistory,
    session: BrowserSession,
    controller: Controller,
    subs: dict[str, str],
    reporter: ReplayReporter,
) -> ReplayReport:
    from browser_agent.playback import replay

    return await replay(history, session, controller, ReplayOptions(substitutions=subs), reporter.replayed)


async def run_live_demo(
    llm: BaseChatModel,
    *,
    headless: bool = True,
    max_steps: int = 20,
    console: Console | None = None,
    save_to: Path | None = None,
    shop: str | None = None,
) -> AgentHistory:
    """Run the agent with ``llm`` on the demo shop (started here, or the one at ``shop``); ``save_to``
    keeps the history for later replays."""
    reporter = ConsoleReporter(console)
    with _shop(shop) as url:
        settings = AgentSettings(save_history_path=save_to, allowed_domains=("http://127.0.0.1:*",))
        agent = Agent(
            f"{TASK} The shop is at {url}",
            llm,
            browser=_config(headless),
            settings=settings,
            hooks=reporter.hooks(),
        )
        return await agent.run(max_steps=max_steps)


async def record_demo(path: Path, *, headless: bool = True, shop: str | None = None) -> AgentHistory:
    """Record a run of the scripted demo policy (no API key) on a shop started here, or the one at
    ``shop``, and save it to ``path``."""
    from browser_agent.testing import ScriptedChatModel

    with _shop(shop) as url:
        llm = ScriptedChatModel(policy=DemoPolicy(url))
        agent = Agent(
            TASK,
            llm,
            browser=_config(headless),
            settings=AgentSettings(tool_calling_method="function_calling"),
        )
        history = await agent.run(max_steps=12)
    history.save(path)
    return history
