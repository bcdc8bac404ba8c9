"""Secrets: the model sees only <secret>email</secret>; the value is typed into the page at action time
and replaced by its placeholder in every prompt, log line and saved history.

    python examples/sensitive_data.py                                          # offline: a scripted model
    BROWSER_AGENT_MODEL=openai:gpt-4o-mini python examples/sensitive_data.py   # a real model
    (BROWSER_AGENT_BASE_URL=http://127.0.0.1:8088/v1 with BROWSER_AGENT_MODEL=openai:local: a local server)

A sign-up form served by the example on 127.0.0.1 thanks the address it was sent.
"""

from __future__ import annotations

import asyncio
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from browser_agent import Agent, AgentSettings, BrowserAgentError, BrowserConfig
from browser_agent.models import chat_model_from_env
from browser_agent.testing import PageServer, ScriptedChatModel

SECRETS = {"email": "ada@example.com"}
SIGN_UP = """<!doctype html><title>Newsletter</title><h1>Newsletter</h1>
<form action="/thanks.html"><label>E-mail <input name="email"></label><button>Subscribe</button></form>"""
THANKS = """<!doctype html><title>Subscribed</title><h1>Subscribed</h1><p id="who"></p>
<script>document.getElementById("who").textContent =
  "Thanks, " + new URLSearchParams(location.search).get("email") + "!";</script>"""


def reply(goal: str, *actions: dict[str, Any]) -> dict[str, Any]:
    brain = {"evaluation_previous_goal": "Success", "memory": goal, "next_goal": goal}
    return {"current_state": brain, "action": list(actions)}


def scripted(messages: list[BaseMessage]) -> dict[str, Any]:
    """Fill the form with the placeholder (a model never knows the value), then report the page's thanks."""
    state = str(messages[-1].content)
    thanks = re.search(r"Thanks, .*!", state)
    if thanks:
        return reply("report", {"action": "done", "text": thanks.group(0), "success": True})
    field = re.search(r"\[(\d+)\]<input", state)
    button = re.search(r"\[(\d+)\]<button>Subscribe", state)
    assert field and button, "the sign-up form is not on this page"
    return reply(
        "subscribe",
        {"action": "input_text", "index": int(field.group(1)), "text": "<secret>email</secret>"},
        {"action": "click_element", "index": int(button.group(1))},
    )


async def main() -> int:
    llm = chat_model_from_env() or ScriptedChatModel(policy=scripted)
    saved = Path(tempfile.mkdtemp()) / "run.json"
    with PageServer({"/": SIGN_UP, "/thanks.html": THANKS}) as site:
        agent = Agent(
            f"Open {site.url('/')}, subscribe with the e-mail <secret>email</secret> and report the answer.",
            llm,
            sensitive_data=SECRETS,
            browser=BrowserConfig(allowed_domains=("http://127.0.0.1:*",)),
            settings=AgentSettings(save_history_path=saved),
        )
        history = await agent.run(max_steps=6)
        sent = any("ada%40example.com" in path for path in site.requested)
    text = saved.read_text()
    print("result:", history.final_result())
    print("the page received the address:", sent)
    leaked = SECRETS["email"] in text or "ada%40example.com" in text  # also as the form's address sent it
    print("secret in saved history:", leaked, "| placeholder in it:", "<secret>email</secret>" in text)
    return 0 if history.is_successful() else 1


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except BrowserAgentError as exc:  # a setup mistake (no API key, no browser): one line, no traceback
        sys.exit(f"sensitive_data: {exc}")
