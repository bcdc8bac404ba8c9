"""Prompt-cache hints for providers that need them.

OpenAI, llama.cpp and vLLM reuse the longest unchanged beginning of a request by themselves; Anthropic
caches only up to the blocks marked ``cache_control`` (its row in ``providers`` names the mark). The
agent's requests begin with a part that never changes within a run (system prompt, task, the memos of
past steps), so the system prompt and the last message before the current state are marked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage

from browser_agent.llm.providers import provider_of

__all__ = ["with_cache_points"]


def with_cache_points(llm: BaseChatModel, messages: Sequence[BaseMessage]) -> list[BaseMessage]:
    """``messages`` with ``cache_control`` on the system prompt and on the message before the last one,
    for a provider that caches only up to marked blocks (Anthropic); unchanged for every other."""
    marked = list(messages)
    provider = provider_of(llm)
    if provider is None or provider.cache_control is None or len(marked) < 2:
        return marked
    for position in sorted({0, len(marked) - 2}):
        marked[position] = _marked(marked[position], {"type": provider.cache_control})
    return marked


def _marked(message: BaseMessage, mark: dict[str, str]) -> BaseMessage:
    content: Any = message.content
    if isinstance(content, str):
        blocks: list[Any] = [{"type": "text", "text": content, "cache_control": mark}]
    else:
        blocks = [dict(b) if isinstance(b, dict) else {"type": "text", "text": b} for b in content]
        if not blocks:
            return message
        blocks[-1]["cache_control"] = mark
    return message.model_copy(update={"content": blocks})
