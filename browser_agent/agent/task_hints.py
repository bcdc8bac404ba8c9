"""What the state adds for the task beyond the page view: the long page's passages that match it
(``agent/task_passages.py``) and where the page hides the names it quotes (``agent/task_hidden.py``).
A page that goes away while they are read gets none: the view is enough."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from playwright.async_api import Page

from browser_agent.agent.task_hidden import HiddenName, hidden_openers
from browser_agent.agent.task_passages import task_passages
from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.browser.state import BrowserState
from browser_agent.errors import BrowserError

__all__ = ["NO_HINTS", "TaskHints", "task_hints"]

logger = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True)
class TaskHints:
    """``passages``: the long page's text that matches the task; ``hidden``: each name the task quotes
    that the page holds in a closed part, with the element that opens it."""

    passages: tuple[str, ...] = ()
    hidden: tuple[HiddenName, ...] = ()


NO_HINTS = TaskHints()


async def task_hints(
    page: Page, task: str, state: BrowserState, passage_tokens: int, redact: Callable[[str], str]
) -> TaskHints:
    """The hints for ``task`` on ``page`` as ``state`` shows it; passages within ``passage_tokens``,
    redacted with ``redact``."""
    passages = await _quietly(task_passages(page, task, state, passage_tokens, redact), "task passages")
    hidden = await _quietly(hidden_openers(page, task, state.snapshot), "hidden names")
    return TaskHints(passages, hidden)


async def _quietly(reading: Awaitable[tuple[T, ...]], what: str) -> tuple[T, ...]:
    try:
        return await reading
    except (BrowserError, PlaywrightError) as exc:  # the page went away meanwhile
        logger.debug("No %s: %s", what, exc)
        return ()
