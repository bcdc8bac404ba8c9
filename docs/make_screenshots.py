"""Make docs/report.png: the HTML report of a real run, as a browser shows it.

The run is the demo's recorded purchase, done again live on the bundled shop (127.0.0.1) by the demo's
scripted policy in place of a model, with screenshots recorded; its report is saved and opened in
Chromium, and the top of the page is captured. No network, no API key.

    .venv/bin/python docs/make_screenshots.py
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from playwright.async_api import async_playwright

from browser_agent import Agent, AgentSettings, BrowserConfig, save_report
from browser_agent.browser.chromium import chromium_args, find_chromium
from browser_agent.demo.policy import DemoPolicy
from browser_agent.demo.walkthrough import TASK
from browser_agent.demo.site import DemoSite
from browser_agent.testing import ScriptedChatModel

OUT = Path(__file__).with_name("report.png")


async def main() -> None:
    with DemoSite(seed=3) as site:
        agent = Agent(
            f"{TASK} The shop is at {site.url}",
            ScriptedChatModel(policy=DemoPolicy(site.url)),
            browser=BrowserConfig(block_external_network=True),
            settings=AgentSettings(record_screenshots=True),
        )
        history = await agent.run(max_steps=12)
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "run.html"
        save_report(history, report)
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(
                executable_path=str(find_chromium().path), args=chromium_args(())
            )
            page = await browser.new_page(viewport={"width": 1280, "height": 900})
            await page.goto(report.as_uri())
            await page.screenshot(path=str(OUT))
            await browser.close()
    print(f"{OUT} ({OUT.stat().st_size // 1024} KB) from a run of {len(history.steps)} steps")


if __name__ == "__main__":
    asyncio.run(main())
