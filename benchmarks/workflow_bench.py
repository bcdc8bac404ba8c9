"""Workflows with inputs: the recorded demo purchase, made a workflow, run with other values on the demo
shop, whose layout changes on every page load.

Run from the repository root: ``.venv/bin/python -m benchmarks.workflow_bench`` (``--help`` for options).

The packaged recording (``browser_agent/demo/recorded_run.json``: 2 × Blue ceramic mug, Express, for
Ada Lovelace) is made a workflow with ``make_workflow``; each run gives it another product, quantity,
name, email and shipping, on a shop started with its own seed (every page load reshuffles the order of
the products, wrappers, banners, classes, ids and the order of the checkout fields). A run is judged by
the shop's own record of the orders placed (``DemoSite.orders``), never by what the replay reports:

* correct: one order, with exactly the new product, quantity, name, email and shipping;
* abstained: no order, and the replay said where it stopped (an element it could not be sure of);
* wrong: any other order (another product, quantity or value, or two orders), or no order while the
  replay reported success.

Every tenth run also asks, on another shop, for a product the shop does not sell: there the only right
outcome is to stop without an order (counted apart: ``absent runs``, ``rightly stopped``, ``wrong``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass

from playwright.async_api import Browser

from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.browser.driver import acquire_driver, release_driver
from browser_agent.browser.launch import launch_browser
from browser_agent.demo.catalog import PRODUCTS
from browser_agent.demo.site import DemoSite, Order
from browser_agent.demo.walkthrough import RECORDED_RUN
from browser_agent.playback import ReplayOptions
from browser_agent.record import AgentHistory
from browser_agent.workflow import Workflow, make_workflow, run_workflow

NAMES = ("Grace Hopper", "Alan Turing", "Edsger Dijkstra", "Barbara Liskov", "Donald Knuth", "Frances Allen")
SHIPPING = ("Standard", "Express", "Pick-up")
SOLD = frozenset(p.name for p in PRODUCTS)


@dataclass(frozen=True)
class Case:
    seed: int
    product: str
    quantity: int
    name: str
    email: str
    shipping: str

    def inputs(self, url: str) -> dict[str, str]:
        return {
            "url": url,
            "product": self.product,
            "quantity": str(self.quantity),
            "full_name": self.name,
            "email": self.email,
            "shipping": self.shipping,
        }

    def expected(self, number: int) -> Order:
        return Order(number, self.product, self.quantity, self.name, self.email, self.shipping)


@dataclass(frozen=True)
class Outcome:
    case: Case
    verdict: str  # correct | abstained | wrong
    detail: str
    seconds: float


def cases(runs: int, first_seed: int) -> list[Case]:
    """Every run changes every input: the products other than the recorded mug in turn, 1-5 but 2."""
    others = [p.name for p in PRODUCTS if p.slug != "blue-mug"]
    made = []
    for n in range(runs):
        name = NAMES[n % len(NAMES)]
        email = f"{name.split()[0].lower()}.{n}@example.org"
        quantity = (1, 3, 4, 5)[n % 4]
        made.append(Case(first_seed + n, others[n % len(others)], quantity, name, email, SHIPPING[n % 3]))
    return made


def absent_cases(runs: int, first_seed: int) -> list[Case]:
    """A product the shop does not sell, every tenth run (seeds after the main runs' ones)."""
    return [
        Case(first_seed + runs + n, "Green teapot", 2, "Ada Lovelace", f"ada.{n}@example.org", "Standard")
        for n in range(0, runs, 10)
    ]


def judge_absent(orders: list[Order], ok: bool) -> tuple[str, str]:
    if not orders and not ok:
        return "correct", "stopped without an order"
    return "wrong", f"ok={ok}, orders {[asdict(o) for o in orders]}"


def judge(case: Case, orders: list[Order], stopped: str | None, ok: bool) -> tuple[str, str]:
    if len(orders) == 1 and orders[0] == case.expected(orders[0].number) and ok:
        return "correct", ""
    if not orders and not ok:
        return "abstained", stopped or "a step failed"
    if not orders:
        return "wrong", "the replay reported success but the shop has no order"
    return "wrong", f"the shop recorded {[asdict(o) for o in orders]}"


async def run_case(workflow: Workflow, case: Case, browser: Browser) -> Outcome:
    start = time.perf_counter()
    with DemoSite(case.seed) as site:
        config = BrowserConfig(allowed_domains=("http://127.0.0.1:*",), block_external_network=True)
        async with BrowserSession(config, browser=browser) as session:
            report = await run_workflow(workflow, session, case.inputs(site.url), options=ReplayOptions())
        if case.product in SOLD:
            verdict, detail = judge(case, list(site.orders), report.stopped, report.ok)
        else:
            verdict, detail = judge_absent(list(site.orders), report.ok)
    return Outcome(case, verdict, detail, time.perf_counter() - start)


async def bench(runs: int, first_seed: int, verbose: bool) -> list[Outcome]:
    workflow = make_workflow(AgentHistory.load(RECORDED_RUN))
    playwright = await acquire_driver()
    browser = await launch_browser(playwright, BrowserConfig(block_external_network=True))
    outcomes = []
    try:
        for case in cases(runs, first_seed) + absent_cases(runs, first_seed):
            outcome = await run_case(workflow, case, browser)
            outcomes.append(outcome)
            if verbose or outcome.verdict != "correct":
                print(f"seed {case.seed}: {outcome.verdict} {outcome.detail}", file=sys.stderr)
    finally:
        await browser.close()
        await release_driver(playwright)
    return outcomes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=100, help="workflow runs, one shop layout seed each")
    parser.add_argument("--seed", type=int, default=1, help="the first seed")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--verbose", action="store_true", help="print every run's verdict")
    args = parser.parse_args()
    everything = asyncio.run(bench(args.runs, args.seed, args.verbose))
    outcomes = [o for o in everything if o.case.product in SOLD]
    absent = [o for o in everything if o.case.product not in SOLD]
    counts = Counter(o.verdict for o in outcomes)
    seconds = sorted(o.seconds for o in outcomes)
    figures = {
        "runs": len(outcomes),
        "correct": counts["correct"],
        "abstained": counts["abstained"],
        "wrong": counts["wrong"],
        "median_seconds": round(seconds[len(seconds) // 2], 2) if seconds else 0,
        "abstentions": Counter(o.detail.split(":")[0] for o in outcomes if o.verdict == "abstained"),
        "absent_runs": len(absent),
        "absent_rightly_stopped": sum(o.verdict == "correct" for o in absent),
        "absent_wrong": sum(o.verdict == "wrong" for o in absent),
    }
    if args.json:
        print(json.dumps(figures))
        return
    print(
        f"runs {figures['runs']}  correct {figures['correct']}  abstained {figures['abstained']}  "
        f"wrong {figures['wrong']}  (median {figures['median_seconds']} s per run)"
    )
    for where, count in figures["abstentions"].items():
        print(f"  abstained at {where}: {count}")
    print(
        f"absent product: runs {figures['absent_runs']}  "
        f"rightly stopped {figures['absent_rightly_stopped']}  wrong {figures['absent_wrong']}"
    )
    if counts["wrong"] or figures["absent_wrong"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
