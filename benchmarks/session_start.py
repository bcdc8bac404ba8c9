"""What it costs to start sessions that launch their own browser: one, several in turn, several at once.

Each scenario runs in a fresh interpreter of the checkout measured (``--root``, this one by default), in
one event loop: start the sessions, load a page of the demo shop in each, close them. The figures are the
scenario's wall time and the CPU time of the interpreter and everything it started (Playwright's driver,
Chromium), read when all of them have ended (``RUSAGE_CHILDREN``), minus the interpreter's own start
and imports. The scenarios take turns run by run, and the median of the runs is printed.

    .venv/bin/python benchmarks/session_start.py [--runs 5] [--sessions 4] [--root DIR]

Sessions that run at the same time in one loop share one Playwright driver (``browser/driver.py``);
sessions one after another each start it again, as nothing holds it between them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

SCENARIOS = ("one", "in turn", "at once")

_CHILD = """
import asyncio, json, resource, sys, time
from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.demo.site import DemoSite

def cpu():
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime

async def one(url):
    async with BrowserSession(BrowserConfig(block_external_network=True)) as session:
        await session.navigate(url)

async def main(scenario, count):
    with DemoSite() as site:
        started, before = time.perf_counter(), cpu()
        if scenario == "one":
            await one(site.url)
        elif scenario == "in turn":
            for _ in range(count):
                await one(site.url)
        else:
            await asyncio.gather(*(one(site.url) for _ in range(count)))
        wall = time.perf_counter() - started
    print(json.dumps({"wall": wall, "cpu": cpu() - before}))

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


def run(scenario: str, sessions: int, root: Path) -> dict[str, float]:
    env = os.environ | {"PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, scenario, str(sessions)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--runs", type=int, default=5, help="runs of each scenario")
    parser.add_argument("--sessions", type=int, default=4, help="sessions in turn and at once")
    parser.add_argument(
        "--root", type=Path, default=Path(__file__).resolve().parents[1], help="the checkout to measure"
    )
    args = parser.parse_args()
    root = args.root.resolve()
    run("one", 1, root)  # warm the disk cache
    samples: dict[str, list[dict[str, float]]] = {name: [] for name in SCENARIOS}
    for _ in range(args.runs):
        for name in SCENARIOS:
            samples[name].append(run(name, args.sessions, root))
    print(f"checkout: {root}")
    print(f"{'scenario':<32} {'wall s':>7} {'CPU s':>7}  (median of {args.runs} runs)")
    for name in SCENARIOS:
        count = 1 if name == "one" else args.sessions
        wall = statistics.median(s["wall"] for s in samples[name])
        cpu = statistics.median(s["cpu"] for s in samples[name])
        label = f"{name} ({count} session{'s' if count > 1 else ''})"
        print(f"{label:<32} {wall:>7.2f} {cpu:>7.2f}")


if __name__ == "__main__":
    main()
