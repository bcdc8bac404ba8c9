"""A custom action registered with ``export=`` and ``inputs=`` is exported as its renderer says and its
parameter is a workflow input: recorded once with the scripted model on a local page, the exported script
and the workflow then book another city than the recorded one."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from pydantic import BaseModel

from browser_agent import Agent, BrowserSession
from browser_agent.action_specs import Script
from browser_agent.agent.conversation import page_of_state
from browser_agent.browser.chromium import find_chromium
from browser_agent.controller import ActionContext, Controller
from browser_agent.export import export_history
from browser_agent.testing import PageServer, ScriptedChatModel, find_index
from browser_agent.workflow import make_workflow, run_workflow

TRAVEL = {
    "/": """<!doctype html><h1>Trips</h1>
<label>Destination <input id=city></label> <button type=button id=book>Book</button>
<p id=out role=status></p>
<script>document.getElementById('book').onclick = async () => {
  const city = document.getElementById('city').value;
  await fetch('/booked?city=' + encodeURIComponent(city));
  document.getElementById('out').textContent = 'Booked ' + city;
};</script>""",
    "/booked": "ok",
}
DRIVER = """import runpy, sys
from playwright.sync_api import sync_playwright
script = runpy.run_path(sys.argv[1])
with sync_playwright() as p:
    browser = p.chromium.launch(executable_path=sys.argv[2] or None)
    page = browser.new_page()
    script["run"](page)
    page.get_by_text("Booked").wait_for()
    browser.close()
"""


def _fill_destination(params: BaseModel, script: Script) -> list[str]:
    """How a script does what ``choose_destination`` did: fill the element with the city."""
    return script.on_element(f"fill({script.value('city')})")


def _controller() -> Controller:
    controller = Controller()

    @controller.action("Choose the trip's destination", export=_fill_destination, inputs={"city": "typed"})
    async def choose_destination(index: int, city: str, ctx: ActionContext) -> str:
        _, handle = await ctx.element(index)
        await handle.fill(city)
        return f"Chose {city}"

    return controller


def _policy(url: str) -> Any:
    def policy(messages: list[BaseMessage]) -> dict[str, Any]:
        state = next(str(m.content) for m in reversed(messages) if "Current URL:" in str(m.content))
        page = page_of_state(state)
        brain = {"evaluation_previous_goal": "ok", "memory": "", "next_goal": "book"}
        if "Booked" in page:
            actions: list[dict[str, Any]] = [{"action": "done", "text": "Booked Lisbon", "success": True}]
        elif "Destination" in page:
            actions = [
                {
                    "action": "choose_destination",
                    "index": find_index(page, "input", "Destination"),
                    "city": "Lisbon",
                },
                {"action": "click_element", "index": find_index(page, "button", "Book")},
            ]
        else:
            actions = [{"action": "go_to_url", "url": url}]
        return {"current_state": brain, "action": actions}

    return policy


@pytest.mark.timeout(240)  # a run, a Chromium in a subprocess, and a workflow run
async def test_a_custom_action_exports_as_its_renderer_says_and_its_city_is_an_input(
    session: BrowserSession, tmp_path: Path
) -> None:
    controller = _controller()
    with PageServer(TRAVEL) as site:
        llm = ScriptedChatModel(policy=_policy(site.url("/")))
        history = await Agent("Book a trip to 'Lisbon'", llm, browser=session, controller=controller).run(
            max_steps=5
        )
        assert history.is_done() and site.requested[-1].endswith("city=Lisbon")

        script = export_history(history)
        assert not script.warnings, script.warnings
        assert (
            'page.get_by_role("textbox", name=re.compile("^destination$", re.IGNORECASE)).fill(destination)'
            in (script.source)
        )
        assert 'DESTINATION = os.environ.get("BA_DESTINATION", "Lisbon")' in script.source
        path = tmp_path / "trip.py"
        path.write_text(script.source)
        driver = tmp_path / "driver.py"
        driver.write_text(DRIVER)
        chromium = find_chromium().path
        done = subprocess.run(
            [sys.executable, str(driver), str(path), str(chromium or "")],
            env={**os.environ, "BA_BASE_URL": site.url("/"), "BA_DESTINATION": "Oslo"},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        assert site.requested[-1].endswith("city=Oslo")

        workflow = make_workflow(history)
        assert workflow.input("destination").default == "Lisbon"
        assert workflow.input("destination").source == "typed"
        report = await run_workflow(workflow, session, {"destination": "Porto"}, controller=controller)
        assert report.ok, report
        assert site.requested[-1].endswith("city=Porto")
