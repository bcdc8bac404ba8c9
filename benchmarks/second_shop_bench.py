"""Workflows and exports on a shop nobody tuned them to: ``tests/support/second_shop.py``, 14 layouts.

Run from the repository root: ``.venv/bin/python -m benchmarks.second_shop_bench`` (``--help``).

On each layout the purchase is recorded once with the scripted model (``tests/support/second_shop_policy``:
2 x 'Blue Ceramic Mug', Express, to Norway, for Ada Lovelace), made a workflow, and then done again:

* ``run recorded``: ``run_workflow`` with the recorded inputs, on a fresh shop of the same layout;
* ``run other``: ``run_workflow`` with other inputs (another product, quantity, name, email, country,
  shipping), six cases per layout by default (``--others``);
* ``run absent``: those of the cases whose product the layout does not sell (the look-alike "Blue
  Ceramic Mug Set" is shown only in the layouts that put it beside the mug): correct is no order;
* ``export recorded`` / ``export other`` / ``export absent``: the script ``export_workflow`` writes,
  imported and its ``run(page, ...)`` called with the same values;
* ``pytest form``: the test the ``--pytest`` export writes, on a fresh shop of the layout it was
  recorded on: correct when its own assertions pass and the shop has the order.

A run is judged by the shop's own record: *correct* exactly the one order asked for, *stopped* no order,
*wrong* any other order. Then start-up and all: a whole process, start to exit, on the canonical layout,
for the exported script (``python script.py``: Playwright and Chromium) and for ``browser-agent workflow
run`` (the replay: the package, Chromium, a page capture and re-identification at each step).
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import os
import runpy
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.async_api import Browser
from playwright.sync_api import sync_playwright

from browser_agent.agent import Agent, AgentSettings
from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.browser.chromium import chromium_args, find_chromium
from browser_agent.browser.driver import acquire_driver, release_driver
from browser_agent.browser.launch import launch_browser
from browser_agent.playback import ReplayOptions
from browser_agent.testing import ScriptedChatModel
from browser_agent.workflow import Workflow, export_workflow, make_workflow, run_workflow
from tests.support.second_shop import LAYOUTS, SecondShop, ShopOrder, sold
from tests.support.second_shop_policy import BUYER, SHOP_TASK, ShopPolicy

FENCE = ("http://127.0.0.1:*",)
OTHERS = (
    ("Stoneware Bowl", "3", "Grace Hopper", "grace@example.org", "France", "Standard"),
    ("Glass Carafe", "1", "Alan Turing", "alan@example.org", "Japan", "Overnight"),
    ("Walnut Serving Tray", "4", "Barbara Liskov", "barbara@example.org", "Canada", "Express"),
    ("Copper Kettle", "5", "Donald Knuth", "donald@example.org", "United Kingdom", "Overnight"),
    ("Linen Napkins", "3", "Frances Allen", "frances@example.org", "France", "Standard"),
    ("Blue Ceramic Mug Set", "1", "Edsger Dijkstra", "edsger@example.org", "Japan", "Express"),
)
_KEYS = ("product", "quantity", "full_name", "email", "country", "shipping")


@dataclass(frozen=True)
class Case:
    layout: str
    values: dict[str, str]

    def expected(self) -> tuple[Any, ...]:
        v = self.values
        return (v["product"], int(v["quantity"]), v["full_name"], v["email"], v["country"], v["shipping"])


def recorded_case(layout: str) -> Case:
    b = BUYER
    values = (b["product"], b["quantity"], b["name"], b["email"], b["country"], b["shipping"])
    return Case(layout, dict(zip(_KEYS, values, strict=True)))


def other_case(layout: str, n: int) -> Case:
    return Case(layout, dict(zip(_KEYS, OTHERS[n % len(OTHERS)], strict=True)))


def judge(case: Case, orders: list[ShopOrder]) -> str:
    """An item the layout does not sell (the look-alike, shown only beside the mug) is done right by
    stopping: ``correct`` without an order, ``wrong`` with one."""
    if case.values["product"] not in sold(case.layout):
        return "wrong" if orders else "correct"
    if not orders:
        return "stopped"
    placed = [(o.product, o.quantity, o.name, o.email, o.country, o.shipping) for o in orders]
    return "correct" if placed == [case.expected()] else "wrong"


async def record(layout: str, browser: Browser) -> Workflow:
    """The purchase recorded on ``layout`` by the scripted model, made a workflow."""
    with SecondShop(layout) as shop:
        async with BrowserSession(BrowserConfig(allowed_domains=FENCE), browser=browser) as session:
            agent = Agent(
                SHOP_TASK,
                ScriptedChatModel(policy=ShopPolicy(shop.url)),
                browser=session,
                settings=AgentSettings(tool_calling_method="function_calling"),
            )
            history = await agent.run(max_steps=20)
        assert [o.product for o in shop.orders] == ["Blue Ceramic Mug"], (layout, shop.orders)
    return make_workflow(history)


async def run_case(workflow: Workflow, case: Case, browser: Browser) -> tuple[str, str]:
    with SecondShop(case.layout) as shop:
        values = _given(workflow, case) | {"url": shop.url}
        async with BrowserSession(BrowserConfig(allowed_domains=FENCE), browser=browser) as session:
            report = await run_workflow(workflow, session, values, options=ReplayOptions(retries=1))
        return judge(case, list(shop.orders)), report.stopped or ""


def _given(workflow: Workflow, case: Case) -> dict[str, str]:
    """The case's values under the names the workflow gave its inputs, matched by the recorded value
    (an input the workflow did not find keeps the recorded value, and the order will say so)."""
    recorded = recorded_case(case.layout).values
    by_default = {item.default: item.name for item in workflow.inputs}
    return {
        by_default[recorded[key]]: value for key, value in case.values.items() if recorded[key] in by_default
    }


async def workflows(
    layouts: tuple[str, ...], others: int
) -> tuple[dict[str, Workflow], list[dict[str, Any]]]:
    playwright = await acquire_driver()
    browser = await launch_browser(playwright, BrowserConfig(block_external_network=True))
    made: dict[str, Workflow] = {}
    rows: list[dict[str, Any]] = []
    try:
        for n, layout in enumerate(layouts):
            made[layout] = workflow = await record(layout, browser)
            for mode, case in _cases(layout, n, others):
                start = time.perf_counter()
                verdict, why = await run_case(workflow, case, browser)
                rows.append(_row(mode, layout, verdict, why, time.perf_counter() - start))
    finally:
        await browser.close()
        await release_driver(playwright)
    return made, rows


def _cases(layout: str, n: int, others: int) -> list[tuple[str, Case]]:
    """The recorded inputs, then ``others`` cases of other inputs (the next ones in turn per layout)."""
    made = [other_case(layout, n + k) for k in range(others)]
    return [
        ("run recorded", recorded_case(layout)),
        *(("run other" if c.values["product"] in sold(layout) else "run absent", c) for c in made),
    ]


def _row(mode: str, layout: str, verdict: str, why: str, seconds: float) -> dict[str, Any]:
    return {"mode": mode, "layout": layout, "verdict": verdict, "why": why, "s": seconds}


def exports(made: dict[str, Workflow], folder: Path, others: int) -> list[dict[str, Any]]:
    rows = []
    with sync_playwright() as pw:
        location = find_chromium(playwright_path=pw.chromium.executable_path)
        browser = pw.chromium.launch(
            executable_path=str(location.path) if location.path else None,
            args=chromium_args(block_external_network=True),
        )
        for n, (layout, workflow) in enumerate(made.items()):
            path = folder / f"flow_{n}.py"
            path.write_text(export_workflow(workflow).source)
            run: Callable[..., Any] = runpy.run_path(str(path))["run"]
            for mode, case in _cases(layout, n, others):
                rows.append(_export_case(browser, run, workflow, case, mode.replace("run", "export")))
            rows.append(_own_test(browser, export_workflow(workflow, pytest=True).source, layout, folder))
        browser.close()
    return rows


def _own_test(browser: Any, source: str, layout: str, folder: Path) -> dict[str, Any]:
    """The pytest form's own test, on a fresh shop of the layout it was recorded on: *correct* when its
    assertions pass (and the shop has the order), *wrong* when they fail, *stopped* when a step does."""
    path = folder / "test_flow.py"
    path.write_text(source)
    with SecondShop(layout) as shop:
        os.environ["BA_BASE_URL"] = shop.url  # read when the module is loaded, as pytest would
        try:
            test = runpy.run_path(str(path))["test_recorded_run"]
        finally:
            del os.environ["BA_BASE_URL"]
        context = browser.new_context()
        page = context.new_page()
        page.set_default_timeout(8_000)
        start, verdict, why = time.perf_counter(), "correct", ""
        try:
            test(page)
        except AssertionError as exc:
            verdict, why = "wrong", f"its assertion failed: {str(exc)[:120]}"
        except Exception as exc:  # a step that did not go through is a stop, whatever Playwright raised
            verdict, why = "stopped", str(exc).splitlines()[0][:140]
        context.close()
        if verdict == "correct" and len(shop.orders) != 1:
            verdict, why = "wrong", f"its assertions passed but the shop has {len(shop.orders)} orders"
        return _row("pytest form", layout, verdict, why, time.perf_counter() - start)


def startup(made: dict[str, Workflow], folder: Path, times: int = 3) -> dict[str, float]:
    """Median seconds of a whole process, on the canonical layout: the exported script (``python``)
    and ``browser-agent workflow run`` (a replay), each from start to exit."""
    workflow = made.get("canonical") or next(iter(made.values()))
    script, flow = folder / "startup.py", folder / "startup.workflow.json"
    script.write_text(export_workflow(workflow).source)
    workflow.save(flow)
    seconds: dict[str, list[float]] = {"exported script": [], "workflow run": []}
    for _ in range(times):
        with SecondShop("canonical") as shop:
            chromium = find_chromium().path
            env = {**os.environ, "BA_BASE_URL": shop.url, "BA_CHROMIUM": str(chromium) if chromium else ""}
            seconds["exported script"].append(_timed([sys.executable, str(script)], env))
        with SecondShop("canonical") as shop:
            cli = ["-c", "import sys; from browser_agent.cli import main; sys.exit(main(sys.argv[1:]))"]
            command = [*cli, "workflow", "run", str(flow), "--input", f"url={shop.url}"]
            seconds["workflow run"].append(_timed([sys.executable, *command], dict(os.environ)))
    return {kind: sorted(values)[len(values) // 2] for kind, values in seconds.items()}


def _timed(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{command[1:3]} failed: {(done.stderr or done.stdout)[-400:]}")
    return time.perf_counter() - start


def _export_case(
    browser: Any, run: Callable[..., Any], workflow: Workflow, case: Case, mode: str
) -> dict[str, Any]:
    takes = set(inspect.signature(run).parameters)
    with SecondShop(case.layout) as shop:
        values = {**_given(workflow, case), "base_url": shop.url}
        context = browser.new_context()
        page = context.new_page()
        page.set_default_timeout(8_000)
        start, error = time.perf_counter(), ""
        try:
            run(page, **{k: v for k, v in values.items() if k in takes})
        except Exception as exc:  # a failed run is a result here, whatever Playwright raised
            error = str(exc).splitlines()[0][:140]
        context.close()
        return _row(mode, case.layout, judge(case, list(shop.orders)), error, time.perf_counter() - start)


MODES = ("run recorded", "run other", "run absent", "export recorded", "export other", "export absent")


def report(rows: list[dict[str, Any]]) -> None:
    """The figures per mode, then per layout, then why each run that was not correct was not."""
    print(f"{'mode':<16} {'runs':>5} {'correct':>8} {'stopped':>8} {'wrong':>6} {'median s':>9}")
    for mode in (*MODES, "pytest form"):
        mine = [r for r in rows if r["mode"] == mode]
        if not mine:
            continue
        counts = Counter(r["verdict"] for r in mine)
        median = sorted(r["s"] for r in mine)[len(mine) // 2]
        print(
            f"{mode:<16} {len(mine):>5} {counts['correct']:>8} {counts['stopped']:>8} "
            f"{counts['wrong']:>6} {median:>9.2f}"
        )
    print("\nper layout, correct/runs: run (recorded, other, absent), export (the same), pytest form")
    for layout in dict.fromkeys(r["layout"] for r in rows):
        cells = []
        for mode in (*MODES, "pytest form"):
            mine = [r for r in rows if r["layout"] == layout and r["mode"] == mode]
            cells.append(f"{sum(r['verdict'] == 'correct' for r in mine)}/{len(mine)}" if mine else "-")
        print(f"  {layout:<16} " + " ".join(f"{cell:>5}" for cell in cells))
    for r in rows:
        if r["verdict"] != "correct":
            print(f"  {r['mode']} on {r['layout']}: {r['verdict']}: {r['why'][:150]}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layouts", type=int, default=len(LAYOUTS), help="how many of the layouts")
    parser.add_argument("--others", type=int, default=len(OTHERS), help="cases of other inputs per layout")
    parser.add_argument("--no-export", action="store_true", help="only the workflow runs")
    args = parser.parse_args()
    made, rows = asyncio.run(workflows(LAYOUTS[: args.layouts], args.others))
    with tempfile.TemporaryDirectory() as tmp:
        if not args.no_export:
            rows += exports(made, Path(tmp), args.others)
        report(rows)
        if not args.no_export:
            print("\nwhole process, start to exit, canonical layout (median of 3):", flush=True)
            for kind, seconds in startup(made, Path(tmp)).items():
                print(f"  {kind:<16} {seconds:6.2f} s")
    if any(r["verdict"] == "wrong" for r in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
