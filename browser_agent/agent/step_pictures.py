"""The pictures a run records (``record_screenshots``): each step's marked, masked screenshot, and the
page after the last action."""

from __future__ import annotations

from browser_agent.browser import BrowserSession
from browser_agent.browser.masking import screenshot_for_model
from browser_agent.errors import ActionError, BrowserError
from browser_agent.record import StepScreenshot
from browser_agent.sensitive import Secrets

__all__ = ["final_picture", "recorded"]

# The longest the picture of the page after the last action may take: once a run, so a tab that does not
# answer holds up the end a little; at 3 s a report's last picture was missing once on a 2-core machine
# under load (a full test run beside a local model), though the page answered.
_FINAL_PICTURE_S = 5.0


def recorded(session: BrowserSession, jpeg_b64: str) -> StepScreenshot:
    """``jpeg_b64`` as the record keeps it, with the size of the tab's viewport."""
    size = session.page.viewport_size or {"width": 0, "height": 0}
    return StepScreenshot(jpeg_b64=jpeg_b64, width=size["width"], height=size["height"])


async def final_picture(session: BrowserSession, secrets: Secrets) -> StepScreenshot | None:
    """The page after the last action: masked like every recorded screenshot, without marks, within the
    capture time; None when it cannot be had (no browser, every tab closed)."""
    if not session.started:
        return None
    try:
        page = session.page
    except (BrowserError, ActionError):  # every tab closed
        return None
    if page.is_closed():
        return None
    # bounded tighter than a step's picture: a tab that does not answer must not hold up a stop
    seconds = min(session.config.capture_timeout_ms / 1000, _FINAL_PICTURE_S)
    shot = await screenshot_for_model(page, secrets.values(), None, seconds)
    return recorded(session, shot) if shot is not None else None
