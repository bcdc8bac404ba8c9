"""A page and a scripted model for the UI's tests: a field at a known place, a button only a person
clicks, and a policy that types a secret, then waits (varying its wait, so no loop is seen) until the
page says the person clicked, then finishes."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from langchain_core.messages import BaseMessage

from browser_agent.agent.conversation import page_of_state
from browser_agent.testing import find_index

SECRET = "hunter2-very-secret"
FIELD_BOX = (40, 120, 300, 40)  # x, y, width, height in the viewport
HUMAN_BOX = (400, 200, 240, 60)

FORM_PAGE = f"""<!doctype html><html><body style="margin:0;font:16px sans-serif">
<h1 style="margin:20px 40px">Profile</h1>
<input aria-label="Nickname" style="position:absolute;left:{FIELD_BOX[0]}px;top:{FIELD_BOX[1]}px;
  width:{FIELD_BOX[2]}px;height:{FIELD_BOX[3]}px;box-sizing:border-box;font-size:20px">
<button id="human" style="position:absolute;left:{HUMAN_BOX[0]}px;top:{HUMAN_BOX[1]}px;
  width:{HUMAN_BOX[2]}px;height:{HUMAN_BOX[3]}px" onclick="this.textContent='clicked by a person'">
  Only a person clicks this</button>
<p style="position:absolute;left:40px;top:300px">Ticks: <span id="tick">0</span></p>
<script>let ticks = 0;
setInterval(() => {{ document.getElementById('tick').textContent = ++ticks; }}, 50);</script>
</body></html>"""


def _state(messages: list[BaseMessage]) -> str:
    for message in reversed(messages):
        text = message.content if isinstance(message.content, str) else json.dumps(message.content)
        if "Current URL:" in text:
            return text
    raise AssertionError("no state message")


def reply(goal: str, *actions: dict[str, Any]) -> dict[str, Any]:
    brain = {"evaluation_previous_goal": "ok", "memory": goal, "next_goal": goal}
    return {"current_state": brain, "action": list(actions)}


def takeover_policy(type_secret: bool = True) -> Callable[[list[BaseMessage]], dict[str, Any]]:
    """Type the secret, then wait until the person has clicked the button, then finish."""
    waits = iter(range(1, 10_000))

    def policy(messages: list[BaseMessage]) -> dict[str, Any]:
        page = page_of_state(_state(messages))
        if "clicked by a person" in page:
            return reply("finish", {"action": "done", "text": "The person clicked it", "success": True})
        nickname = find_index(page, "input", "Nickname")
        if type_secret and SECRET not in page and "<secret>pw</secret>" not in page:
            return reply(
                "type the nickname",
                {"action": "input_text", "index": nickname, "text": "<secret>pw</secret>"},
            )
        return reply("wait for the person", {"action": "wait", "seconds": 0.2 + next(waits) / 1000})

    return policy


def ask_policy() -> Callable[[list[BaseMessage]], dict[str, Any]]:
    """Ask the person a question, then finish with their answer."""

    def policy(messages: list[BaseMessage]) -> dict[str, Any]:
        log = "\n".join(str(m.content) for m in messages)
        if "The person answered:" in log:
            answer = log.split("The person answered:")[1].split("|")[0].split("\n")[0].strip()
            return reply("finish", {"action": "done", "text": f"Colour: {answer}", "success": True})
        return reply("ask", {"action": "ask_human", "question": "Which colour do you want?"})

    return policy
