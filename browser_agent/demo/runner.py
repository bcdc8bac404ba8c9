"""The offline demo: serve the shop locally, replay the recorded run (or run a live model), report."""

from __future__ import annotations

import time
from pathlib import Path

from langchain_core.language_models import BaseChatModel
from rich.console import Console

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


def _recorded_root(history: AgentHistory) -> str | None:
    for step in history.steps:
        for action in step.actions:
            if action.name == "go_to_url":
                return str(action.params["url"])
    return None


async def replay_demo(
    history_path: Path = RECORDED_RUN,
    *,
    headless: bool = True,
    seed: int | None = None,
    console: Console | None = None,
) -> ReplayReport:
    """Replay the recorded run against a freshly shuffled shop and print every step and a summary."""
    reporter = ReplayReporter(console)
    controller = Controller()
    history = AgentHistory.load(history_path, controller)
    with DemoSite(seed) as site:
        root = _recorded_root(history)
        subs = {root: site.url} if root else {}
        reporter.console.print(
            f"[bold]Demo shop[/] at {site.url} — replaying {history_path.name} without a model"
        )
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
) -> AgentHistory:
    """Run the agent with ``llm`` on the demo shop; ``save_to`` keeps the history for later replays."""
    reporter = ConsoleReporter(console)
    with DemoSite() as site:
        settings = AgentSettings(save_history_path=save_to, allowed_domains=("http://127.0.0.1:*",))
        agent = Agent(
            f"{TASK} The shop is at {site.url}",
            llm,
            browser=_config(headless),
            settings=settings,
            hooks=reporter.hooks(),
        )
        return await agent.run(max_steps=max_steps)


async def record_demo(path: Path, *, headless: bool = True) -> AgentHistory:
    """Record a run of the scripted demo policy (no API key) and save it to ``path``."""
    from browser_agent.testing import ScriptedChatModel

    with DemoSite() as site:
        llm = ScriptedChatModel(policy=DemoPolicy(site.url))
        agent = Agent(
            TASK,
            llm,
            browser=_config(headless),
            settings=AgentSettings(tool_calling_method="function_calling"),
        )
        history = await agent.run(max_steps=12)
    history.save(path)
    return history
