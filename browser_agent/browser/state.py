"""What ``BrowserSession.state()`` returns."""

from __future__ import annotations

from dataclasses import dataclass

from browser_agent.dom.snapshot import DomSnapshot

__all__ = ["BrowserState", "TabInfo"]


@dataclass(frozen=True, slots=True)
class TabInfo:
    tab_id: int
    url: str
    title: str


@dataclass(frozen=True, slots=True)
class BrowserState:
    """The page as the agent observes it at the start of a step."""

    url: str
    title: str
    tabs: tuple[TabInfo, ...]
    current_tab_id: int
    snapshot: DomSnapshot | None = None
    events: tuple[str, ...] = ()
    screenshot_b64: str | None = None
