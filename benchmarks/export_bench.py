"""Exported Playwright scripts across shop layouts: the robust export, a script of absolute XPaths, replay.

Run from the repository root: ``.venv/bin/python -m benchmarks.export_bench`` (``--help`` for options).

The demo shop (``browser_agent.demo``) changes its layout on every page load: wrappers, banners, the
order of the products, the order of the checkout fields, generated class names. Its recorded purchase
(``recorded_run.json``) is done three ways on the same layouts (a shop started with the same seed loads
the same layouts in the same order):

- *export*: the script ``browser-agent export`` writes, imported as written and its ``run(page)`` called;
- *xpath*: the same script with every locator replaced by the element's absolute XPath, taken while the
  export ran once on the layouts of seed 0 (what a recorder that stores paths would have saved; the
  approach of the Playwright export users called brittle);
- *replay*: ``browser_agent.playback.replay`` of the history (re-identification, abstains when unsure).

A run is *correct* when the shop confirmed exactly the recorded order (product, quantity, name, email,
shipping), *wrong* when it confirmed another order, and *failed* (abstained) when it confirmed none.

Then, with other inputs: the script exported from the recording *made a workflow* (``export_workflow``:
its inputs keep the workflow's names, the product link is found by the ``product`` input's words) runs
with exactly the cases of ``workflow_bench`` (same seeds, so the same layouts, and the same products,
quantities, names, emails and shipping, and every tenth run a product the shop does not sell), judged as
``workflow_bench`` judges ``run_workflow``; beside it, the XPath script given the inputs it has (all but
the product, which its paths cannot change).
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import re
import runpy
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, sync_playwright

from benchmarks.workflow_bench import SOLD, Case, absent_cases, cases, judge, judge_absent
from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.browser.chromium import chromium_args, find_chromium
from browser_agent.controller import Controller
from browser_agent.demo.site import DemoSite, Order
from browser_agent.demo.walkthrough import RECORDED_RUN
from browser_agent.export import ExportStep, LocatorCode, locate, render_script, steps_from_history
from browser_agent.export.locators import py_string
from browser_agent.playback import ReplayOptions, replay
from browser_agent.record import AgentHistory
from browser_agent.workflow import export_workflow, make_workflow

EXPECTED = ("Blue ceramic mug", 2, "Ada Lovelace", "ada@example.com", "Express")
# An element not there fails in 10 s instead of Playwright's 30; on a loaded machine 3 s failed a good run.
TIMEOUT_MS = 10_000
XPATH_JS = """el => { const parts = [];
  for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
    let i = 1;
    for (let s = n.previousElementSibling; s; s = s.previousElementSibling)
      if (s.localName === n.localName) i++;
    parts.unshift(n.localName + "[" + i + "]"); }
  return "/" + parts.join("/"); }"""


def verdict(orders: list[Order]) -> str:
    if not orders:
        return "failed"
    placed = [(o.product, o.quantity, o.name, o.email, o.shipping) for o in orders]
    return "correct" if placed == [EXPECTED] else "wrong"


def record_xpaths(browser: Browser, steps: list[ExportStep]) -> dict[int, str]:
    """Do the purchase once on the layouts of seed 0 with the export's locators; note each element's XPath."""
    paths: dict[int, str] = {}
    with DemoSite(0) as site:
        page = browser.new_page()
        for at, step in enumerate(steps):
            if step.action == "go_to_url":
                page.goto(site.url)
                continue
            if step.fingerprint is None:
                continue
            target = eval(locate(step.fingerprint, step.shown_name).expression, {"page": page, "re": re})
            paths[at] = target.evaluate(XPATH_JS)
            _act(target, step)
        page.close()
        assert verdict(site.orders) == "correct", site.orders
    return paths


def _act(target: Any, step: ExportStep) -> None:
    text = str(step.params.get("text", ""))
    if step.action == "input_text":
        target.fill(text)
    elif step.action == "select_dropdown_option":
        target.select_option(label=text)
    else:
        target.click()


def xpath_script(steps: list[ExportStep], paths: dict[int, str]) -> str:
    # by the recorded element: the writer gets each step checked, a copy, but with the same fingerprint
    index = {id(step.fingerprint): at for at, step in enumerate(steps) if step.fingerprint is not None}

    def by_xpath(step: ExportStep) -> LocatorCode:
        return LocatorCode(("page", f".locator({py_string('xpath=' + paths[index[id(step.fingerprint)]])})"))

    return render_script(steps, locate=by_xpath).source


def load_run(source: str, folder: Path, name: str) -> Callable[..., None]:
    """The script's ``run`` function, imported from the file as written."""
    path = folder / f"{name}.py"
    path.write_text(source)
    run: Callable[..., None] = runpy.run_path(str(path))["run"]
    return run


def attempt(browser: Browser, run: Callable[..., None], **inputs: str) -> tuple[str, float]:
    """One run in a fresh context: the first line of what it raised ("" when it went through), seconds."""
    context = browser.new_context()
    page: Page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    start, error = time.perf_counter(), ""
    try:
        run(page, **inputs)
    except Exception as exc:  # a failed run is a result here, whatever Playwright raised
        error = str(exc).splitlines()[0][:160]
    context.close()
    return error, time.perf_counter() - start


def run_script(
    browser: Browser, source: str, seeds: list[int], folder: Path, name: str
) -> list[dict[str, Any]]:
    run = load_run(source, folder, name)
    rows = []
    for seed in seeds:
        with DemoSite(seed) as site:
            error, seconds = attempt(browser, run, base_url=site.url)
            rows.append(_row(name, seed, site.orders, seconds, error))
    return rows


