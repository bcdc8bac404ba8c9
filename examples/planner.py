"""A planner model looks at the run every few steps; its plan goes into the next step's request.

    python examples/planner.py                                           # offline: scripted models
    BROWSER_AGENT_MODEL=openai:gpt-4o-mini python examples/planner.py    # a real model plans and acts
    (BROWSER_AGENT_BASE_URL=http://127.0.0.1:8088/v1 with BROWSER_AGENT_MODEL=openai:local: a local server)

Three pages served by the example on 127.0.0.1 lead, one "Next page" link at a time, to a code.
"""

from __future__ import annotations

import asyncio
import re
import sys
from typing import Any

from langchain_core.messages import BaseMessage

from browser_agent import Agent, AgentSettings, BrowserAgentError, BrowserConfig
from browser_agent.models import chat_model_from_env
from browser_agent.testing import PageServer, ScriptedChatModel


def page(number: int) -> str:
    body = f'<a href="/{number + 1}.html">Next page</a>' if number < 3 else "<p>The code is 7-4-1.</p>"
    return f"<!doctype html><title>Page {number}</title><h1>Page {number} of 3</h1>{body}"


def reply(goal: str, action: dict[str, Any]) -> dict[str, Any]:
    """A model's answer: where it stands, then the action to run."""
    brain = {"evaluation_previous_goal": "Success", "memory": goal, "next_goal": goal}
    return {"current_state": brain, "action": [action]}


def scripted_agent(messages: list[BaseMessage]) -> dict[str, Any]:
    """Follow "Next page" until the code shows, then report it (reading the page, as a model would)."""
    state = str(messages[-1].content)
    code = re.search(r"The code is ([\d-]+)", state)
    if code:
        return reply("report the code", {"action": "done", "text": code.group(1), "success": True})
    link = re.search(r"\[(\d+)\]<a>Next page", state)
    assert link, "no Next page link on this page"
    return reply("go to the next page", {"action": "click_element", "index": int(link.group(1))})


def scripted_planner(messages: list[BaseMessage]) -> str:
    """A plan in the words a planner uses: where the run stands and what comes next."""
    seen = re.findall(r"Page (\d) of 3", str(messages[-1].content))
    where = f"on page {seen[-1]} of 3" if seen else "not on the pages yet"
    return f"State: {where}.\nNext steps: follow Next page to page 3 and report its code."


async def main() -> int:
    real = chat_model_from_env()
    llm = real or ScriptedChatModel(policy=scripted_agent)
    planner = real or ScriptedChatModel(policy=scripted_planner)
    with PageServer({f"/{n}.html": page(n) for n in (1, 2, 3)}) as site:
        agent = Agent(
            f"Open {site.url('/1.html')}, follow the Next page links to the last page and report its code.",
            llm,
            browser=BrowserConfig(allowed_domains=("http://127.0.0.1:*",)),
            settings=AgentSettings(planner_llm=planner, planner_interval=2),  # a plan after every 2 steps
        )
        history = await agent.run(max_steps=8)
    for step in history.steps:
        if step.plan:
            print(f"plan before step {step.step}: {step.plan!r}")
    print("result:", history.final_result())
    return 0 if history.is_successful() else 1


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except BrowserAgentError as exc:  # a setup mistake (no API key, no browser): one line, no traceback
        sys.exit(f"planner: {exc}")
