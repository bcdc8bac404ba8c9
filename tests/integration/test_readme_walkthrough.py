"""The README's local-model walkthrough works as written: its page exists, is served the way the README
says, and an agent can do the task it gives (here with a scripted model in place of the local one)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from browser_agent import Agent, BrowserSession
from browser_agent.agent.conversation import page_of_state
from browser_agent.testing import ScriptedChatModel, find_index
from tests.support.server import LocalServer

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "examples" / "site"


def _subscriber(messages: list[BaseMessage]) -> dict[str, Any]:
    page = page_of_state(str(messages[-1].content))
    brain = {"evaluation_previous_goal": "Unknown", "memory": "-", "next_goal": "subscribe"}
    if "Subscribed:" in page:
        shown = re.search(r"Subscribed: \S+", page)
        assert shown is not None
        done = {"action": "done", "text": shown.group(0), "success": True}
        return {"current_state": brain, "action": [done]}
    email = find_index(page, "input", "email")
    button = find_index(page, "button", "Subscribe")
    actions = [
        {"action": "input_text", "index": email, "text": "ada@example.com"},
        {"action": "click_element", "index": button},
    ]
    return {"current_state": brain, "action": actions}


def test_the_readme_names_the_page_and_the_command_that_serves_it() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "--directory examples/site" in readme and "subscribe.html" in readme
    assert (SITE / "subscribe.html").is_file()


async def test_an_agent_subscribes_on_the_walkthrough_page(session: BrowserSession) -> None:
    with LocalServer(SITE) as site:
        task = f"Open {site.url('subscribe.html')} and subscribe ada@example.com"
        history = await Agent(task, ScriptedChatModel(policy=_subscriber), browser=session).run(max_steps=4)
    assert history.is_successful(), history.errors()
    assert history.final_result() == "Subscribed: ada@example.com"
    assert await session.page.text_content("#done") == "Subscribed: ada@example.com"
