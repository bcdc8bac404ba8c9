"""The page view a client reads: URL, title, tabs, what happened, and the indexed elements with their text.

It is the agent's page text (``browser.page_text``), redacted with the server's secrets; the optional
screenshot is a set-of-marks picture with fields showing a secret covered.
"""

from __future__ import annotations

from dataclasses import dataclass

from browser_agent.browser import BrowserSession, BrowserState
from browser_agent.browser.page_text import page_text
from browser_agent.errors import ActionError
from browser_agent.sensitive import Secrets

__all__ = ["PageView", "capture_view", "view_text"]

INDEX_NOTE = "Page ([n] is the index to pass to actions; *[n] appeared since the last view):"


@dataclass(frozen=True, slots=True)
class PageView:
    """The text of the page view and, when asked for, a base64 JPEG with the indices drawn on it."""

    text: str
    screenshot_b64: str | None = None


def view_text(state: BrowserState) -> str:
    """The page view of ``state`` (not redacted): the agent's page text (``browser.page_text``) under a
    note on the indices."""
    view = page_text(state, since="the last view")
    return "\n".join([*view.header, *view.events, INDEX_NOTE, view.body])


async def capture_view(
    session: BrowserSession,
    secrets: Secrets,
    *,
    screenshot: bool = False,
) -> PageView:
    """Capture the current tab; the snapshot becomes the one the next action's indices refer to.

    A tab that closed or crashed is reported in the text rather than raised: the client can switch tabs.
    """
    try:
        # The same set-of-marks picture the agent's vision gets, secrets blacked out.
        state = await session.state(
            screenshot=screenshot,
            mask_values=secrets.values(),
            marks=screenshot,
            redact=secrets.redact if secrets else None,  # before the capture cuts its texts
        )
    except ActionError as exc:
        return PageView(secrets.redact(f"(page not captured: {exc})"))
    return PageView(secrets.redact(view_text(state)), state.screenshot_b64)
