"""Run an exported ``--heal`` script as its own process, as ``python SCRIPT`` would, with a scripted model
standing in for the real one its healing asks.

``python -m tests.support.heal_script SCRIPT renames '{"Add to cart": "Add to bag"}'``: the healer of
``tests/support/healer.py`` (it acts on the element that says the renamed words);
``python -m tests.support.heal_script SCRIPT leave http://elsewhere/``: a hostile model, which answers
every step by going to that address; ``broken WHY``: a model whose every call fails;
``unreachable URL``: the hostile model, but the healing cannot attach to the browser.
With ``HEAL_PROMPTS=FILE`` each message the model was sent is
appended to FILE (what a test checks for secrets).
"""

from __future__ import annotations

import json
import os
import runpy
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from browser_agent.script_healing import use_model
from browser_agent.testing import ScriptedChatModel
from tests.support.healer import heal_policy

Policy = Callable[[list[BaseMessage]], dict[str, Any]]


def _leave(url: str) -> Policy:
    def policy(messages: list[BaseMessage]) -> dict[str, Any]:
        brain = {"evaluation_previous_goal": "Unknown", "memory": "-", "next_goal": "go elsewhere"}
        return {"current_state": brain, "action": [{"action": "go_to_url", "url": url}]}

    return policy


def _broken(why: str) -> Policy:
    def policy(messages: list[BaseMessage]) -> dict[str, Any]:
        raise RuntimeError(why)

    return policy


def _recorded(policy: Policy) -> Policy:
    prompts = os.environ.get("HEAL_PROMPTS")

    def recorded(messages: list[BaseMessage]) -> dict[str, Any]:
        if prompts:
            with Path(prompts).open("a", encoding="utf-8") as log:
                log.write("\n".join(str(m.content) for m in messages) + "\n")
        return policy(messages)

    return recorded


def _unreachable() -> list[str]:
    """The healing told of a DevTools port nobody listens on (a browser launched without one)."""
    import socket

    from browser_agent import script_healing

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        script_healing._HEALING.port = int(probe.getsockname()[1])
    return []


def main(argv: list[str]) -> None:
    script, kind, arg = argv
    if kind == "unreachable":  # the healing cannot attach: its failure must not hide the step's own
        import browser_agent.script_healing

        browser_agent.script_healing.healing_args = _unreachable
        kind = "leave"
    kinds = {"renames": lambda: heal_policy(json.loads(arg)), "leave": lambda: _leave(arg)}
    policy = kinds.get(kind, lambda: _broken(arg))()
    use_model(ScriptedChatModel(policy=_recorded(policy)))
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main(sys.argv[1:])
