"""Page hooks installed before page scripts run: click-listener and closed-shadow-root bookkeeping."""

from __future__ import annotations

from functools import cache
from importlib import resources

from playwright.async_api import BrowserContext

__all__ = ["install_page_hooks"]


@cache
def _script() -> str:
    return resources.files("browser_agent.dom").joinpath("hooks.js").read_text(encoding="utf-8")


async def install_page_hooks(context: BrowserContext) -> None:
    """Register the hooks for every document of ``context`` opened from now on.

    Without them extraction still works, but custom widgets that are clickable only through
    ``addEventListener`` (no ``onclick``, no ``cursor: pointer``) and closed shadow roots are not seen.
    """
    await context.add_init_script(_script())
