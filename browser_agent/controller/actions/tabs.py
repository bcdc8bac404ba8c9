"""Tabs: open, switch to, close."""

from __future__ import annotations

from browser_agent.controller.context import ActionContext
from browser_agent.controller.models import ActionResult
from browser_agent.controller.registry import Registry

__all__ = ["close_tab", "open_tab", "register", "switch_tab"]


async def open_tab(url: str, ctx: ActionContext) -> ActionResult:
    """Open a URL in a new tab and make it current.

    Args:
        url: The full address to open, with its scheme.
    """
    tab_id = await ctx.session.new_tab(url)
    return ActionResult(extracted_content=f"Opened {url} in new tab {tab_id}, now current", new_tab=tab_id)


async def switch_tab(tab_id: int, ctx: ActionContext) -> str:
    """Make another open tab current.

    Args:
        tab_id: The id of the tab, as listed in the page state.
    """
    page = await ctx.session.switch_tab(tab_id)
    await ctx.session.settle(page)
    return f"Switched to tab {tab_id} ({page.url})"


async def close_tab(tab_id: int, ctx: ActionContext) -> str:
    """Close a tab.

    Args:
        tab_id: The id of the tab to close, as listed in the page state.
    """
    await ctx.session.close_tab(tab_id)
    return f"Closed tab {tab_id}; tab {ctx.session.current_tab_id} is current"


def register(registry: Registry) -> None:
    registry.add(open_tab, "Open a URL in a new, current tab.")
    registry.add(switch_tab, "Switch to a tab.")
    registry.add(close_tab, "Close a tab.")
