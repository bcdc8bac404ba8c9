"""Soak: a long run must not grow without bound, and must leave nothing behind.

A scripted model drives 300 steps that alternate between local pages of the demo shop (a product page,
the home page, the cart, ...), through the whole loop: capture, prompt, validation, action, settle. Every
50 steps it prints the resident memory of this Python process and of the browser's processes (Chromium
and Playwright's driver: every descendant of this process). Then it checks three endings, each with a
browser the agent launches itself: a normal end (``done``), a failure (``max_failures``) and a
cancellation (the task cancelled mid-step); after each, no browser process may be left.

    .venv/bin/python benchmarks/soak.py [--steps 300]

Target (issue 10): RSS growth from step 50 to the last step under 10 % (Python and browser each); no
context, page or process left after any of the three endings.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from browser_agent import Agent, AgentRunError, AgentSettings, BrowserConfig
from browser_agent.demo.catalog import PRODUCTS
from browser_agent.demo.site import DemoSite
from browser_agent.record import AgentStep
from browser_agent.testing import ScriptedChatModel
from tests.support.processes import descendants, leftovers, rss_mb


def memory() -> tuple[float, float, float]:
    """(this process, Playwright's driver, the browser's processes) in MB."""
    me = os.getpid()
    driver = browser = 0.0
    for pid in descendants():
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"chrom" in command:
            browser += rss_mb(pid)
        else:
            driver += rss_mb(pid)
    return rss_mb(me), driver, browser


def browse_policy(site: str, steps: int) -> Any:
    paths = ["/", *(f"/product/{p.slug}" for p in PRODUCTS[:4]), "/cart"]
    count = {"n": 0}

    def policy(_messages: list[BaseMessage]) -> dict[str, Any]:
        count["n"] += 1
        n = count["n"]
        brain = {"evaluation_previous_goal": "Success", "memory": f"visited {n} pages", "next_goal": "go"}
        if n >= steps:
            return {
                "current_state": brain,
                "action": [{"action": "done", "text": "browsed", "success": True}],
            }
        url = site + paths[n % len(paths)] + f"?visit={n}"  # a new address: no step repeats another
        return {"current_state": brain, "action": [{"action": "go_to_url", "url": url}]}

    return policy


async def collect_garbage(agent: Agent) -> None:
    """Have the current tab's renderer collect its garbage. Chromium (150 here) leaves the documents of
    earlier navigations to a later major collection while memory is plentiful: its resident size then
    grows with garbage (about 0.6 MB a navigation with no client at all, over DevTools alone), not with
    what the page keeps. The figure compared is the one after a collection."""
    assert agent.session is not None
    page = agent.session.page
    devtools = await page.context.new_cdp_session(page)
    try:
        await devtools.send("HeapProfiler.collectGarbage")
    finally:
        await devtools.detach()


async def soak(site: str, steps: int) -> list[tuple[int, float, float, float]]:
    samples: list[tuple[int, float, float, float]] = []

    async def sample(agent: Agent, step: AgentStep) -> None:
        if step.step % 50 == 0:
            resident = memory()[2]
            await collect_garbage(agent)
            python, driver, browser = memory()
            samples.append((step.step, python, driver, browser))
            print(
                f"step {step.step:4d}: python {python:7.1f} MB   playwright driver {driver:6.1f} MB   "
                f"chromium {browser:7.1f} MB after a garbage collection ({resident:.1f} before)",
                flush=True,
            )

    from browser_agent.agent import AgentHooks

    # The scripted model keeps no transcript: only the agent's own memory is measured.
    llm = ScriptedChatModel(policy=browse_policy(site, steps), keep_calls=1)
    agent = Agent(
        "Browse the shop",
        llm,
        browser=BrowserConfig(),
        settings=AgentSettings(max_input_tokens=8_000),
        hooks=AgentHooks(on_step_end=sample),
    )
    history = await agent.run(max_steps=steps + 5)
    assert history.is_successful(), history.end_reason
    return samples


async def endings(site: str) -> dict[str, int]:
    """Browser processes left after a normal end, a failure and a cancellation."""
    left: dict[str, int] = {}
    before = descendants()

    llm = ScriptedChatModel(policy=browse_policy(site, 3))
    await Agent("Browse", llm, browser=BrowserConfig()).run(max_steps=5)
    left["normal end"] = len(await leftovers(before))

    bad = {"current_state": {"evaluation_previous_goal": "x", "memory": "x", "next_goal": "x"}, "action": []}
    failing = ScriptedChatModel(policy=lambda _m: bad)
    with contextlib.suppress(AgentRunError):
        await Agent("Fail", failing, browser=BrowserConfig(), settings=AgentSettings(max_failures=2)).run(5)
    left["failure"] = len(await leftovers(before))

    slow = ScriptedChatModel(policy=browse_policy(site, 1000))
    task = asyncio.create_task(Agent("Cancel", slow, browser=BrowserConfig()).run(1000))
    await asyncio.sleep(4)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    left["cancellation"] = len(await leftovers(before))
    return left


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args()
    with DemoSite() as site:
        samples = asyncio.run(soak(site.url, args.steps))
        first, last = samples[0], samples[-1]
        growth = [(b - a) / a * 100 if a else 0.0 for a, b in zip(first[1:], last[1:], strict=True)]
        print(
            f"growth from step {first[0]} to {last[0]}: python {growth[0]:+.1f} %, "
            f"playwright driver {growth[1]:+.1f} %, chromium {growth[2]:+.1f} %"
        )
        left = asyncio.run(endings(site.url))
    for ending, count in left.items():
        print(f"processes left after a {ending}: {count}")
    Path("browser_agent_history.json").unlink(missing_ok=True)  # written by the cancelled run


if __name__ == "__main__":
    main()
