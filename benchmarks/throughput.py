"""Throughput of many agents at once: tasks per minute and memory at concurrency 1, 2, 4, 8, 16 and on Ray.

40 short tasks on the bundled demo shop (127.0.0.1): open the shop, open a product, report its price.
The model is ``ScriptedChatModel`` with a simulated latency of 1 s per call (a real provider takes
longer still; the agents spend most of their time waiting on it), two calls per task. Each run launches
its own Chromium and opens one context per agent. Memory is the proportional set size (PSS) of this
process and everything it started (Playwright's driver, Chromium, Ray's processes), sampled every
0.25 s; PSS counts memory shared between processes once. CPU is the CPU time all of them used (not
for the Ray row, whose workers outlive the run), and ``load`` the machine's load average at the start:
on a shared machine, other work takes the cores the agents would use.

    .venv/bin/python -m benchmarks.throughput [--tasks 40] [--latency 1.0] [--levels 1 2 4 8 16] [--no-ray]

Targets (issue 14): concurrency 8 at least 5x the throughput of concurrency 1; under 150 MB per extra
agent; the Ray path within 20 % of run_many at the same concurrency.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import resource
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.proc_tree import descendants
from browser_agent import BrowserConfig
from browser_agent.batch import BatchOptions, Executor, RayExecutor, TaskSpec, run_many
from browser_agent.demo.catalog import PRODUCTS
from browser_agent.demo.policy import price_policy
from browser_agent.demo.site import DemoSite
from browser_agent.testing import ScriptedChatModel


def _tree_pss_mb(root: int) -> float:
    """PSS of ``root`` and all its descendants, in MB (Linux /proc)."""
    total_kb = 0
    for pid in descendants(root):
        try:
            rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
        except OSError:
            continue
        found = re.search(r"^Pss:\s+(\d+) kB", rollup, re.MULTILINE)
        total_kb += int(found.group(1)) if found else 0
    return total_kb / 1024


class PeakMemory:
    """Samples the process tree's PSS in a thread while entered; ``peak_mb`` is the highest seen."""

    def __init__(self, every_s: float = 0.25) -> None:
        self.every_s, self.peak_mb = every_s, 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.is_set():
            self.peak_mb = max(self.peak_mb, _tree_pss_mb(os.getpid()))
            self._stop.wait(self.every_s)

    def __enter__(self) -> PeakMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def _cpu_seconds() -> float:
    """CPU time of this process and of every child it reaped (Playwright's driver reaps the browser,
    which reaps its renderers): after a run has closed its browser, the delta covers all of it."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@dataclass(frozen=True)
class Run:
    label: str
    concurrency: int
    seconds: float
    peak_mb: float
    succeeded: int
    tasks: int
    cpu_s: float | None
    load: float

    @property
    def per_minute(self) -> float:
        return self.tasks / self.seconds * 60


async def run_level(
    site_url: str, tasks: int, latency: float, concurrency: int, executor: Executor | None, label: str
) -> Run:
    specs = [
        TaskSpec(
            task=f"Find the price of the {PRODUCTS[i % len(PRODUCTS)].name} in the demo shop",
            start_url=site_url,
        )
        for i in range(tasks)
    ]
    start, cpu_start, load = time.perf_counter(), _cpu_seconds(), os.getloadavg()[0]
    with PeakMemory() as memory:
        histories = await run_many(
            specs,
            llm=ScriptedChatModel(policy=price_policy, latency_s=latency),
            concurrency=concurrency,
            browser=BrowserConfig(block_external_network=True),
            options=BatchOptions(max_steps=6),
            executor=executor,
        )
    seconds = time.perf_counter() - start
    succeeded = sum(bool(h.is_successful()) and h.error is None for h in histories)
    cpu = None if executor is not None else _cpu_seconds() - cpu_start  # Ray's workers are not reaped yet
    return Run(label, concurrency, seconds, memory.peak_mb, succeeded, tasks, cpu, load)


def _ray_executor() -> RayExecutor:
    import ray  # optional: only the Ray row needs it

    started = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _node_ip_address="127.0.0.1")
    print(f"(ray.init took {time.perf_counter() - started:.1f} s; not counted below)")
    return RayExecutor(actors=2, max_restarts=1, max_task_retries=1)


def _print(runs: Sequence[Run]) -> None:
    base = runs[0]
    print(
        f"\n{'run':<14}{'conc':>5}{'seconds':>9}{'tasks/min':>11}{'speed-up':>10}{'peak MB':>9}"
        f"{'CPU s/task':>12}{'load':>6}{'ok':>7}"
    )
    for run in runs:
        speedup = run.per_minute / base.per_minute
        cpu = f"{run.cpu_s / run.tasks:.2f}" if run.cpu_s is not None else "-"
        print(
            f"{run.label:<14}{run.concurrency:>5}{run.seconds:>9.1f}{run.per_minute:>11.1f}"
            f"{speedup:>9.1f}x{run.peak_mb:>9.0f}{cpu:>12}{run.load:>6.1f}{run.succeeded:>4}/{run.tasks}"
        )
    local = [r for r in runs if r.label == "run_many"]
    if len(local) > 1:
        first, last = local[0], local[-1]
        extra = (last.peak_mb - first.peak_mb) / (last.concurrency - first.concurrency)
        print(
            f"memory per extra agent: {extra:.0f} MB (concurrency {first.concurrency} -> {last.concurrency})"
        )


async def main(tasks: int, latency: float, levels: list[int], ray: bool) -> None:
    runs = []
    with DemoSite(seed=3) as site:
        for level in levels:
            runs.append(await run_level(site.url, tasks, latency, level, None, "run_many"))
            print(f"run_many concurrency {level}: {runs[-1].seconds:.1f} s", flush=True)
        if ray:
            level = 8 if 8 in levels else levels[-1]
            runs.append(await run_level(site.url, tasks, latency, level, _ray_executor(), "ray (2 actors)"))
    _print(runs)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tasks", type=int, default=40)
    parser.add_argument("--latency", type=float, default=1.0, help="seconds per model call")
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 2, 4, 8, 16])
    parser.add_argument("--no-ray", action="store_true", help="skip the Ray row")
    cli = parser.parse_args()
    asyncio.run(main(cli.tasks, cli.latency, cli.levels, not cli.no_ray))
