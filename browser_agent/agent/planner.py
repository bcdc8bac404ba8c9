"""The optional planner: every few steps a second model reads the run so far and writes a short plan."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage

from browser_agent.agent.conversation import CHARS_PER_TOKEN, Conversation, load_prompt
from browser_agent.llm import RetryPolicy, TokenUsage, ask_text, strip_think

__all__ = ["make_plan"]


async def make_plan(
    planner: BaseChatModel, messages: Conversation, *, use_vision: bool, retry: RetryPolicy
) -> tuple[str, TokenUsage]:
    """Ask ``planner`` for a plan (and what it cost) from the task, the step memos and the last state.

    The last screenshot goes along only with ``use_vision`` (a planner that reads images).
    """
    state = f"\n\nCurrent state:\n{messages.last_state_text}" if messages.last_state_text else ""
    memos = [m.text for m in messages.memos]
    # Within the run's request budget (the model's context): the oldest memos go first.
    room = messages.budget * CHARS_PER_TOKEN - len(messages.task) - len(state) - 200
    while memos and sum(len(m) + 1 for m in memos) > room:
        memos.pop(0)
    left_out = len(messages.memos) - len(memos)
    head = f"Steps so far ({left_out} oldest left out):" if left_out else "Steps so far:"
    steps = "\n".join(memos) or "(no steps yet)"
    body = f"Task: {messages.task}\n\n{head}\n{steps}\n\nLatest memory: {messages.memory or '(none)'}"
    body += state
    content: str | list[str | dict[Any, Any]] = messages.redact(body)
    if use_vision and messages.last_screenshot:
        image = {
            "type": "image_url",
            "image_url": {"url": f"data:image/jpeg;base64,{messages.last_screenshot}"},
        }
        content = [{"type": "text", "text": content}, image]
    request = [SystemMessage(content=load_prompt("planner.md")), HumanMessage(content=content)]
    text, usage = await ask_text(planner, request, retry)
    return strip_think(text).strip(), usage
