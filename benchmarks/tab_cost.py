"""What one agent's browser work costs in CPU: a new context and tab, a page load, a capture.

On a machine with few cores, the CPU time per task bounds how many agents can run at once: two cores
give 120 CPU-seconds a minute, whatever the concurrency. This reads the CPU time of every process this
one started (Playwright's driver, Chromium's browser, renderer, GPU and utility processes) from /proc,
before and after each phase, with a pause after each so the work a phase leaves for later is counted
in it. Processes that exit during a phase (a closed tab's renderer) are counted up to their last
reading, so closing is under-counted.

    .venv/bin/python -m benchmarks.tab_cost [--rounds 5] [--pause 2.0]

The figures are CPU-seconds per round by process kind; the sampler itself is part of ``python``.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
from collections import defaultdict

from benchmarks.proc_tree import cpu_seconds, descendants, process_kind
from browser_agent import BrowserConfig
from browser_agent.browser.driver import acquire_driver, release_driver
from browser_agent.browser.launch import launch_browser
from browser_agent.browser.session import BrowserSession
from browser_agent.demo.site import DemoSite


class CpuLedger:
    """CPU time of this process tree, charged to named phases by process kind."""

    def __init__(self) -> None:
        self._last: dict[int, float] = {}
        self._kinds: dict[int, str] = {}
        self.phases: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))

    def charge(self, phase: str) -> None:
        """Charge the CPU used since the previous call to ``phase``."""
        for pid in descendants(os.getpid()):
            used = cpu_seconds(pid)
            if used is None:
                continue
            kind = self._kinds.setdefault(pid, process_kind(pid))
            self.phases[phase][kind] += used - self._last.get(pid, 0.0)
            self._last[pid] = used


async def measure(rounds: int, pause: float) -> CpuLedger:
    config = BrowserConfig(block_external_network=True)
    playwright = await acquire_driver()
    browser = await launch_browser(playwright, config)
    ledger = CpuLedger()
    try:
        with DemoSite() as site:
            await asyncio.sleep(pause)
            ledger.charge("launch")
            for _ in range(rounds):
                session = BrowserSession(config, browser=browser)
                steps = [
                    ("new context and tab", session.start),
                    ("load a page", functools.partial(session.navigate, site.url)),
                    ("capture", session.state),
                    ("capture again", session.state),
                    ("close", session.close),
                ]
                for phase, work in steps:
                    await work()
                    await asyncio.sleep(pause)
                    ledger.charge(phase)
    finally:
        await browser.close()
        await release_driver(playwright)
    return ledger


def report(ledger: CpuLedger, rounds: int) -> None:
    kinds = sorted({k for phase in ledger.phases.values() for k in phase})
    print(f"{'CPU-s per round':24}" + "".join(f"{k[:11]:>12}" for k in kinds) + f"{'total':>10}")
    for phase, used in ledger.phases.items():
        if phase == "launch":
            continue
        cells = "".join(f"{used.get(k, 0.0) / rounds:>12.3f}" for k in kinds)
        print(f"{phase:24}{cells}{sum(used.values()) / rounds:>10.3f}")
    print(f"(launching the browser once: {sum(ledger.phases['launch'].values()):.2f} CPU-s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pause", type=float, default=2.0, help="seconds after each phase")
    args = parser.parse_args()
    report(asyncio.run(measure(args.rounds, args.pause)), args.rounds)


if __name__ == "__main__":
    main()
