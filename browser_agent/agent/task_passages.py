"""The passages of a long page that match the task, shown under the page view.

A small model asked a question about an article sees the first screen of it, mostly navigation on an
unstyled page, and "18.5 pages below"; it followed a link, or gave up, rather than scroll or call
``extract_content`` (in 20 of 20 reading episodes it did not call it, told or not). So on a page that goes
on for a screen or more below, the page's text blocks that best match the task's words (the BM25 ranking
of ``extract_content``, no model) are shown with the page view, within a small token budget: the answer
to a question about one sentence of a long article is then in the first request. A page of one screen,
every MiniWoB++ page among them, gets nothing: its whole text is in the page view already.
"""

from __future__ import annotations

from collections.abc import Callable

from playwright.async_api import Page

from browser_agent.browser.page_markdown import page_markdown
from browser_agent.browser.state import BrowserState
from browser_agent.controller.passages import best_passages

__all__ = ["LONG_PAGE_SCREENS", "task_passages"]

LONG_PAGE_SCREENS = 1.0  # a page with this many screens below the viewport, or more, is long


async def task_passages(
    page: Page, task: str, state: BrowserState, budget_tokens: int, redact: Callable[[str], str]
) -> tuple[str, ...]:
    """The passages of a long page that share words with ``task``, best first, within ``budget_tokens``;
    none for a short page, a dialog, or a page with no passage naming the task's words. The page's text
    is redacted with ``redact`` whole, before it is cut into passages: a secret cut first would leave a
    part of itself that no longer reads as the secret."""
    snapshot = state.snapshot
    if budget_tokens <= 0 or snapshot is None or snapshot.dialog:
        return ()
    if snapshot.scroll.pages_below < LONG_PAGE_SCREENS:
        return ()
    ranking = best_passages(task, redact(await page_markdown(page)), budget_tokens)
    if not ranking.matched or len(ranking.kept) == ranking.total:
        return ()  # nothing matches, or the page's whole text is short: the view holds it
    return tuple(p.text for p in ranking.kept)
