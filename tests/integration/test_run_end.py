"""The end of a run and its controls: the page after the last action is kept (masked) and reported, and
pause and stop land within a second while a slow model is asked (the call under way is cancelled).
Real Chromium, a local page, the scripted model with a latency."""

from __future__ import annotations

import asyncio
import base64
import io
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from PIL import Image

from browser_agent import Agent, AgentHistory, AgentSettings, BrowserSession
from browser_agent.agent import AgentHooks
from browser_agent.agent.conversation import page_of_state
from browser_agent.output.html import render_html
from browser_agent.record import StepScreenshot
from browser_agent.testing import PageServer, ScriptedChatModel, find_index

pytestmark = pytest.mark.timeout(90)

SECRET = "hunter2-end-secret"
PANEL = (40, 200, 400, 200)  # x, y, width, height: black once the button is clicked
PAGE = f"""<!doctype html><html><body style="margin:0;font:16px sans-serif;background:#fff">
<input aria-label="Nickname" style="position:absolute;left:40px;top:60px;width:300px;height:40px">
<button style="position:absolute;left:40px;top:130px"
  onclick="document.getElementById('panel').style.background = '#000'">Darken</button>
<div id="panel" style="position:absolute;left:{PANEL[0]}px;top:{PANEL[1]}px;width:{PANEL[2]}px;
  height:{PANEL[3]}px;background:#fff"></div>
</body></html>"""
SLOW_S = 30.0  # the model's latency: pause and stop must not wait for it
PROMPT_S = 1.5  # how soon they must land


@pytest.fixture
def site() -> Iterator[PageServer]:
    with PageServer({"/page.html": PAGE}) as pages:
        yield pages


def _brain(goal: str) -> dict[str, str]:
    return {"evaluation_previous_goal": "ok", "memory": goal, "next_goal": goal}


def _click_and_finish(messages: list[BaseMessage]) -> dict[str, Any]:
    """Type the secret and click Darken; then, in one step, nothing more but done."""
    state = str(messages[-1].content)
    page = page_of_state(state)
    if "<secret>pw</secret>" not in page:
        field = find_index(page, "input", "Nickname")
        button = find_index(page, "button", "Darken")
        typed = {"action": "input_text", "index": field, "text": "<secret>pw</secret>"}
        return {
            "current_state": _brain("type, darken"),
            "action": [typed, {"action": "click_element", "index": button}],
        }
    return {
        "current_state": _brain("report"),
        "action": [{"action": "done", "text": "dark", "success": True}],
    }


def _gray(shot: StepScreenshot, box: tuple[float, float, float, float]) -> float:
    """The mean brightness (0-255) inside ``box`` (CSS pixels) of ``shot``."""
    picture = Image.open(io.BytesIO(base64.b64decode(shot.jpeg_b64))).convert("L")
    scale = picture.width / shot.width
    x, y, w, h = (round(v * scale) for v in box)
    inner = picture.crop((x + 6, y + 6, x + w - 6, y + h - 6))
    return sum(i * n for i, n in enumerate(inner.histogram())) / (inner.width * inner.height)


async def test_the_page_after_the_last_action_is_kept_masked_and_in_the_report(
    session: BrowserSession, site: PageServer
) -> None:
    llm = ScriptedChatModel(policy=_click_and_finish)
    settings = AgentSettings(
        record_screenshots=True, initial_actions=[{"action": "go_to_url", "url": site.url("/page.html")}]
    )
    agent = Agent("Darken the panel", llm, browser=session, settings=settings, sensitive_data={"pw": SECRET})
    history = await agent.run(max_steps=3)
    assert history.is_done() and history.final_screenshot is not None
    assert await session.page.input_value("input") == SECRET
    before = history.steps[1].screenshot  # the page the click was decided on: the panel still white
    assert before is not None and _gray(before, PANEL) > 200
    after = history.final_screenshot
    assert _gray(after, PANEL) < 60, "the page after the last action: the panel the click darkened"
    assert _gray(after, (40, 60, 300, 40)) < 60, "the secret in the field is blacked out"
    report = render_html(history)
    assert report.count("<img") == sum(s.screenshot is not None for s in history.steps) + 1
    assert "After the last action" in report.split("<section")[-1], "the last picture comes last"

    await session.navigate("about:blank")
    plain = Agent(
        "Darken the panel",
        ScriptedChatModel(policy=_click_and_finish),
        browser=session,
        settings=settings.model_copy(update={"record_screenshots": False}),
        sensitive_data={"pw": SECRET},
    )
    unrecorded = await plain.run(max_steps=3)
    assert unrecorded.is_done() and unrecorded.final_screenshot is None, "no screenshots: no last picture"
    assert "final_screenshot" not in unrecorded.model_dump_json()


