"""Runs that heal: the demo purchase workflow on shops that renamed things since it was recorded.

Run from the repository root: ``.venv/bin/python -m benchmarks.heal_bench`` (``--help`` for options).

Each case is a shop (``DemoSite(renames=...)``, ``tests/support/healer.py``'s ``RENAMES``: a button, a
link, a product, a field's label renamed, alone or two at once) on which the workflow made of the
packaged recording runs three times, judged by the shop's own record of orders:

* plain: without a model. Counted when it stops (no order, the replay said where): the cases to heal;
* healed: with ``--heal``'s options and a scripted model standing in for a real one (it acts on the
  element that says the new words): correct when the one order is the recorded purchase;
* again: the healed workflow (``healed_workflow``) without a model, on another layout of the same shop.

Then exported scripts (``--export``): the second shop's purchase (``tests/support/second_shop.py``) recorded
on its canonical layout, exported plain and with ``--heal``, run on each of its layouts, renamed
(``EXPORT_RENAMES``: a button, the link that opens the checkout's tab, the order button, and the three at
once) and not: the plain script's stops, and how many the ``--heal`` form turns into the right order with
the scripted healer standing in for a model (``BA_HEAL_WAIT_MS=2000``: a locator waits 2 s).
"""

from __future__ import annotations

import argparse
import asyncio
import json
from dataclasses import dataclass

from playwright.async_api import Browser

from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.browser.driver import acquire_driver, release_driver
from browser_agent.browser.launch import launch_browser
from browser_agent.demo.site import DemoSite, Order
from browser_agent.demo.walkthrough import RECORDED_RUN
from browser_agent.playback import ReplayOptions, ReplayReport
from browser_agent.record import AgentHistory
from browser_agent.workflow import Workflow, make_workflow, run_workflow
from browser_agent.workflow.heal import healed_workflow
from tests.support.healer import RENAMES, healer
from tests.support.second_shop import LAYOUTS

EXPORT_RENAMES: tuple[dict[str, str], ...] = (
    {},
    {"Add to cart": "Add to bag"},
    {">Proceed to checkout</a>": ">Go to payment</a>"},
    {"Place order": "Buy now"},
    {"Add to cart": "Add to bag", ">Proceed to checkout</a>": ">Go to payment</a>", "Place order": "Buy now"},
)

FENCE = ("http://127.0.0.1:*",)


@dataclass(frozen=True)
class Outcome:
    renames: dict[str, str]
    plain: str
    healed: str
    again: str


async def _run(
    workflow: Workflow, browser: Browser, seed: int, renames: dict[str, str], llm: bool
) -> tuple[ReplayReport, list[Order]]:
    with DemoSite(seed, renames=renames) as site:
        config = BrowserConfig(allowed_domains=FENCE, block_external_network=True)
        options = ReplayOptions(retries=0, llm=healer(renames) if llm else None)
        async with BrowserSession(config, browser=browser) as session:
            report = await run_workflow(workflow, session, {"url": site.url}, options=options)
        return report, list(site.orders)


def _verdict(report: ReplayReport, orders: list[Order]) -> str:
    if not orders:
        return "stopped" if report.stopped else "wrong"
    [order] = orders if len(orders) == 1 else [None]
    right = order is not None and (order.product, order.quantity, order.shipping) == (
        "Blue ceramic mug",
        2,
        "Express",
    )
    return "correct" if right and report.ok else "wrong"


async def run_case(workflow: Workflow, browser: Browser, seed: int, renames: dict[str, str]) -> Outcome:
    report, orders = await _run(workflow, browser, seed, renames, llm=False)
    plain = _verdict(report, orders)
    report, orders = await _run(workflow, browser, seed, renames, llm=True)
    healed = _verdict(report, orders)
    fixed = healed_workflow(workflow, workflow.values({}), report, "shop.workflow.json")
    again = "-"
    if fixed is not None:
        report, orders = await _run(fixed, browser, seed + 1000, renames, llm=False)
        again = _verdict(report, orders)
    return Outcome(renames, plain, healed, again)


async def bench(seeds: int) -> list[Outcome]:
    workflow = make_workflow(AgentHistory.load(RECORDED_RUN))
    playwright = await acquire_driver()
    browser = await launch_browser(playwright, BrowserConfig(block_external_network=True))
    try:
        return [
            await run_case(workflow, browser, seed, dict(renames))
            for seed in range(1, seeds + 1)
            for renames in RENAMES
        ]
    finally:
        await browser.close()
        await release_driver(playwright)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=3, help="shop layout seeds per renaming")
    parser.add_argument("--verbose", action="store_true", help="print every case")
    parser.add_argument("--export", action="store_true", help="only the exported scripts' part")
    parser.add_argument("--layouts", type=int, default=len(LAYOUTS), help="second-shop layouts to export on")
    args = parser.parse_args()
    from benchmarks.heal_export import export_figures

    print(json.dumps(export_figures(LAYOUTS[: args.layouts], EXPORT_RENAMES, verbose=args.verbose)))
    if args.export:
        return
    outcomes = asyncio.run(bench(args.seeds))
    stops = [o for o in outcomes if o.plain == "stopped"]
    figures = {
        "cases": len(outcomes),
        "plain_correct": sum(o.plain == "correct" for o in outcomes),
        "plain_stopped": len(stops),
        "plain_wrong": sum(o.plain == "wrong" for o in outcomes),
        "healed_of_stopped": sum(o.healed == "correct" for o in stops),
        "healed_wrong": sum(o.healed == "wrong" for o in outcomes),
        "healed_workflow_again_correct": sum(o.again == "correct" for o in stops if o.healed == "correct"),
    }
    if args.verbose:
        for o in outcomes:
            print(f"{o.renames}: plain {o.plain}, healed {o.healed}, again {o.again}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
