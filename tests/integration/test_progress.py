"""Live progress of a run on a terminal: the step running and its seconds while a slow model answers,
step 0 printed as what it is, and a summary whose steps and seconds match the run, also when cut short."""

from __future__ import annotations

import asyncio
import io
import re
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from browser_agent import Agent, AgentHistory, AgentSettings, BrowserSession, ConsoleReporter
from browser_agent.record import AgentStep
from browser_agent.testing import ScriptedChatModel
from tests.support.server import LocalServer


def _plain(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)


def _terminal() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=300, force_terminal=True, no_color=True), out


def _done(text: str) -> dict[str, Any]:
    brain = {"evaluation_previous_goal": "Success", "memory": "-", "next_goal": "report"}
    return {"current_state": brain, "action": [{"action": "done", "text": text, "success": True}]}


def _summary_seconds(text: str) -> float:
    """The run's seconds in the summary table: the cell ``9.3 (8.1)`` (wall, model)."""
    found = re.findall(r"│\s*(\d+\.\d) \((\d+\.\d)\)\s*│", text)
    assert found, text
    return float(found[-1][0])


async def test_a_slow_model_shows_the_step_running_then_step_0_and_the_steps_are_printed(
    session: BrowserSession, server: LocalServer
) -> None:
    console, out = _terminal()
    reporter = ConsoleReporter(console)
    seen_while_running: list[str] = []

    def on_end(agent: Agent, step: AgentStep) -> None:
        seen_while_running.append(_plain(out.getvalue()))  # before the step's own lines replace the spinner
        reporter.step(step, agent.max_steps)

    hooks = replace(reporter.hooks(), on_step_end=on_end)
    llm = ScriptedChatModel(replies=[_done("seen")], latency_s=1.6)
    start = server.url("agent/links.html")
    history = await Agent(f"Open {start} and report", llm, browser=session, hooks=hooks).run(max_steps=3)
    assert history.is_successful() and [s.step for s in history.steps] == [0, 1]
    assert "Step 0 (before the first step) · running the actions" in seen_while_running[0]
    running = seen_while_running[1]
    assert "Step 1/3 · waiting for the model · 0 s" in running, running
    assert "Step 1/3 · waiting for the model · 1 s" in running, "the seconds count up while the model works"
    printed = _plain(out.getvalue())
    assert f"  go_to_url(url='{start}', reload=False) → Opened {start}" in printed, printed
    assert re.search(r"[\r\n]Step 0 \(before the first step\) \d+\.\d s\n", printed), printed
    assert re.search(r"│\s*1 \(\+ step 0\)\s*│\s*done", printed), printed
    # the table shows one decimal: rounding keeps the order, so the wall time is never below the steps' sum
    assert _summary_seconds(printed) >= float(f"{history.steps_duration_seconds():.1f}")


@pytest.mark.timeout(90)
async def test_an_interrupted_run_prints_and_keeps_the_cut_step_and_its_whole_time(
    session: BrowserSession, server: LocalServer, tmp_path: Path
) -> None:
    console, out = _terminal()
    reporter = ConsoleReporter(console)
    asking = asyncio.Event()

    def on_phase(_agent: Agent, number: int, phase: str) -> None:
        reporter.phase(number, phase)  # type: ignore[arg-type]
        if phase == "decide":
            asking.set()

    hooks = replace(reporter.hooks(), on_step_phase=on_phase)
    llm = ScriptedChatModel(replies=[_done("never")], latency_s=60)
    saved = tmp_path / "cut.json"
    start = server.url("agent/links.html")
    agent = Agent(
        f"Open {start} and report",
        llm,
        browser=session,
        hooks=hooks,
        settings=AgentSettings(save_history_path=saved),
    )
    began = time.monotonic()
    run = asyncio.create_task(agent.run(max_steps=3))
    await asyncio.wait_for(asking.wait(), 30)
    await asyncio.sleep(1.5)
    run.cancel()  # what Ctrl-C does to a run (browser_agent.interrupts)
    cut_after = time.monotonic() - began
    with pytest.raises(asyncio.CancelledError):
        await run
    elapsed = time.monotonic() - began

    history = AgentHistory.load(saved)
    assert history.end_reason == "interrupted" and [s.step for s in history.steps] == [0, 1]
    cut = history.steps[1]
    assert cut.error == "Interrupted while waiting for the model." and cut.timings.model_ms >= 1500
    assert history.duration_seconds is not None and history.started_at is not None
    assert cut_after - 0.2 <= history.duration_seconds <= elapsed, (cut_after, history.duration_seconds)
    printed = _plain(out.getvalue())
    assert "step failed: Interrupted while waiting for the model." in printed, printed
    assert re.search(r"│\s*1 \(\+ step 0\)\s*│\s*interrupted", printed), printed
    assert _summary_seconds(printed) == float(f"{history.duration_seconds:.1f}")
