"""The request budget: how many tokens one request may hold so that the model's server never refuses it.

``AgentSettings.max_input_tokens`` is a cost ceiling; the model's context is a hard one. The context comes
from ``AgentSettings.context_tokens`` or, without it, from the server itself (``llm/context_window.py``:
llama.cpp and vLLM say theirs). Of the context, the reply's tokens and a margin (the chat template, a
tool schema the server writes into the prompt) are kept free, and what is left is counted in the
conversation's own estimate (four characters a token), which page text full of addresses makes
optimistic: 3.1-3.8 characters an o200k token on the real-page corpus. Hence a quarter held back.

Also asked of the server once a run: whether requests begin the model's reply (``begins_replies``).
"""

from __future__ import annotations

import logging

from langchain_core.language_models import BaseChatModel

from browser_agent.agent.settings import AgentSettings
from browser_agent.llm.context_window import context_tokens_of, continues_replies, reply_tokens_of

__all__ = ["REPLY_RESERVE", "begins_replies", "model_budget", "request_budget"]

logger = logging.getLogger("browser_agent")

REPLY_RESERVE = 512  # the reply's tokens when the model names no max_tokens
TEMPLATE_MARGIN = 512  # the chat template's own tokens, a tool schema written into the prompt
ESTIMATE_SHARE = 0.75  # four characters a token estimated; three at worst on real pages
SMALLEST = 256


def request_budget(max_input_tokens: int, context_tokens: int | None, reply_tokens: int | None) -> int:
    """The estimated tokens a request may hold: ``max_input_tokens``, or less when the context is small."""
    if context_tokens is None:
        return max_input_tokens
    room = context_tokens - (reply_tokens or REPLY_RESERVE) - TEMPLATE_MARGIN
    return max(SMALLEST, min(max_input_tokens, int(room * ESTIMATE_SHARE)))


async def model_budget(llm: BaseChatModel, settings: AgentSettings) -> int:
    """The request budget of a run with ``llm``: its context from the settings or from its server."""
    context = settings.context_tokens
    source = "AgentSettings.context_tokens"
    if context is None:
        context = await context_tokens_of(llm)
        source = "the model's server"
    budget = request_budget(settings.max_input_tokens, context, reply_tokens_of(llm))
    if context is not None:
        logger.info("The model holds %d tokens (%s); requests are kept under ~%d.", context, source, budget)
    return budget


async def begins_replies(llm: BaseChatModel, settings: AgentSettings) -> bool:
    """Whether the run's ``json_schema`` requests end with the reply's fixed opening for the model to go
    on from: ``AgentSettings.prefill_reply``, or, without it, whether the server is llama.cpp's."""
    if settings.prefill_reply is not None:
        return settings.prefill_reply
    found = await continues_replies(llm)
    if found:
        logger.info("The model's server continues a begun reply: its fixed opening is sent, not decoded.")
    return found
