"""Tabs: open, switch to, close (behaviour: ``controller/actions/tabs.py``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from browser_agent.action_specs import checks
from browser_agent.action_specs.spec import ActionSpec, Input, Script

__all__ = ["CLOSE_TAB", "OPEN_TAB", "SPECS", "SWITCH_TAB"]


class OpenTabParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    url: str = Field(description="The full address to open, with its scheme.")


class SwitchTabParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tab_id: int = Field(description="The id of the tab, as listed in the page state.")


class CloseTabParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tab_id: int = Field(description="The id of the tab to close, as listed in the page state.")


# The script's ``tabs`` list holds the tabs in the order they opened: the agent's tab numbers.
def _open_tab(p: OpenTabParams, script: Script) -> list[str]:
    return ["page = page.context.new_page()", "tabs.append(page)", f"page.goto({script.literal(p.url)})"]


def _switch_tab(p: SwitchTabParams, script: Script) -> list[str]:
    return [f"page = tabs[{int(p.tab_id)}]", "page.bring_to_front()"]


def _close_tab(p: CloseTabParams, script: Script) -> list[str]:
    return [f"tabs[{int(p.tab_id)}].close()"]


OPEN_TAB = ActionSpec(
    "open_tab",
    "Open a URL in a new, current tab.",
    OpenTabParams,
    export=_open_tab,
    inputs={"url": Input("url")},
    checks={"url": checks.text},
    tabs=True,
)
SWITCH_TAB = ActionSpec(
    "switch_tab",
    "Switch to a tab.",
    SwitchTabParams,
    export=_switch_tab,
    checks={"tab_id": checks.tab_id},
    tabs=True,
)
CLOSE_TAB = ActionSpec(
    "close_tab",
    "Close a tab.",
    CloseTabParams,
    export=_close_tab,
    checks={"tab_id": checks.tab_id},
    tabs=True,
)
SPECS = (OPEN_TAB, SWITCH_TAB, CLOSE_TAB)