def _waiting_policy(messages: list[BaseMessage]) -> dict[str, Any]:
    return {
        "current_state": _brain("finish"),
        "action": [{"action": "done", "text": "answered", "success": True}],
    }


async def _asked(phases: list[tuple[int, str]], number: int) -> None:
    async with asyncio.timeout(30):
        while (number, "decide") not in phases:
            await asyncio.sleep(0.02)
    await asyncio.sleep(0.2)  # the call is under way


async def test_pause_cancels_the_model_call_under_way_and_resume_asks_again(
    session: BrowserSession, site: PageServer
) -> None:
    llm = ScriptedChatModel(policy=_waiting_policy, latency_s=SLOW_S)
    phases: list[tuple[int, str]] = []
    halted: list[tuple[int, str, float]] = []
    hooks = AgentHooks(
        on_step_phase=lambda _a, number, phase: phases.append((number, phase)),
        on_step_halted=lambda _a, number, message: halted.append((number, message, time.monotonic())),
    )
    settings = AgentSettings(initial_actions=[{"action": "go_to_url", "url": site.url("/page.html")}])
    agent = Agent("Answer", llm, browser=session, settings=settings, hooks=hooks)
    run = asyncio.create_task(agent.run(max_steps=3))
    await _asked(phases, 1)
    paused_at = time.monotonic()
    agent.pause()
    async with asyncio.timeout(PROMPT_S):
        while not halted:
            await asyncio.sleep(0.02)
    [(number, message, when)] = halted
    assert number == 1 and "the model call under way was cancelled" in message
    assert when - paused_at < PROMPT_S
    assert agent.paused and [s.step for s in agent.history.steps] == [0], "the halted step is not recorded"
    await asyncio.sleep(0.3)
    assert phases.count((1, "decide")) == 1, "paused: the model is not asked again"

    llm.latency_s = 0.0
    agent.resume()
    history = await asyncio.wait_for(run, 20)
    assert history.end_reason == "done" and [s.step for s in history.steps] == [0, 1]
    assert phases.count((1, "observe")) == 2, "on resume the step read the page again and asked again"
    assert history.model_steps() == 1 and len(llm.calls) == 1


async def test_stop_cancels_the_model_call_under_way_and_saves_the_run(
    session: BrowserSession, site: PageServer, tmp_path: Path
) -> None:
    llm = ScriptedChatModel(policy=_waiting_policy, latency_s=SLOW_S)
    phases: list[tuple[int, str]] = []
    path = tmp_path / "stopped.json"
    settings = AgentSettings(
        initial_actions=[{"action": "go_to_url", "url": site.url("/page.html")}],
        save_history_path=path,
        record_screenshots=True,
    )
    hooks = AgentHooks(on_step_phase=lambda _a, number, phase: phases.append((number, phase)))
    agent = Agent("Answer", llm, browser=session, settings=settings, hooks=hooks)
    run = asyncio.create_task(agent.run(max_steps=3))
    await _asked(phases, 1)
    stopped_at = time.monotonic()
    agent.stop()
    history = await asyncio.wait_for(run, PROMPT_S)
    assert time.monotonic() - stopped_at < PROMPT_S
    assert history.end_reason == "stopped" and [s.step for s in history.steps] == [0, 1]
    assert "the model call under way was cancelled" in (history.steps[-1].error or "")
    assert history.final_screenshot is not None, "a stopped run keeps the page it was left on"
    assert AgentHistory.load(path) == history
