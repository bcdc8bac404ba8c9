"""``extract_content``: the passages of the page that match a goal, answered by the extraction LLM when one
is set."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from browser_agent.action_specs import extraction as specs
from browser_agent.browser.page_markdown import page_markdown
from browser_agent.controller.action_types import ActionResult
from browser_agent.controller.context import ActionContext
from browser_agent.controller.json_schema import model_from_schema
from browser_agent.controller.passages import Ranking, best_passages
from browser_agent.controller.registry import Registry
from browser_agent.errors import ActionError, ModelError
from browser_agent.llm import TokenUsage, ask_structured, ask_text

__all__ = ["extract_content", "register"]

_SYSTEM = (
    "You extract information from a web page for a browser agent. Answer the goal using only the page "
    "content given; quote values exactly; say plainly when the page does not contain what is asked."
)


async def extract_content(
    goal: str, ctx: ActionContext, output_schema: dict[str, Any] | None
) -> ActionResult:
    """Read the whole page (not only the visible part) and extract what serves a goal.

    Only the passages of the page that best match the goal's words (``controller/passages.py``) are
    read: the page's text blocks ranked by BM25, the best kept within a few hundred tokens. Without an
    extraction model they are the result; with one, they are what it is given. The goal and schema go to
    the extraction model, never to the page: their ``<secret>`` placeholders are not filled
    (``Placeholders.KEPT``).
    """
    content = ctx.redact(await page_markdown(ctx.page))  # the page may show a secret the agent typed
    llm, settings = ctx.extraction_llm, ctx.settings
    if llm is None:
        ranking = best_passages(goal, content, settings.extract_passage_tokens)
        return ActionResult(
            extracted_content=f"{_heading(ctx.quote(goal), ranking)}\n{ranking.text()}",
            include_in_memory=True,
        )
    ranking = best_passages(goal, content, settings.extract_llm_passage_tokens)
    page = ranking.text()
    messages = [SystemMessage(content=_SYSTEM), HumanMessage(content=f"Goal: {goal}\n\nPage:\n{page}")]
    try:
        answer, usage = await _ask(llm, messages, output_schema)
    except ModelError as exc:  # the extraction model failed after retries: the agent can go on without it
        raise ActionError(f"The extraction model failed ({exc}); use the page state instead.") from exc
    answer = _bounded(answer, settings.extract_max_chars)
    return ActionResult(
        extracted_content=f"Extracted for {ctx.quote(goal)}:\n{answer}", include_in_memory=True, usage=usage
    )


def _heading(goal: str, ranking: Ranking) -> str:
    """The first line of a result of passages: which, of how many, and what to do for more."""
    if len(ranking.kept) == ranking.total:
        return f"Page content for {goal}:"
    if not ranking.matched:
        return (
            f"No passage of the page names the words of {goal}; its first {len(ranking.kept)} passages "
            f"of text (of {ranking.total}):"
        )
    return (
        f"The {len(ranking.kept)} of {ranking.total} page passages that best match {goal}, best first "
        "(for others, extract with other words):"
    )


def _bounded(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, saying so: it goes into every later request's memo."""
    return text if len(text) <= limit else text[:limit] + f" [... {len(text) - limit} more characters]"


async def _ask(
    llm: BaseChatModel, messages: list[BaseMessage], schema: dict[str, Any] | None
) -> tuple[str, TokenUsage]:
    """The extraction model's answer (text, or JSON validated against ``schema``) and its tokens."""
    if schema is None:
        text, usage = await ask_text(llm, messages, what="The extraction call")
        return text.strip(), usage
    reply = await ask_structured(llm, messages, model_from_schema(schema), method="json_mode")
    return reply.parsed.model_dump_json(exclude_none=True), reply.usage


def register(registry: Registry) -> None:
    registry.add_spec(extract_content, specs.EXTRACT_CONTENT)
