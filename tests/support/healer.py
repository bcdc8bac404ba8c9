"""A scripted model standing in for a real one where a replay hands it a step: on a shop that renamed
things, it reads which element the replay looked for (in the request's words), finds what that was
renamed to, and does the recorded action on the element that says the new words."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from langchain_core.messages import BaseMessage

from browser_agent.testing import ScriptedChatModel, find_index

__all__ = ["RENAMES", "heal_policy", "healer", "words"]

RENAMES: tuple[dict[str, str], ...] = (
    {"Add to cart": "Add to basket"},
    {">Checkout</a>": ">Proceed to payment</a>"},
    {"Place order": "Buy now"},
    {"Blue ceramic mug": "Blue stoneware mug"},
    {"Full name <input": "Your name <input"},
    {"Email <input": "E-mail address <input"},
    {"Quantity <input": "How many <input"},
    {"Add to cart": "Put in basket", "Place order": "Confirm purchase"},
    {">Checkout</a>": ">Pay</a>", "Email <input": "Your e-mail <input"},
    {"Blue ceramic mug": "Mug, blue", "Add to cart": "Add"},
)
"""Shops that renamed things since the demo purchase was recorded (``DemoSite(renames=...)``)."""

_TAGS = ("button", "a", "input", "select")


def words(markup: str) -> str:
    """The words of an HTML fragment, lower case: ``'>Checkout</a>'`` → ``'checkout'``."""
    return " ".join(re.sub(r"<[^>]*>?|[<>]", " ", markup).lower().split())


def healer(renames: Mapping[str, str]) -> ScriptedChatModel:
    """A model that heals the steps whose element was renamed by ``renames`` (and no other)."""
    return ScriptedChatModel(policy=heal_policy(renames))


def heal_policy(renames: Mapping[str, str]) -> Callable[[list[BaseMessage]], dict[str, Any]]:
    """The policy of ``healer``: what it answers to the messages a healing sends."""

    def policy(messages: list[BaseMessage]) -> dict[str, Any]:
        text = str(messages[-1].content)
        recorded = json.loads(text.split("Recorded action: ", 1)[1].split("\n", 1)[0])
        why = text.split("Why it needs you:", 1)[1].split("\n", 1)[0].lower()
        page = text.split("Page:", 1)[1]
        brain = {"evaluation_previous_goal": "Unknown", "memory": "-", "next_goal": "heal the step"}
        for old, new in renames.items():
            if words(old) in why:
                try:
                    recorded["index"] = _index(page, words(new))
                except LookupError:  # not on this screen: look further down, as a model would
                    return {"current_state": brain, "action": [{"action": "scroll", "direction": "down"}]}
                return {"current_state": brain, "action": [recorded]}
        raise LookupError(f"the healer knows no rename for: {why}")

    return policy


def _index(page: str, needle: str) -> int:
    for tag in _TAGS:
        try:
            return find_index(page, tag, needle)
        except LookupError:
            continue
    raise LookupError(f"no element says {needle!r}")
