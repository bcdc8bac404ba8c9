"""Prompt-cache hints for providers that need them.

OpenAI, llama.cpp and vLLM reuse the longest unchanged beginning of a request by themselves; Anthropic
caches only up to the blocks marked ``cache_control``. The agent's requests begin with a part that never
changes within a run (system prompt, task, the memos of past steps), so the system prompt and the last
message before the current state are marked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage

__all__ = ["with_cache_points"]

_EPHEMERAL = {"type": "ephemeral"}


def with_cache_points(llm: BaseChatModel, messages: Sequence[BaseMessage]) -> list[BaseMessage]:
    """``messages`` with Anthropic's ``cache_control`` on the system prompt and on the message before the
    last one; unchanged for every other provider."""
    marked = list(messages)
    if not type(llm).__module__.startswith("langchain_anthropic") or len(marked) < 2:
        return marked
    for position in sorted({0, len(marked) - 2}):
        marked[position] = _marked(marked[position])
    return marked


def _marked(message: BaseMessage) -> BaseMessage:
    content: Any = message.content
    if isinstance(content, str):
        blocks: list[Any] = [{"type": "text", "text": content, "cache_control": _EPHEMERAL}]
    else:
        blocks = [dict(b) if isinstance(b, dict) else {"type": "text", "text": b} for b in content]
        if not blocks:
            return message
        blocks[-1]["cache_control"] = _EPHEMERAL
    return message.model_copy(update={"content": blocks})
