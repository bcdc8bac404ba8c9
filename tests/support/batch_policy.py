"""A scripted model's policy for batch tests: read the visit counter page, visit it again, report.

Tasks start on ``batch/counter.html?n=N[&mode=M]``. The policy is stateless (it reads everything from the
state message), so one model serves many agents at once. ``mode``: ``raise`` makes the model raise;
``hold`` runs that action (the test's controller has it) before visiting again; ``crash_tab`` runs
that action instead, and the policy gives up when the state reports the crash, as a model would.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

from langchain_core.messages import BaseMessage

from browser_agent.testing import find_index


def _state(messages: list[BaseMessage]) -> str:
    for message in reversed(messages):
        if isinstance(message.content, str) and "Current URL:" in message.content:
            return message.content
    raise AssertionError("no state message was sent")


def _reply(goal: str, *actions: dict[str, Any]) -> dict[str, Any]:
    brain = {"evaluation_previous_goal": "Success", "memory": goal, "next_goal": goal}
    return {"current_state": brain, "action": list(actions)}


def counter_policy(messages: list[BaseMessage]) -> dict[str, Any] | BaseException:
    state = _state(messages)
    match = re.search(r"Current URL: (\S+)", state)
    assert match, state
    query = parse_qs(urlsplit(match.group(1)).query)
    n, mode = query.get("n", ["?"])[0], query.get("mode", [""])[0]
    if mode == "raise":
        return RuntimeError(f"the model broke on purpose in task n={n}")
    if crash := re.search(r"tab \d+ crashed", state):
        return _reply(
            "give up", {"action": "done", "text": f"cannot count: {crash.group(0)}", "success": False}
        )
    page = state.split("Page (interactive elements and text):", 1)[-1]
    visits = re.search(r"Visits in this context: (\d+)", page)
    if visits is None:
        return _reply("wait", {"action": "wait", "seconds": 1})
    if visits.group(1) == "1":
        if mode == "crash_tab":
            return _reply("crash", {"action": "crash_tab"})
        first: list[dict[str, Any]] = [{"action": "hold"}] if mode == "hold" else []
        again = {"action": "click_element", "index": find_index(page, "a", "Visit again")}
        return _reply("visit again", *first, again)
    return _reply("report", {"action": "done", "text": f"n={n} visits={visits.group(1)}", "success": True})
