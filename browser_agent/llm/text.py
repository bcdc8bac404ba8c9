"""Ask a chat model for plain text (the planner's plan), with the same retries as structured calls."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage

from browser_agent.llm.retry import RetryPolicy, call_with_retry
from browser_agent.llm.usage import TokenUsage, usage_of

__all__ = ["ask_text"]


async def ask_text(
    llm: BaseChatModel,
    messages: Sequence[BaseMessage],
    retry: RetryPolicy | None = None,
    *,
    what: str = "The planner call",
) -> tuple[str, TokenUsage]:
    """The reply's text (list contents joined) and its token usage.

    Raises:
        ModelError: the provider failed after retries.
    """
    reply = await call_with_retry(lambda: llm.ainvoke(list(messages)), retry, what=what)
    content = reply.content
    if isinstance(content, list):
        content = "".join(part if isinstance(part, str) else str(part.get("text", "")) for part in content)
    return str(content), usage_of(reply)
