"""A scripted model's replies given in turn, each built from the page the model sees: for agent tests
whose model acts step by step (open, type, press, done)."""

from __future__ import annotations

from collections.abc import Callable

from langchain_core.messages import BaseMessage

from browser_agent.agent.conversation import page_of_state

Policy = Callable[[list[BaseMessage]], dict[str, object]]
Reply = Callable[[str], dict[str, object]]


def step(goal: str, *actions: dict[str, object]) -> dict[str, object]:
    """A reply whose next goal is ``goal`` and whose actions are ``actions``."""
    state = {"evaluation_previous_goal": "Unknown", "memory": "", "next_goal": goal}
    return {"current_state": state, "action": list(actions)}


def in_turn(*replies: Reply) -> Policy:
    """A policy answering with ``replies`` in turn (the last one again after them), each given the page
    it sees."""
    told: list[int] = []

    def policy(messages: list[BaseMessage]) -> dict[str, object]:
        told.append(1)
        return replies[min(len(told), len(replies)) - 1](page_of_state(str(messages[-1].content)))

    return policy
