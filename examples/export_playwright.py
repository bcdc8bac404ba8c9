"""Record once, then run without the model: export a run to a plain Playwright script and run that.

    python examples/export_playwright.py                                          # offline: a scripted model
    BROWSER_AGENT_MODEL=openai:gpt-4o-mini python examples/export_playwright.py   # a real model records it

The agent subscribes to a newsletter on a page the example serves on 127.0.0.1 (the password is a
secret: the model only sees <secret>pw</secret>). The run is exported with ``export_history`` (the
same as ``browser-agent export run.json --to playwright -o subscribe.py``), and the script is run with
plain ``python``: another address comes from its input variable, the password from BA_SECRET_PW.
The script launches Playwright's own Chromium (``python -m playwright install chromium``), or the one
BA_CHROMIUM names.
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from langchain_core.messages import BaseMessage

from browser_agent import Agent, BrowserAgentError, BrowserConfig, export_history
from browser_agent.models import chat_model_from_env
from browser_agent.testing import PageServer, ScriptedChatModel

SIGN_UP = """<!doctype html><title>Newsletter</title><h1>Newsletter</h1>
<form action="/thanks.html"><label>Email <input name="email" type="email"></label>
<label>Password <input name="pw" type="password"></label>
<label>Topic <select name="topic"><option>Kitchen</option><option>Garden</option></select></label>
<button>Subscribe</button></form>"""
THANKS = """<!doctype html><title>Subscribed</title><h1>Subscribed</h1><p id="who"></p>
<script>const q = new URLSearchParams(location.search);
document.getElementById("who").textContent =
  "Thanks, " + q.get("email") + " (" + q.get("topic") + ")!";</script>"""


def reply(goal: str, *actions: dict[str, Any]) -> dict[str, Any]:
    brain = {"evaluation_previous_goal": "Success", "memory": goal, "next_goal": goal}
    return {"current_state": brain, "action": list(actions)}


def scripted(messages: list[BaseMessage]) -> dict[str, Any]:
    """Fill the form (the password as its placeholder), subscribe, report the page's thanks."""
    state = str(messages[-1].content)
    thanks = re.search(r"Thanks, .*!", state)
    if thanks:
        return reply("report", {"action": "done", "text": thanks.group(0), "success": True})
    email, password = (int(n) for n in re.findall(r"\[(\d+)\]<input", state)[:2])
    topic = int(re.findall(r"\[(\d+)\]<select", state)[0])
    button = int(re.findall(r"\[(\d+)\]<button>Subscribe", state)[0])
    return reply(
        "subscribe",
        {"action": "input_text", "index": email, "text": "ada@example.com"},
        {"action": "input_text", "index": password, "text": "<secret>pw</secret>"},
        {"action": "select_dropdown_option", "index": topic, "text": "Garden"},
        {"action": "click_element", "index": button},
    )


async def record(url: str) -> Any:
    llm = chat_model_from_env() or ScriptedChatModel(policy=scripted)
    agent = Agent(
        f"Open {url}, subscribe ada@example.com (password <secret>pw</secret>) to the Garden topic.",
        llm,
        sensitive_data={"pw": "s3cret-Pa55"},
        browser=BrowserConfig(allowed_domains=("http://127.0.0.1:*",)),
    )
    return await agent.run(max_steps=6)


def main() -> int:
    folder = Path(tempfile.mkdtemp())
    with PageServer({"/": SIGN_UP, "/thanks.html": THANKS}) as site:
        history = asyncio.run(record(site.url("/")))
        script = folder / "subscribe.py"
        exported = export_history(history, origin="run.json")
        script.write_text(exported.source)
        print("exported", script.name, "| password in it:", "s3cret-Pa55" in exported.source)
        print(
            *(
                line
                for line in exported.source.splitlines()
                if re.search(r"\.(fill|click|select_option)\(", line)
            ),
            sep="\n",
        )
        env = {**os.environ, "BA_EMAIL": "grace@example.com", "BA_SECRET_PW": "another-Pa55"}
        ran = subprocess.run(
            [sys.executable, str(script)], env=env, capture_output=True, text=True, check=False
        )
        sent = parse_qs(urlsplit(site.requested[-1]).query)
    print("the script ran:", ran.returncode == 0, ran.stderr[-500:])
    print(
        "the page received:",
        sent.get("email"),
        sent.get("topic"),
        "| the new password:",
        sent.get("pw") == ["another-Pa55"],
    )
    return ran.returncode


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrowserAgentError as exc:  # a setup mistake (no API key, no browser): one line, no traceback
        sys.exit(f"export_playwright: {exc}")
