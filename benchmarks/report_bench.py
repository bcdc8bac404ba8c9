"""What recording a run for its report costs: screenshot bytes per step, report and GIF size, capture time.

The scripted browsing of ``step_bench`` (the bundled demo shop on 127.0.0.1, a product page, home, another
product, ...) runs twice for ``--steps`` steps: once without screenshots, once with
``record_screenshots=True`` (a marked, masked JPEG per step). It prints the JPEG sizes, the size of the
HTML report and of the GIF, and the state-capture time of both runs.

    .venv/bin/python benchmarks/report_bench.py [--steps 30]

Target (issue 12): a 30-step report under 5 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import statistics
import tempfile
from pathlib import Path

from step_bench import TimedPolicy

from browser_agent import Agent, AgentHistory, AgentSettings, BrowserConfig, save_gif, save_report
from browser_agent.demo.site import DemoSite
from browser_agent.testing import ScriptedChatModel


async def _run(steps: int, record: bool) -> AgentHistory:
    with DemoSite(seed=1) as site:
        llm = ScriptedChatModel(policy=TimedPolicy(site.url, steps))
        settings = AgentSettings(max_failures=steps, record_screenshots=record)
        agent = Agent(
            "Browse the shop", llm, browser=BrowserConfig(block_external_network=True), settings=settings
        )
        return await agent.run(max_steps=steps)


async def main(steps: int) -> None:
    plain = await _run(steps, record=False)
    recorded = await _run(steps, record=True)
    sizes = [len(base64.b64decode(s.screenshot.jpeg_b64)) for s in recorded.steps if s.screenshot]
    with tempfile.TemporaryDirectory() as folder:
        report = save_report(recorded, Path(folder, "run.html")).stat().st_size
        gif = save_gif(recorded, Path(folder, "run.gif")).stat().st_size
    state = [statistics.median(s.timings.state_ms for s in h.steps) for h in (plain, recorded)]
    print(f"steps: {len(recorded.steps)}, screenshots: {len(sizes)}, done: {recorded.is_done()}")
    print(
        f"JPEG per step: median {statistics.median(sizes) / 1000:.1f} KB, max {max(sizes) / 1000:.1f} KB, "
        f"total {sum(sizes) / 1e6:.2f} MB"
    )
    print(f"HTML report: {report / 1e6:.2f} MB (target: under 5 MB for 30 steps); GIF: {gif / 1e6:.2f} MB")
    print(
        f"state capture per step: median {state[0]:.1f} ms without screenshots, {state[1]:.1f} ms with them"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--steps", type=int, default=30)
    asyncio.run(main(parser.parse_args().steps))
