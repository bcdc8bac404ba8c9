"""Exported scripts that heal (``export --heal``) on the second shop's layouts, renamed since the purchase
was recorded: part of ``benchmarks/heal_bench.py`` (``--export``).

Each script is imported as written and its ``run(page)`` called with Playwright's sync API, in a browser
launched with ``healing_args()``; the plain one with a 2 s locator timeout, the ``--heal`` one with
``BA_HEAL_WAIT_MS=2000``. Judged by the shop's own record of orders.
"""

from __future__ import annotations

import asyncio
import os
import runpy
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, sync_playwright

from browser_agent.agent import Agent, AgentSettings
from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.browser.chromium import find_chromium
from browser_agent.export import export_history
from browser_agent.record import AgentHistory
from browser_agent.script_healing import healing_args, use_model
from browser_agent.testing import ScriptedChatModel
from tests.support.healer import healer
from tests.support.second_shop import SecondShop
from tests.support.second_shop_policy import SHOP_TASK, ShopPolicy

FENCE = ("http://127.0.0.1:*",)
EXPECTED = [("Blue Ceramic Mug", 2, "Norway", "Express")]


async def _record() -> AgentHistory:
    with SecondShop("canonical") as shop:
        async with BrowserSession(
            BrowserConfig(allowed_domains=FENCE, block_external_network=True)
        ) as session:
            llm = ScriptedChatModel(policy=ShopPolicy(shop.url))
            settings = AgentSettings(tool_calling_method="function_calling")
            return await Agent(SHOP_TASK, llm, browser=session, settings=settings).run(max_steps=20)


def _verdict(run: Any, browser: Browser, layout: str, renames: dict[str, str]) -> tuple[str, float]:
    with SecondShop(layout, renames=renames) as shop:
        context = browser.new_context()
        page = context.new_page()
        context.set_default_timeout(2000)
        started = time.perf_counter()
        try:
            run(page, base_url=shop.url)
        except Exception:  # a stop: Playwright's error, or the healing's note on it
            pass
        finally:
            elapsed = time.perf_counter() - started
            context.close()
        bought = [(o.product, o.quantity, o.country, o.shipping) for o in shop.orders]
    verdict = "stopped" if not bought else "correct" if bought == EXPECTED else "wrong"
    return verdict, elapsed


def export_figures(
    layouts: Sequence[str], renamings: Sequence[dict[str, str]], *, verbose: bool = False
) -> dict[str, Any]:
    """Plain and ``--heal`` scripts on every layout and renaming: counts, and the median heal run."""
    history = asyncio.run(_record())
    folder = Path(tempfile.mkdtemp(prefix="heal-export-"))
    (folder / "plain.py").write_text(export_history(history).source)
    (folder / "healing.py").write_text(export_history(history, heal=True).source)
    plain = runpy.run_path(str(folder / "plain.py"))["run"]
    healing = runpy.run_path(str(folder / "healing.py"))["run"]
    os.environ["BA_HEAL_WAIT_MS"] = "2000"
    counts: Counter[str] = Counter()
    seconds: list[float] = []
    with sync_playwright() as playwright:
        chromium = find_chromium().path
        browser = playwright.chromium.launch(
            executable_path=str(chromium) if chromium else None, args=healing_args()
        )
        try:
            for layout in layouts:
                for renames in renamings:
                    use_model(healer(renames))
                    before, _ = _verdict(plain, browser, layout, renames)
                    after, took = (
                        _verdict(healing, browser, layout, renames) if before == "stopped" else ("-", 0.0)
                    )
                    counts[f"plain_{before}"] += 1
                    if before == "stopped":
                        counts[f"healed_{after}"] += 1
                        seconds.append(took)
                    if verbose:
                        print(f"{layout} {renames}: plain {before}, --heal {after}")
        finally:
            browser.close()
    seconds.sort()
    median = seconds[len(seconds) // 2] if seconds else 0.0
    return {
        "export_cases": sum(counts[k] for k in counts if k.startswith("plain_")),
        **counts,
        "median_heal_run_s": round(median, 2),
    }
