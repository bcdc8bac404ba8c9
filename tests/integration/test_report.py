"""The run report opened in real headless Chromium, the GIF, and secrets kept out of both."""

from __future__ import annotations

import base64
import io
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage
from PIL import Image
from playwright.async_api import Browser

from browser_agent import Agent, AgentSettings, BrowserSession, save_gif, save_report
from browser_agent.testing import ScriptedChatModel, find_index

SECRET = "hunter2-very-secret"
STEPS = 30


def _brain(goal: str) -> dict[str, str]:
    return {"evaluation_previous_goal": "Success", "memory": goal, "next_goal": goal}


def _page(messages: list[BaseMessage]) -> str:
    text = next(str(m.content) for m in reversed(messages) if "Current URL:" in str(m.content))
    return text.split("Page (interactive elements and text):", 1)[-1]


def shop_policy(url: str, steps: int):
    """Open the page, type the secret into two fields, add mugs until the last step, then done."""
    count = 0

    def policy(messages: list[BaseMessage]) -> dict[str, Any]:
        nonlocal count
        count += 1
        page = _page(messages)
        if count == 1:
            return {"current_state": _brain("open"), "action": [{"action": "go_to_url", "url": url}]}
        if count == 2:
            typed = [
                {
                    "action": "input_text",
                    "index": find_index(page, "input", field),
                    "text": "<secret>pw</secret>",
                }
                for field in ("Password", "Company")
            ]
            return {"current_state": _brain("fill the form"), "action": typed}
        if count >= steps:
            return {
                "current_state": _brain("report"),
                "action": [{"action": "done", "text": "Cart filled", "success": True}],
            }
        mug = ("Blue", "Red", "Green")[count % 3]
        click = {"action": "click_element", "index": find_index(page, "button", f"Add {mug} mug")}
        if count == 5:
            click = {"action": "click_element", "index": 999}
        return {"current_state": _brain(f"add the {mug} mug"), "action": [click]}

    return policy


async def _run(session: BrowserSession, server, steps: int):
    llm = ScriptedChatModel(policy=shop_policy(server.url("report/products.html"), steps))
    settings = AgentSettings(record_screenshots=True)
    agent = Agent("Fill the cart", llm, browser=session, settings=settings, sensitive_data={"pw": SECRET})
    return await agent.run(max_steps=steps)


async def test_report_opens_in_chromium_with_every_step_and_image(
    session: BrowserSession, browser: Browser, server, tmp_path: Path
) -> None:
    history = await _run(session, server, STEPS)
    assert history.is_done() and len(history.steps) == STEPS
    path = save_report(history, tmp_path / "run.html")

    size = path.stat().st_size
    assert size < 5_000_000, f"a {STEPS}-step report is {size / 1e6:.1f} MB"
    text = path.read_text()
    assert SECRET not in text and "&lt;secret&gt;pw&lt;/secret&gt;" in text
    assert "http://" not in text.replace(server.origin, ""), "no external asset"

    context = await browser.new_context()
    try:
        page = await context.new_page()
        problems: list[str] = []
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        await page.route(
            "**/*",
            lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort(),
        )
        await page.goto(path.as_uri())
        sections = await page.locator("section.step").count()
        images = await page.evaluate(
            "() => [...document.images].map((i) => [i.complete, i.naturalWidth, i.naturalHeight])"
        )
        after = await page.locator("#after").inner_text()
        summary = await page.locator("header").inner_text()
        failed = await page.locator("#step-5 .bad").inner_text()
        outlines = await page.locator("#step-3 svg rect").count()
    finally:
        await context.close()
    assert sections == STEPS
    assert len(images) == STEPS + 1, "each step's picture, and the page after the last action"
    assert all(done and w > 0 and h > 0 for done, w, h in images), images
    assert "After the last action" in after
    assert not problems, problems
    assert "Cart filled" in summary and "yes" in summary and "Tokens (agent)" in summary
    assert "999" in failed
    assert outlines == 2, "the clicked element is outlined on its step's screenshot"


async def test_screenshots_black_out_the_secret_and_gif_has_a_frame_per_step(
    session: BrowserSession, server, tmp_path: Path
) -> None:
    history = await _run(session, server, 4)
    company = session.page.locator("input[placeholder=Company]")
    assert await company.input_value() == SECRET
    box = await company.bounding_box()
    assert box is not None
    for shot in (history.steps[-1].screenshot, history.final_screenshot):
        assert shot is not None and shot.width == 1280
        picture = Image.open(io.BytesIO(base64.b64decode(shot.jpeg_b64))).convert("L")
        inner = picture.crop(
            (
                int(box["x"]) + 20,
                int(box["y"]) + 6,
                int(box["x"] + box["width"]) - 30,
                int(box["y"] + box["height"]) - 6,
            )
        )
        assert inner.getextrema()[1] < 60, "the field showing the secret is blacked out"

    with Image.open(save_gif(history, tmp_path / "run.gif")) as gif:
        assert gif.format == "GIF" and gif.n_frames == 4
