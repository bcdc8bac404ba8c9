"""Make docs/ui.png: the web UI (``browser-agent ui``) during a run, as a browser shows it.

A ``LiveServer`` with the demo's scripted policy in place of a model (answering after a second, as a
hosted model would) starts the demo purchase on the bundled shop (127.0.0.1) from its form, after a
first, quick run that fills the list of past runs. The UI page is opened in Chromium, the element
marks are switched on, and the page is captured while the model "thinks" in the middle of the run.
No network, no API key.

    .venv/bin/python docs/make_ui_screenshot.py
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from playwright.async_api import Page, async_playwright

from browser_agent import BrowserConfig
from browser_agent.browser.chromium import chromium_args, find_chromium
from browser_agent.demo.policy import TASK, DemoPolicy
from browser_agent.demo.site import DemoSite
from browser_agent.testing import ScriptedChatModel
from browser_agent.ui import LiveServer, RunSetup

OUT = Path(__file__).with_name("ui.png")


async def _start(page: Page, task: str, url: str) -> None:
    await page.fill("#f-task", task)
    await page.fill("#f-url", url)
    await page.fill("#f-domains", "http://127.0.0.1:*")
    await page.fill("#f-steps", "12")
    await page.click("#start")


async def main() -> None:
    latency = [0.0]
    with DemoSite(seed=3) as site, tempfile.TemporaryDirectory() as folder:
        setup = RunSetup(
            model=lambda: ScriptedChatModel(policy=DemoPolicy(site.url), latency_s=latency[0]),
            runs_dir=Path(folder),
            browser=BrowserConfig(block_external_network=True),
            secrets={"card_number": "4111-1111-1111-1111"},
        )
        async with LiveServer(setup=setup, fps=4) as live, async_playwright() as playwright:
            browser = await playwright.chromium.launch(
                executable_path=str(find_chromium().path), args=chromium_args(())
            )
            # bypass_csp: Playwright's waits evaluate their condition, which the UI's policy forbids
            context = await browser.new_context(viewport={"width": 1440, "height": 900}, bypass_csp=True)
            page = await context.new_page()
            await page.goto(live.url)
            await _start(
                page, f"Find the price of the Blue ceramic mug in the demo shop at {site.url}", site.url
            )
            await page.wait_for_selector("#runs tr", timeout=60_000)
            latency[0] = 1.5
            await _start(page, f"{TASK} The shop is at {site.url}", site.url)
            await page.check("#marks-on")
            await page.wait_for_selector("#timeline li[data-step='4'] .phase:text('waiting')", timeout=60_000)
            seen = await page.evaluate("window.browserAgentUi.frames")
            await page.wait_for_function(
                f"window.browserAgentUi.frames > {seen} && window.browserAgentUi.marks"
            )
            await asyncio.sleep(0.3)
            await page.screenshot(path=str(OUT))
            await browser.close()
    print(f"{OUT} ({OUT.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    asyncio.run(main())
