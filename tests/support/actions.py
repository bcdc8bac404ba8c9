"""Running one action through a fresh Controller, for tests that check what an action did and said."""

from __future__ import annotations

from typing import Any

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult, Controller
from tests.support.pages import index_of


async def run1(session: BrowserSession, action: dict[str, Any], **kwargs: Any) -> ActionResult:
    """The result of ``action`` run alone on ``session`` (``kwargs`` go to ``Controller.run``)."""
    results = await Controller().run([action], session, **kwargs)
    assert len(results) == 1
    return results[0]


async def type_as_model(
    session: BrowserSession, page_url: str, field: str, text: str, task: str, **kwargs: Any
) -> ActionResult:
    """The result of typing ``text`` into the field named ``field`` of the page at ``page_url`` (opened
    unless it is the current one), as an agent's model chose it for ``task``."""
    if session.page.url != page_url:
        await session.navigate(page_url)
    await session.state()
    action = {"action": "input_text", "index": await index_of(session, field), "text": text}
    return await run1(session, action, model_chose=True, task=task, **kwargs)
