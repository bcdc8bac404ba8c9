"""Tabs: open, switch to, close."""

from __future__ import annotations

from browser_agent.action_specs import tabs as specs
from browser_agent.controller.action_types import ActionResult
from browser_agent.controller.actions.refusals import label_of, page_tabs
from browser_agent.controller.context import ActionContext
from browser_agent.controller.registry import Registry
from browser_agent.errors import TabClosedError

__all__ = ["close_tab", "open_tab", "register", "switch_tab"]

_PAGE_TABS_SHOWN = 6


async def open_tab(url: str, ctx: ActionContext) -> ActionResult:
    """Open a URL in a new tab and make it current."""
    tab_id = await ctx.session.new_tab(url)
    return ActionResult(extracted_content=f"Opened {url} in new tab {tab_id}, now current", new_tab=tab_id)


async def switch_tab(tab_id: int, ctx: ActionContext) -> str:
    """Make another open tab current."""
    await _check_tab(tab_id, ctx)
    page = await ctx.session.switch_tab(tab_id)
    await ctx.session.settle(page)
    return f"Switched to tab {tab_id} ({page.url})"


async def close_tab(tab_id: int, ctx: ActionContext) -> str:
    """Close a tab."""
    await _check_tab(tab_id, ctx)
    await ctx.session.close_tab(tab_id)
    return f"Closed tab {tab_id}; tab {ctx.session.current_tab_id} is current"


async def _check_tab(tab_id: int, ctx: ActionContext) -> None:
    """Fail at once on a browser tab that does not exist, saying which do and, when the page has tabs
    of its own (elements a small model took for browser tabs), naming them.

    Raises:
        TabClosedError: no browser tab has that id.
    """
    ids = [t.tab_id for t in await ctx.session.tabs()]
    if tab_id in ids:
        return
    if len(ids) == 1:
        have = f"there is one browser tab ({ids[0]})"
    else:
        have = f"the browser tabs are {', '.join(map(str, ids))}" if ids else "no browser tab is open"
    snapshot = ctx.snapshot or ctx.session.last_snapshot
    tabs = page_tabs(snapshot) if snapshot is not None else []
    if not tabs:
        raise TabClosedError(f"There is no tab {tab_id}: {have}.")
    named = ", ".join(f"[{n.index}] {label_of(n, ctx.redact)}" for n in tabs[:_PAGE_TABS_SHOWN])
    raise TabClosedError(
        f"There is no tab {tab_id}: {have}; the page's own tabs are elements: {named}; click one with "
        "click_element."
    )


def register(registry: Registry) -> None:
    registry.add_spec(open_tab, specs.OPEN_TAB)
    registry.add_spec(switch_tab, specs.SWITCH_TAB)
    registry.add_spec(close_tab, specs.CLOSE_TAB)
