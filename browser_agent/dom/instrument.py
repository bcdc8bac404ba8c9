"""Instrument every document before its scripts run: which elements got click listeners, and the closed
shadow roots pages attach (``instrument.js``), so the capture sees custom widgets and closed shadow DOM."""

from __future__ import annotations

from functools import cache
from importlib import resources

from playwright.async_api import BrowserContext

__all__ = ["instrument_pages"]


@cache
def _script() -> str:
    return resources.files("browser_agent.dom").joinpath("instrument.js").read_text(encoding="utf-8")


async def instrument_pages(context: BrowserContext) -> None:
    """Register the hooks for every document of ``context`` opened from now on.

    Without them extraction still works, but custom widgets that are clickable only through
    ``addEventListener`` (no ``onclick``, no ``cursor: pointer``) and closed shadow roots are not seen.
    """
    await context.add_init_script(_script())
