"""Live view: watch an agent work in your browser, pause it, take over, and answer its questions.

    python examples/live_view.py                                             # offline: a slow scripted model
    BROWSER_AGENT_MODEL=openai:gpt-4o-mini python examples/live_view.py      # a real one (OPENAI_API_KEY)

Open the address it prints (it holds a one-time token): the agent's tab streams live, each step shows
up as it happens, and Pause / Resume / Stop act on the run; while paused, clicks and typing in the view
go to the agent's tab. ``live.controller()`` offers the model an ``ask_human`` action whose question
appears in the page. Needs the UI's extra: ``pip install 'pw-browser-agent[ui]'``.
"""

from __future__ import annotations

import asyncio
import re
import sys
from typing import Any

from langchain_core.messages import BaseMessage

from browser_agent import Agent, BrowserAgentError, BrowserConfig
from browser_agent.models import chat_model_from_env
from browser_agent.testing import PageServer, ScriptedChatModel
from browser_agent.ui import LiveServer

SHOP = """<!doctype html><html><head><title>Mug shop</title></head><body><h1>Mugs</h1>
<a href="/red.html">Red mug</a> · <a href="/blue.html">Blue mug</a></body></html>"""
PAGES = {
    "/": SHOP,
    "/red.html": "<h1>Red mug</h1><p>9.90 EUR</p><a href='/'>Back</a>",
    "/blue.html": "<h1>Blue mug</h1><p>12.50 EUR</p><a href='/'>Back</a>",
}


def scripted(messages: list[BaseMessage]) -> dict[str, Any]:
    """What a model would do: open the blue mug's page, then report its price."""
    page = str(messages[-1].content)
    price = re.search(r"Blue mug\s+(\d+\.\d\d EUR)", page)
    link = re.search(r"\[(\d+)\]<a[^>]*>Blue mug", page)
    if price:
        brain = {"evaluation_previous_goal": "Success", "memory": price.group(1), "next_goal": "report"}
        done = {"action": "done", "text": f"The blue mug costs {price.group(1)}.", "success": True}
        return {"current_state": brain, "action": [done]}
    brain = {"evaluation_previous_goal": "Success", "memory": "on the shop", "next_goal": "open the blue mug"}
    click = {"action": "click_element", "index": int(link.group(1))} if link else {"action": "go_back"}
    return {"current_state": brain, "action": [click]}


async def main() -> int:
    llm = chat_model_from_env() or ScriptedChatModel(policy=scripted, latency_s=2.0)
    with PageServer(PAGES) as site:
        async with LiveServer() as live:
            print(f"Watch the run at {live.url}", flush=True)
            agent = Agent(
                f"Open {site.url('/')} and find the price of the blue mug.",
                llm,
                browser=BrowserConfig(allowed_domains=("http://127.0.0.1:*",)),
                controller=live.controller(),  # adds ask_human, answered in the page
                hooks=live.hooks(),  # the timeline, the controls and the live view
            )
            history = await agent.run(max_steps=10)
            print(f"Result: {history.final_result()}")
            if sys.stdin.isatty():  # keep the page up to look back at the timeline
                await asyncio.to_thread(input, "Press Enter to close the UI. ")
    return 0 if history.is_successful() else 1


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except BrowserAgentError as exc:  # a setup mistake (no API key, no browser, no [ui] extra): one line
        sys.exit(f"live_view: {exc}")
