"""Running one action through a fresh Controller, for tests that check what an action did and said."""

from __future__ import annotations

from typing import Any

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult, Controller


async def run1(session: BrowserSession, action: dict[str, Any], **kwargs: Any) -> ActionResult:
    """The result of ``action`` run alone on ``session`` (``kwargs`` go to ``Controller.run``)."""
    results = await Controller().run([action], session, **kwargs)
    assert len(results) == 1
    return results[0]