def run_with_inputs(
    browser: Browser, source: str, runs: list[Case], folder: Path, name: str
) -> list[dict[str, Any]]:
    """Each case on its own shop, the script's ``run`` given the case's values for the inputs it takes."""
    run = load_run(source, folder, name)
    takes = set(inspect.signature(run).parameters)
    rows = []
    for case in runs:
        with DemoSite(case.seed) as site:
            values = {**case.inputs(site.url), "base_url": site.url}
            error, seconds = attempt(browser, run, **{k: v for k, v in values.items() if k in takes})
            orders, ok = list(site.orders), not error
            if case.product in SOLD:
                said, _ = judge(case, orders, error, ok)
                kind = name
            else:
                said, _ = judge_absent(orders, ok)
                kind = name + " absent"
            rows.append({"way": kind, "seed": case.seed, "verdict": said, "s": seconds, "error": error})
    return rows


def _row(way: str, seed: int, orders: list[Order], seconds: float, error: str) -> dict[str, Any]:
    return {"way": way, "seed": seed, "verdict": verdict(orders), "s": seconds, "error": error}


async def run_replays(seeds: list[int]) -> list[dict[str, Any]]:
    history = AgentHistory.load(RECORDED_RUN, Controller())
    root = next(str(a.params["url"]) for s in history.steps for a in s.actions if a.name == "go_to_url")
    rows = []
    for seed in seeds:
        with DemoSite(seed) as site:
            config = BrowserConfig(block_external_network=True, allowed_domains=("http://127.0.0.1:*",))
            start = time.perf_counter()
            async with BrowserSession(config) as session:
                opts = ReplayOptions(substitutions={root: site.url})
                report = await replay(history, session, Controller(), opts)
            seconds = time.perf_counter() - start
            rows.append(_row("replay", seed, site.orders, seconds, report.stopped or ""))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layouts", type=int, default=30, help="how many shop layouts (seeds)")
    parser.add_argument("--json", type=Path, help="write every run as JSON here")
    parser.add_argument(
        "--runs", type=int, default=100, help="runs with other inputs, as workflow_bench --runs (0: none)"
    )
    parser.add_argument("--seed", type=int, default=1, help="their first seed, as workflow_bench --seed")
    args = parser.parse_args()
    inputs_cases = cases(args.runs, args.seed) + absent_cases(args.runs, args.seed)
    seeds = [1000 + 37 * n for n in range(args.layouts)]
    history = AgentHistory.load(RECORDED_RUN)
    steps = steps_from_history(history)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        location = find_chromium(playwright_path=pw.chromium.executable_path)
        browser = pw.chromium.launch(
            executable_path=str(location.path) if location.path else None,
            args=chromium_args(block_external_network=True),
        )
        exported = render_script(steps, task=history.task).source
        brittle = xpath_script(steps, record_xpaths(browser, steps))
        rows += run_script(browser, exported, seeds, Path(tmp), "export")
        rows += run_script(browser, brittle, seeds, Path(tmp), "xpath")
        # the XPaths do work on the layouts they were taken on: what breaks them is the change
        same = run_script(browser, brittle, [0], Path(tmp), "xpath")[0]["verdict"]
        print(f"xpath script on the layouts it was recorded on (seed 0): {same}")
        flow = export_workflow(make_workflow(history)).source
        rows += run_with_inputs(browser, flow, inputs_cases, Path(tmp), "workflow_export")
        rows += run_with_inputs(browser, brittle, inputs_cases, Path(tmp), "xpath_inputs")
        browser.close()
    rows += asyncio.run(run_replays(seeds))
    report(rows, args.layouts)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


def report(rows: list[dict[str, Any]], layouts: int) -> None:
    print(f"{layouts} layouts of the demo shop, the recorded purchase each way\n")
    print(f"{'way':<8} {'correct':>8} {'failed':>8} {'wrong':>6} {'median s':>9}")
    for way in ("export", "xpath", "replay"):
        mine = [r for r in rows if r["way"] == way]
        counts = Counter(r["verdict"] for r in mine)
        median = sorted(r["s"] for r in mine)[len(mine) // 2]
        print(f"{way:<8} {counts['correct']:>8} {counts['failed']:>8} {counts['wrong']:>6} {median:>9.2f}")
    kinds = ("workflow_export", "xpath_inputs", "workflow_export absent", "xpath_inputs absent")
    with_inputs = [(kind, [r for r in rows if r["way"] == kind]) for kind in kinds]
    if with_inputs[0][1]:
        print("\nwith other inputs, the cases of workflow_bench (same seeds and values)\n")
        print(f"{'way':<24} {'runs':>5} {'correct':>8} {'abstained':>10} {'wrong':>6} {'median s':>9}")
        for kind, mine in with_inputs:
            counts = Counter(r["verdict"] for r in mine)
            median = sorted(r["s"] for r in mine)[len(mine) // 2] if mine else 0.0
            print(
                f"{kind:<24} {len(mine):>5} {counts['correct']:>8} {counts['abstained']:>10} "
                f"{counts['wrong']:>6} {median:>9.2f}"
            )
    errors = Counter(
        (r["way"], re.sub(r"\d+", "N", r["error"])[:100]) for r in rows if r["verdict"] != "correct"
    )
    for (way, error), count in errors.most_common(5):
        print(f"  {way}: {count} x {error}")


if __name__ == "__main__":
    main()
