"""``extract_content``: the passages of the page that match a goal, answered by the extraction LLM when one
is set."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from browser_agent.action_specs import extraction as specs
from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.controller.action_types import ActionResult
from browser_agent.controller.context import ActionContext
from browser_agent.controller.json_schema import model_from_schema
from browser_agent.controller.passages import Ranking, best_passages
from browser_agent.controller.registry import Registry
from browser_agent.errors import ActionError, ModelError
from browser_agent.llm import TokenUsage, ask_structured, ask_text

__all__ = ["extract_content", "page_markdown", "register"]

# Walks the visible DOM (open shadow roots included) and writes headings, links, list items, table
# rows and paragraphs as markdown; scripts, styles and hidden subtrees are left out.
_MARKDOWN_JS = r"""() => {
  const out = [];
  const skip = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'HEAD']);
  const block = new Set(['P', 'DIV', 'SECTION', 'ARTICLE', 'MAIN', 'HEADER', 'FOOTER', 'NAV', 'ASIDE',
                         'FORM', 'UL', 'OL', 'TABLE', 'TR', 'BR', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'LI',
                         'PRE', 'BLOCKQUOTE', 'FIGURE', 'DL', 'DT', 'DD', 'LABEL']);
  const hidden = (e) => {
    const s = getComputedStyle(e);
    return s.display === 'none' || s.visibility === 'hidden';
  };
  const walk = (node) => {
    if (node.nodeType === 3) { out.push(node.textContent.replace(/\s+/g, ' ')); return; }
    if (node.nodeType !== 1 && node.nodeType !== 11) return;
    const el = node;
    if (el.nodeType === 1 && (skip.has(el.tagName.toUpperCase()) || hidden(el))) return;
    const tag = el.nodeType === 1 ? el.tagName.toUpperCase() : '';
    if (block.has(tag)) out.push('\n');
    if (/^H[1-6]$/.test(tag)) out.push('#'.repeat(+tag[1]) + ' ');
    if (tag === 'LI') out.push('- ');
    if (tag === 'TD' || tag === 'TH') out.push(' | ');
    if (tag === 'A' && el.href) {
      out.push('[' + el.innerText.trim().replace(/\s+/g, ' ') + '](' + el.href + ')');
      return;
    }
    if (tag === 'IMG' && el.alt) { out.push('![' + el.alt + ']'); return; }
    const field = tag === 'INPUT' || tag === 'TEXTAREA';
    if (field && el.type !== 'password' && el.value) out.push(' [' + el.value + '] ');
    if (el.shadowRoot) walk(el.shadowRoot);
    for (const child of el.childNodes) walk(child);
    if (block.has(tag)) out.push('\n');
  };
  walk(document.body || document.documentElement);
  return out.join('').replace(/[ \t]+\n/g, '\n').replace(/\n[ \t]+/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
}"""

_SYSTEM = (
    "You extract information from a web page for a browser agent. Answer the goal using only the page "
    "content given; quote values exactly; say plainly when the page does not contain what is asked."
)


async def page_markdown(ctx: ActionContext) -> str:
    """The text of every frame of the current page, as markdown-ish text."""
    parts = []
    for frame in ctx.page.frames:
        try:
            text = await frame.evaluate(_MARKDOWN_JS)
        except PlaywrightError:
            continue  # a frame that navigated or closed meanwhile has nothing to add
        if text:
            parts.append(text if frame is ctx.page.main_frame else f"[frame {frame.url}]\n{text}")
    return "\n\n".join(parts)


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
    content = ctx.redact(await page_markdown(ctx))  # the page may show a secret the agent typed
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
