"""Per-step framework overhead of the agent loop: everything but the model's own thinking time.

A scripted model drives a 20-step task on the bundled demo shop (127.0.0.1): open a product, go home,
open another product, ... then ``done``. Each step pays the real costs: page capture, prompt building,
schema validation, the action and the page settling. The scripted model's own time is measured and
subtracted, so the figure is what the framework adds to a real provider's latency.

    .venv/bin/python benchmarks/step_bench.py [--steps 20] [--fence | --fence-all]

Target (issue 5): median overhead under 150 ms. ``--fence`` keeps the agent on the shop with the domain
fence (documents), ``--fence-all`` with its sub-resources too: with a fence, within 10 % of the figure
without (issue 21).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

from langchain_core.messages import BaseMessage

from browser_agent import Agent, AgentSettings, BrowserConfig
from browser_agent.agent.conversation import page_of_state
from browser_agent.demo.catalog import PRODUCTS
from browser_agent.demo.site import DemoSite
from browser_agent.testing import ScriptedChatModel, find_index


class TimedPolicy:
    """Browse the shop for ``steps`` steps; records how long the policy itself takes."""

    def __init__(self, site_url: str, steps: int) -> None:
        self.site_url, self.steps, self.calls = site_url, steps, 0
        self.seconds: list[float] = []

    def __call__(self, messages: list[BaseMessage]) -> dict[str, Any]:
        start = time.perf_counter()
        try:
            return self._decide(str(messages[-1].content))
        finally:
            self.seconds.append(time.perf_counter() - start)

    def _decide(self, state: str) -> dict[str, Any]:
        self.calls += 1
        page = page_of_state(state)
        brain = {"evaluation_previous_goal": "Success", "memory": f"step {self.calls}", "next_goal": "browse"}
        if self.calls == 1:
            action: dict[str, Any] = {"action": "go_to_url", "url": self.site_url}
        elif self.calls >= self.steps:
            action = {"action": "done", "text": "browsed", "success": True}
        elif "/product/" in state.split("Current URL:", 1)[-1].split("\n", 1)[0]:
            action = {"action": "click_element", "index": find_index(page, "a", "Home")}
        else:
            product = PRODUCTS[self.calls % len(PRODUCTS)]
            try:
                action = {"action": "click_element", "index": find_index(page, "a", product.name)}
            except LookupError:
                action = {"action": "scroll_to_text", "text": product.name}
        return {"current_state": brain, "action": [action]}


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]


async def main(steps: int, fence: str) -> None:
    with DemoSite(seed=1) as site:
        policy = TimedPolicy(site.url, steps)
        llm = ScriptedChatModel(policy=policy)
        config = BrowserConfig(
            block_external_network=True,
            allowed_domains=(site.url.rstrip("/"),) if fence else None,
            fence_subresources=fence == "all",
        )
        agent = Agent("Browse the shop", llm, browser=config, settings=AgentSettings(max_failures=steps))
        history = await agent.run(max_steps=steps)
    rows = []
    for step, model_s in zip(history.steps, policy.seconds, strict=False):
        t = step.timings
        overhead = t.total_ms - model_s * 1000
        rows.append(overhead)
        action = step.actions[0].name if step.actions else "-"
        print(
            f"step {step.step:2d} {action:15s} state {t.state_ms:6.1f} ms  model {t.model_ms:6.1f} ms  "
            f"actions {t.actions_ms:6.1f} ms  overhead {overhead:6.1f} ms"
        )
    print(f"\nsteps: {len(rows)}, done: {history.is_done()}, errors: {sum(1 for e in history.errors() if e)}")
    print(
        f"framework overhead per step: median {statistics.median(rows):.1f} ms, p90 {_p90(rows):.1f} ms "
        "(target: median < 150 ms)"
    )
    print(f"state capture: median {statistics.median(s.timings.state_ms for s in history.steps):.1f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--steps", type=int, default=20)
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument("--fence", action="store_const", const="documents", dest="fence", default="")
    kind.add_argument("--fence-all", action="store_const", const="all", dest="fence")
    args = parser.parse_args()
    asyncio.run(main(args.steps, args.fence))
