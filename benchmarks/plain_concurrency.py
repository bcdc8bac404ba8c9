"""The machine's own ceiling: the throughput benchmark's task shape in plain Playwright, no browser_agent.

Each task opens a context and a tab, opens the demo shop, waits 1 s (a model call), clicks a product,
waits 1 s, and closes the context. Prints tasks per minute and CPU-s per task by process kind (from
/proc, sampled every 0.2 s; the sampler is part of ``python``), for comparison with ``throughput.py``.

    .venv/bin/python -m benchmarks.plain_concurrency CONCURRENCY TASKS     # e.g. 1 8, then 8 32
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time

from playwright.async_api import Browser, async_playwright

from benchmarks.tab_cost import CpuLedger
from browser_agent.browser.chromium import chromium_args, find_chromium
from browser_agent.demo.site import DemoSite


class TreeCpu:
    """CPU-s used by this process tree while entered, by process kind, charged every 0.2 s."""

    def __init__(self) -> None:
        self._ledger = CpuLedger()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    @property
    def by_kind(self) -> dict[str, float]:
        return dict(self._ledger.phases["run"])

    def __enter__(self) -> TreeCpu:
        self._ledger.charge("before")
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._ledger.charge("run")

    def _run(self) -> None:
        while not self._stop.wait(0.2):
            self._ledger.charge("run")


async def one_task(browser: Browser, url: str, slots: asyncio.Semaphore) -> None:
    async with slots:
        context = await browser.new_context()
        page = await context.new_page()
        await page.goto(url)
        await asyncio.sleep(1.0)
        await page.locator("a").nth(3).click()
        await page.wait_for_load_state("load")
        await asyncio.sleep(1.0)
        await context.close()


async def main(concurrency: int, tasks: int) -> None:
    with DemoSite() as site:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(
                executable_path=str(find_chromium().path), args=chromium_args(())
            )
            await asyncio.sleep(1)
            slots = asyncio.Semaphore(concurrency)
            with TreeCpu() as cpu:
                start = time.perf_counter()
                await asyncio.gather(*(one_task(browser, site.url, slots) for _ in range(tasks)))
                wall = time.perf_counter() - start
            await browser.close()
    per_kind = {kind: round(used / tasks, 2) for kind, used in cpu.by_kind.items()}
    print(
        f"plain Playwright, concurrency {concurrency}: {tasks} tasks in {wall:.1f} s, "
        f"{tasks / wall * 60:.1f} tasks/min, {sum(cpu.by_kind.values()) / tasks:.2f} CPU-s a task {per_kind}"
    )


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2])))
